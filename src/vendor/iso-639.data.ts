// The part of the ISO 639 tables (the iso-639-3 package) Cookie reads: spec languages and language detection
// need ISO 639-1 codes, their English names, and the ISO 639-3 → 639-1 map; not the package's 7,900 entries.
// The build (scripts/bundle-vendor.mjs) writes this module's compiled file as its exported values: loading the
// package's 780 KB table costs 30–40 ms at every start of the CLI (a spec's language is checked first); the
// values are the same (test/unit/language.test.ts compares the built file with this module). Under Vitest, and
// in a build where that step did not run, they are computed from the package here.
import { iso6393, iso6393To1 } from 'iso-639-3';

/**
 * ISO 639-1 code → its English reference name in ISO 639-3 (`el` → `Modern Greek (1453-)`), for the 184
 * languages that have a 639-1 code (the first entry naming the code, as the table orders them).
 */
export const ISO6391_NAMES: Record<string, string> = {};
for (const l of iso6393) if (l.iso6391 && !(l.iso6391 in ISO6391_NAMES)) ISO6391_NAMES[l.iso6391] = l.name;

/**
 * English reference name, lower-cased → ISO 639-1 code, for every ISO 639-3 entry that has a 639-1 code (a
 * later entry with the same name wins, as a Map built in table order would have it).
 */
export const ISO6391_BY_NAME: Record<string, string> = {};
for (const l of iso6393) if (l.iso6391) ISO6391_BY_NAME[l.name.toLowerCase()] = l.iso6391;

/** ISO 639-3 code → ISO 639-1 code (`cmn` is not in it: an individual language; see language.ts). */
export const ISO6393_TO_1: Record<string, string> = { ...(iso6393To1 as Record<string, string>) };
