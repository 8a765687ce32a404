import type { z } from '../vendor/zod.js';
import { combineInputErrors, InputError } from '../errors.js';
import { didYouMean } from './did-you-mean.js';

/**
 * Turn zod issues into an {@link InputError} naming the file, the dotted field and a fix: its fields are
 * the first problem; its message lists every problem (up to 8), one line each.
 * @param file the file that was validated
 * @param error the zod error
 * @param hint optional per-field fix text, keyed by the field's last path segment
 * @param schema optional schema that was validated: an unknown key then gets a "did you mean" from the keys
 *   allowed at its place
 */
export function zodToInputError(file: string, error: z.ZodError, hint: Record<string, string> = {}, schema?: z.ZodType): InputError {
  // every problem of the file at once, one line each (each line names its file, field and fix)
  return combineInputErrors(zodIssueErrors(file, error, hint, schema), 8);
}

/** The zod issues of a file as {@link InputError}s, one per issue (see {@link zodToInputError}), to report with other problems of the file. */
export function zodIssueErrors(file: string, error: z.ZodError, hint: Record<string, string> = {}, schema?: z.ZodType): InputError[] {
  return error.issues.map((i) => oneIssue(file, i, hint, schema));
}

/** Unwrap optional/default/prefault/nullable/pipe wrappers of a zod (v4) schema. */
function unwrap(s: unknown): Def | undefined {
  let def = (s as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  for (let i = 0; def && i < 10; i++) {
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) break;
    def = (inner as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  }
  return def as Def | undefined;
}

type Def = { type?: string; shape?: Record<string, unknown>; element?: unknown; valueType?: unknown; checks?: unknown[] };

/** The (unwrapped) definition of the schema at a path through objects, arrays and records; undefined when the path leads nowhere. */
function defAt(schema: z.ZodType, at: readonly PropertyKey[]): Def | undefined {
  let def: Def | undefined = unwrap(schema);
  for (const seg of at) {
    if (!def) return undefined;
    if (def.type === 'object') def = unwrap(def.shape?.[String(seg)]);
    else if (def.type === 'array') def = unwrap(def.element);
    else if (def.type === 'record') def = unwrap(def.valueType);
    else return undefined;
  }
  return def;
}

/** Keys an object schema allows at a path (empty when the path does not lead to an object). */
export function keysAt(schema: z.ZodType, at: readonly PropertyKey[]): string[] {
  const def = defAt(schema, at);
  return def?.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}

function oneIssue(file: string, issue: z.core.$ZodIssue, hint: Record<string, string>, schema?: z.ZodType): InputError {
  const field = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
  const last = String(issue.path[issue.path.length - 1] ?? '');
  let problem = issue.message;
  // a check that knows its own fix says it in the issue (`params.fix`); else the per-field hint
  const own = issue.code === 'custom' ? (issue as { params?: { fix?: unknown } }).params?.fix : undefined;
  let fix = typeof own === 'string' ? own : (hint[last] ?? 'see the README sections "Specs" and "Config" for the allowed values');
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    problem = `unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`;
    const known = schema ? keysAt(schema, issue.path) : [];
    const guesses = keys.map((k) => [k, didYouMean(k, known)] as const).filter(([, g]) => g);
    fix = guesses.length ? guesses.map(([k, g]) => `did you mean "${g}" instead of "${k}"?`).join(' ') : `remove or rename ${keys.join(', ')} (a typo?)${known.length ? `; allowed here: ${known.join(', ')}` : ''}`;
  } else if ((issue.code === 'too_big' || issue.code === 'too_small') && typeof own !== 'string' && !hint[last]) {
    // a number out of range: say the range (both ends, from the schema when it has them)
    fix = rangeFix(issue, schema);
  } else if ((issue.code === 'invalid_type' && /received undefined/.test(issue.message)) || ((issue.code === 'invalid_union' || issue.code === 'invalid_value') && 'input' in issue && issue.input === undefined)) {
    // a union (`id: string | number`) or enum (`kind`) says "Invalid input/option" for a key that is not there at all
    problem = 'is missing';
    fix = hint[last] ?? `add "${last}"`;
  }
  return new InputError(file, field, problem, fix);
}

/** "use a number from 0 to 100" for a too_big / too_small issue: both bounds from the schema's checks at the issue's path, else the one the issue names. */
function rangeFix(issue: z.core.$ZodIssue, schema?: z.ZodType): string {
  const i = issue as { origin?: string; maximum?: unknown; minimum?: unknown; inclusive?: boolean };
  const bounds = schema ? boundsAt(schema, issue.path) : {};
  const min = bounds.min ?? (i.minimum !== undefined ? Number(i.minimum) : undefined);
  const max = bounds.max ?? (i.maximum !== undefined ? Number(i.maximum) : undefined);
  const what = i.origin === 'number' || i.origin === 'int' ? 'a number' : i.origin === 'array' ? 'a list length' : i.origin === 'string' ? 'a length' : 'a value';
  if (min !== undefined && max !== undefined) return `use ${what} from ${min} to ${max}`;
  // an exclusive bound (`.positive()`: > 0) is not "at least 0"
  if (max !== undefined) return (bounds.max !== undefined ? bounds.maxExclusive : i.inclusive === false) ? `use ${what} below ${max}` : `use ${what} of at most ${max}`;
  return (bounds.min !== undefined ? bounds.minExclusive : i.inclusive === false) ? `use ${what} above ${min}` : `use ${what} of at least ${min}`;
}

/** The min/max checks of the number schema at a path, and whether each excludes its value (zod v4 internals; empty when not found). */
function boundsAt(schema: z.ZodType, at: readonly PropertyKey[]): { min?: number; max?: number; minExclusive?: boolean; maxExclusive?: boolean } {
  const out: { min?: number; max?: number; minExclusive?: boolean; maxExclusive?: boolean } = {};
  for (const c of defAt(schema, at)?.checks ?? []) {
    const d = (c as { _zod?: { def?: { check?: string; value?: unknown; inclusive?: boolean } } })._zod?.def;
    if (d?.check === 'greater_than' && typeof d.value === 'number') Object.assign(out, { min: d.value, minExclusive: d.inclusive === false });
    if (d?.check === 'less_than' && typeof d.value === 'number') Object.assign(out, { max: d.value, maxExclusive: d.inclusive === false });
  }
  return out;
}
