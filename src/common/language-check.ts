import { francAll } from 'franc';
import { toIso6391 } from '../spec/language.js';
import type { LanguageCheck } from '../types.js';

/** Unicode scripts a language is written in (letters outside them count as "other script"). */
const SCRIPTS: Record<string, RegExp> = {
  zh: /\p{Script=Han}/u,
  ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
  ko: /[\p{Script=Hangul}\p{Script=Han}]/u,
  ru: /\p{Script=Cyrillic}/u,
  uk: /\p{Script=Cyrillic}/u,
  ar: /\p{Script=Arabic}/u,
  fa: /\p{Script=Arabic}/u,
  he: /\p{Script=Hebrew}/u,
  th: /\p{Script=Thai}/u,
  el: /\p{Script=Greek}/u,
  hi: /\p{Script=Devanagari}/u,
};
const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * The prose of a page's text: words that carry a language. Technical labels do not ("FPS: 60", "AVG",
 * "CURRENT FRAME: 12/200", "px", "RGB"): tokens in capitals, with digits, or of one or two letters are
 * dropped; CJK and Thai characters are always kept (no spaces between their words).
 */
export function proseOf(text: string): string {
  return text
    .split(/[\s,.;:!?()\[\]{}"'|/\\<>=+*&^%$#@~`—–-]+/u)
    .filter((t) => CJK.test(t) || (t.length >= 3 && /\p{Ll}/u.test(t) && !/\d/.test(t)))
    .join(' ');
}

/**
 * Compare the language of a page's visible text with the query's (rubric item 2a, METHOD.md §4;
 * METHOD.md §9: a page not in the query's language is a heavy penalty). Detection is franc's
 * (trigram language identification); Cookie adds the share of letters written in the expected
 * language's script, which is decisive for CJK pages whose labels mix in Latin words.
 * @param text visible text of the page
 * @param expected ISO 639-1 code of the query's language (`und`: not checked)
 * Only the prose is read ({@link proseOf}): labels the brief dictated, like "FPS", say nothing of language.
 * @returns matches = null when there is too little prose (< 20 letters) or the expected language is unknown
 */
export function checkLanguage(text: string, expected: string): LanguageCheck {
  text = proseOf(text);
  const letters = [...text].filter((c) => LETTER.test(c));
  const script = SCRIPTS[expected] ?? LATIN;
  const inScript = letters.filter((c) => script.test(c)).length;
  const share = letters.length ? inScript / letters.length : 0;
  const base = { expected, sampleLength: letters.length, expectedScriptShare: Math.round(share * 1000) / 1000 };
  if (letters.length < 20 || expected === 'und') {
    return { ...base, detected: 'und', matches: null, method: 'too little visible text to tell (< 20 letters)' };
  }
  const ranked = francAll(text.slice(0, 4000), { minLength: 10 })
    .slice(0, 3)
    .map(([code, score]) => ({ code: toIso6391(code) ?? code, score }));
  const detected = ranked[0]?.code === 'und' ? 'und' : ranked[0]?.code ?? 'und';
  let matches: boolean;
  let method: string;
  if (SCRIPTS[expected]) {
    // non-Latin expected: decided by script share (a Chinese page keeps English "FPS" labels)
    const kanaNeeded = expected === 'ja' ? letters.some((c) => /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(c)) : true;
    matches = (share >= 0.25 && kanaNeeded) || detected === expected;
    method = `script share ${Math.round(share * 100)}% in the ${expected} script (≥ 25% passes) + franc`;
  } else {
    const hanOrOther = 1 - letters.filter((c) => LATIN.test(c)).length / letters.length;
    if (hanOrOther > 0.5) {
      matches = false;
      method = `${Math.round(hanOrOther * 100)}% of letters are not Latin script`;
    } else {
      const top = ranked[0]?.score ?? 0;
      matches = detected === expected || ranked.some((r) => r.code === expected && r.score >= top * 0.9) || letters.length < 60;
      method = `franc trigram identification (top 3: ${ranked.map((r) => `${r.code} ${r.score.toFixed(2)}`).join(', ')})${letters.length < 60 ? '; short text: given the benefit of the doubt' : ''}`;
    }
  }
  return { ...base, detected, matches, method };
}
