/**
 * Cookie's error classes (Vitest style: small classes with string codes, `node/errors.ts`).
 * Every user-facing error renders as one line naming the file, the field and the fix.
 */

/** Base class: `code` is stable and machine-readable; `message` is one line for humans. */
export class CookieError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CookieError';
  }
}

/**
 * A spec or config file is malformed. Renders as `<file>: <field>: <problem>. Fix: <fix>`.
 * @param file path of the offending file
 * @param field dotted path of the offending field (`candidates.0.mode`), or `(file)` for the whole file
 */
export class InputError extends CookieError {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super('ERR_COOKIE_INPUT', `${file}: ${field}: ${problem}. Fix: ${fix}`);
    this.name = 'InputError';
  }

  /** Warnings about the same file found before this error (a likely typo of a key), reported with it. */
  warnings: string[] = [];
}

/**
 * Several problems of one file as one {@link InputError}: its fields are the first problem's; its message
 * lists up to `max` problems one line each (each naming file, field and fix), then how many more there are.
 * @throws nothing; `errors` must not be empty
 */
export function combineInputErrors(errors: InputError[], max: number): InputError {
  const first = errors[0]!;
  if (errors.length > 1) {
    const more = errors.length - max;
    first.message = [...errors.slice(0, max).map((e) => e.message), ...(more > 0 ? [`${first.file}: … and ${more} more`] : [])].join('\n');
  }
  return first;
}

/** A stage exceeded its time limit (ms). */
export class StageTimeoutError extends CookieError {
  constructor(
    readonly label: string,
    readonly ms: number,
  ) {
    super('ERR_COOKIE_TIMEOUT', `${label} timed out after ${ms} ms`);
    this.name = 'StageTimeoutError';
  }
}

/** The candidate's artifact (file or folder) does not exist or cannot be served. */
export class ArtifactError extends CookieError {
  constructor(message: string) {
    super('ERR_COOKIE_ARTIFACT', message);
    this.name = 'ArtifactError';
  }
}

/** The browser could not be found or started. */
export class BrowserError extends CookieError {
  constructor(message: string) {
    super('ERR_COOKIE_BROWSER', message);
    this.name = 'BrowserError';
  }
}

/**
 * A results or evidence file was written by a Cookie with another schema (its `schemaVersion` is not the
 * one this Cookie reads), or it is not a Cookie file at all.
 */
export class SchemaVersionError extends CookieError {
  constructor(
    readonly file: string,
    readonly found: unknown,
    readonly expected: number,
  ) {
    super('ERR_COOKIE_SCHEMA', `${file}: schemaVersion: is ${JSON.stringify(found) ?? 'missing'}, this Cookie reads ${expected}. Fix: re-run \`cookie test\` with this Cookie, or read the file with the Cookie version that wrote it`);
    this.name = 'SchemaVersionError';
  }
}

/** A stage of an evaluation failed for a reason that is Cookie's or the environment's, not the app's. */
export class StageError extends CookieError {
  constructor(
    readonly stage: 'load' | 'deploy' | 'perceive' | 'interact' | 'judge',
    message: string,
    options?: { cause?: unknown },
  ) {
    super('ERR_COOKIE_STAGE', message);
    this.name = 'StageError';
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

/** Check the `schemaVersion` of a results or evidence object read back from disk. @throws SchemaVersionError */
export function checkSchemaVersion<T>(value: T, file: string, expected = 1): T {
  const found = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (found !== expected) throw new SchemaVersionError(file, found, expected);
  return value;
}
