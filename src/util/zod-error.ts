import type { z } from 'zod';
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
  return combineInputErrors(error.issues.slice(0, 8).map((i) => oneIssue(file, i, hint, schema)), 8);
}

/** Unwrap optional/default/prefault/nullable/pipe wrappers of a zod (v4) schema. */
function unwrap(s: unknown): { type?: string; shape?: Record<string, unknown>; element?: unknown; valueType?: unknown } | undefined {
  let def = (s as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  for (let i = 0; def && i < 10; i++) {
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) break;
    def = (inner as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  }
  return def as ReturnType<typeof unwrap>;
}

/** Keys an object schema allows at a path (empty when the path does not lead to an object). */
export function keysAt(schema: z.ZodType, at: readonly PropertyKey[]): string[] {
  let def = unwrap(schema);
  for (const seg of at) {
    if (!def) return [];
    if (def.type === 'object') def = unwrap(def.shape?.[String(seg)]);
    else if (def.type === 'array') def = unwrap(def.element);
    else if (def.type === 'record') def = unwrap(def.valueType);
    else return [];
  }
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
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    problem = 'is missing';
    fix = hint[last] ?? `add "${last}"`;
  }
  return new InputError(file, field, problem, fix);
}
