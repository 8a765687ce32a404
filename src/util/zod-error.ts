import type { z } from 'zod';
import { combineInputErrors, InputError } from '../errors.js';

/**
 * Turn zod issues into an {@link InputError} naming the file, the dotted field and a fix: its fields are
 * the first problem; its message lists every problem (up to 8), one line each.
 * @param file the file that was validated
 * @param error the zod error
 * @param hint optional per-field fix text, keyed by the field's last path segment
 */
export function zodToInputError(file: string, error: z.ZodError, hint: Record<string, string> = {}): InputError {
  // every problem of the file at once, one line each (each line names its file, field and fix)
  return combineInputErrors(error.issues.slice(0, 8).map((i) => oneIssue(file, i, hint)), 8);
}

function oneIssue(file: string, issue: z.core.$ZodIssue, hint: Record<string, string>): InputError {
  const field = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
  const last = String(issue.path[issue.path.length - 1] ?? '');
  let problem = issue.message;
  let fix = hint[last] ?? 'see the README sections "Specs" and "Config" for the allowed values';
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    problem = `unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`;
    fix = `remove or rename ${keys.join(', ')} (a typo?)`;
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    problem = 'is missing';
    fix = hint[last] ?? `add "${last}"`;
  }
  return new InputError(file, field, problem, fix);
}
