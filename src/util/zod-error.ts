import type { z } from 'zod';
import { InputError } from '../errors.js';

/**
 * Turn the first zod issue into an {@link InputError} naming the file, the dotted field and a fix.
 * @param file the file that was validated
 * @param error the zod error
 * @param hint optional per-field fix text, keyed by the field's last path segment
 */
export function zodToInputError(file: string, error: z.ZodError, hint: Record<string, string> = {}): InputError {
  const issue = error.issues[0]!;
  const field = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
  const last = String(issue.path[issue.path.length - 1] ?? '');
  let problem = issue.message;
  let fix = hint[last] ?? 'see the README section "Specs and config" for the allowed values';
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
