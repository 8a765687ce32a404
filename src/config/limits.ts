// Kept apart from schema.ts so the CLI can check its flags without loading zod (`cookie --help` stays quick).

/**
 * Upper bounds of the config fields a `cookie test` flag can also set (agent.steps, trials.repeatEach,
 * concurrency): the schema (src/config/schema.ts) and the flags (src/cli/main.ts) check the same numbers.
 */
export const FLAG_LIMITS = { steps: 200, repeatEach: 100, concurrency: 64 } as const;
