// Words of an item's text as a searcher sees them: shared by the explorer, which picks a search query from
// a listed item, and the offline judge, which checks what the search kept (the same notion on both sides).

/** Normalised for matching: accents stripped (NFKD), lower case, whitespace collapsed. */
export function normText(t: string): string {
  return t.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The text's tokens: runs of letters and digits, in order (punctuation and emoji split them). */
export function tokensOf(t: string): string[] {
  return t.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

const NUMBER = /^\p{N}+$/u;

/** Languages whose date and time words are known: the benchmark's main languages and their neighbours. */
const STAMP_LOCALES = ['en', 'zh', 'ja', 'ko', 'es', 'fr', 'de', 'it', 'pt', 'ru', 'ar', 'hi', 'tr', 'nl', 'pl', 'vi', 'id'];

let stampWords: Set<string> | null = null;
/**
 * Month and weekday names (long and short) and relative-time words ("minutes", "ago", "il y a", "Std") of
 * {@link STAMP_LOCALES}, normalised, as the platform's own ICU data writes them (Intl.DateTimeFormat,
 * Intl.RelativeTimeFormat): the words of date, time and "3 min ago" stamps. Built once.
 */
function stampVocabulary(): Set<string> {
  if (stampWords) return stampWords;
  const out = new Set<string>();
  const add = (text: string) => {
    for (const t of tokensOf(normText(text))) if (!NUMBER.test(t)) out.add(t);
  };
  for (const loc of STAMP_LOCALES) {
    try {
      for (let m = 0; m < 12; m++) for (const month of ['long', 'short'] as const) add(new Intl.DateTimeFormat(loc, { month }).format(new Date(Date.UTC(2026, m, 15))));
      for (let d = 0; d < 7; d++) for (const weekday of ['long', 'short'] as const) add(new Intl.DateTimeFormat(loc, { weekday }).format(new Date(Date.UTC(2026, 0, 5 + d))));
      for (const style of ['long', 'short'] as const) {
        const f = new Intl.RelativeTimeFormat(loc, { style, numeric: 'always' });
        for (const unit of ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'] as const) for (const n of [-3, -1, 1, 3]) add(f.format(n, unit));
      }
    } catch {
      // a runtime without this locale's data: its words are not known
    }
  }
  return (stampWords = out);
}

/**
 * Whether `word` occurs in `text` only as part of a date, time or count stamp: every token that contains it
 * is a month, weekday or relative-time word ({@link stampVocabulary}) standing next to a number ("15 janv.,
 * 09:00", "Jan 5, 2026", "il y a 3 minutes", "3 hours ago"). Such words are an item's metadata, not its
 * content: a notes app's search covers titles and bodies and need not match the month of a note's date stamp
 * (a false "Search hides matching items" on a working French notes app). A content word beside a number
 * ("Lunch 12:30") is content. False when the word does not occur at all.
 */
export function onlyInStamps(text: string, word: string): boolean {
  const w = normText(word);
  if (!w) return false;
  const vocab = stampVocabulary();
  const toks = tokensOf(normText(text));
  let seen = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (!t.includes(w)) continue;
    seen = true;
    // near a number: beside it, or one stamp word away ("3 hours ago", "vor 3 Std.")
    const near = [toks[i - 1], toks[i + 1], vocab.has(toks[i - 1] ?? '') ? toks[i - 2] : undefined, vocab.has(toks[i + 1] ?? '') ? toks[i + 2] : undefined].some((x) => NUMBER.test(x ?? ''));
    if (!(vocab.has(t) && near)) return false;
  }
  return seen;
}
