import { afterEach, describe, expect, it, vi } from 'vitest';
import { cac } from 'cac';
import { markFlagValues, runnerFlags, unmarkFlagValues } from '../../src/cli/main.js';

/** Parse `args` the way `cookie test` does: its value-taking options, the string ones marked. */
function parseTest(args: string[]): Record<string, unknown> {
  const cli = cac('cookie');
  cli.command('test [...paths]').option('--output-dir <dir>', '').option('--reporter <name>', '').option('--config <file>', '').option('--concurrency <n>', '').option('--steps <n>', '').option('--shard <i/n>', '').option('-t, --grep <pattern>', '').option('--output-file <path>', '').option('--list', '');
  const valued = new Set(cli.commands.flatMap((c) => c.options).filter((o) => o.required !== undefined).flatMap((o) => o.names));
  const strings = new Set(['outputDir', 'reporter', 'config', 'grep', 't', 'shard', 'outputFile']);
  cli.parse(markFlagValues(['node', 'cookie', 'test', ...args], valued, strings), { run: false });
  return unmarkFlagValues(cli.options) as Record<string, unknown>;
}

describe('cookie test flags', () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  it('string options keep the text typed, even when it looks like a number', () => {
    const f = parseTest(['ex', '--output-dir', '2024', '-t', '1e3', '--reporter', '0', '--config', '007.ts', '--shard', '1/2', '--output-file.junit=0404']);
    expect([f.outputDir, f.grep, f.reporter, f.config, f.shard, f.outputFile]).toEqual(['2024', '1e3', '0', '007.ts', '1/2', { junit: '0404' }]);
    expect(parseTest(['--grep=0404']).grep).toBe('0404');
    expect(parseTest(['--output-dir', '0']).outputDir).toBe('0');
    // after --, nothing is touched
    expect(parseTest(['--list', '--', '-t', '5'])['--']).toEqual(['-t', '5']);
  });

  it('an empty -t or --reporter is a missing value, not 0', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(runnerFlags(parseTest(['-t', '']))).toBeNull();
    expect(err).toHaveBeenLastCalledWith(expect.stringContaining('-t/--grep: needs a pattern. Fix: e.g. -t todo'));
    expect(runnerFlags(parseTest(['--reporter', '']))).toBeNull();
    expect(err).toHaveBeenLastCalledWith(expect.stringContaining('--reporter: needs a name. Fix: e.g. --reporter junit'));
    expect(process.exitCode).toBe(2);
  });

  it('a one-value option given twice says so', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(runnerFlags(parseTest(['--steps', '3', '--steps', '4']))).toBeNull();
    expect(err).toHaveBeenLastCalledWith(expect.stringContaining('--steps: given 2 times ("3", "4"). Fix: pass it once'));
    expect(runnerFlags(parseTest(['--output-dir', 'a', '--output-dir', 'b']))).toBeNull();
    expect(err).toHaveBeenLastCalledWith(expect.stringContaining('--output-dir: given 2 times ("a", "b"). Fix: pass it once'));
  });

  it('a negative number after an option is its value, not an unknown option', () => {
    const f = parseTest(['--concurrency', '-1', '--steps', '-5', '--shard', '-1/2', '--list']);
    expect([f.concurrency, f.steps, f.shard, f.list]).toEqual([-1, -5, '-1/2', true]);
    // a flag after a value-taking option stays a flag
    expect(parseTest(['--output-dir', '--list'])).toMatchObject({ list: true });
  });
});
