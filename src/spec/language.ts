import { ISO6391_BY_NAME, ISO6391_NAMES, ISO6393_TO_1 } from '../vendor/iso-639.data.js';

/**
 * Language codes. Queries carry ISO 639-1 codes; Cookie-Bench labels languages by English name
 * (`Chinese`, `Portuguese`, …; METHOD.md §10), and franc detects ISO 639-3 codes.
 */

/** Names used by Cookie-Bench that the ISO table spells differently or lists as individual languages. */
const NAME_ALIASES: Record<string, string> = {
  chinese: 'zh',
  mandarin: 'zh',
  filipino: 'tl',
  tagalog: 'tl',
  norwegian: 'no',
  greek: 'el',
  malay: 'ms',
  persian: 'fa',
  farsi: 'fa',
  arabic: 'ar',
  swahili: 'sw',
};

/** franc's individual-language codes whose ISO 639-1 code belongs to their macrolanguage. */
const MACRO_MEMBERS: Record<string, string> = {
  cmn: 'zh',
  yue: 'zh',
  arb: 'ar',
  zsm: 'ms',
  pes: 'fa',
  nob: 'no',
  nno: 'no',
  ekk: 'et',
  lvs: 'lv',
  swh: 'sw',
  uzn: 'uz',
  azj: 'az',
  plt: 'mg',
  khk: 'mn',
  ydd: 'yi',
  tgl: 'tl',
  fil: 'tl',
};

const iso1Codes = new Set(Object.keys(ISO6391_NAMES));

/**
 * Normalise a language given as an ISO 639-1 code (`zh`), an ISO 639-3 code (`cmn`) or an English
 * name (`Chinese`, case-insensitive) to ISO 639-1.
 * @returns the ISO 639-1 code, or null when the input is not a known language
 */
export function toIso6391(input: string): string | null {
  const s = input.trim();
  const lower = s.toLowerCase();
  if (lower.length === 2 && iso1Codes.has(lower)) return lower;
  if (/^[a-z]{2}-[a-z]{2,4}$/i.test(s) && iso1Codes.has(lower.slice(0, 2))) return lower.slice(0, 2);
  // own keys only: a language field reading "constructor" or "__proto__" is not a language
  if (Object.hasOwn(NAME_ALIASES, lower)) return NAME_ALIASES[lower]!;
  if (Object.hasOwn(MACRO_MEMBERS, lower)) return MACRO_MEMBERS[lower]!;
  if (lower.length === 3 && Object.hasOwn(ISO6393_TO_1, lower)) return ISO6393_TO_1[lower]!;
  return Object.hasOwn(ISO6391_BY_NAME, lower) ? ISO6391_BY_NAME[lower]! : null;
}

/** English name of an ISO 639-1 code (for messages), or the code itself. */
export function languageName(code: string): string {
  return Object.hasOwn(ISO6391_NAMES, code) ? ISO6391_NAMES[code]! : code;
}
