import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers.js';

// The tests' command runner (test/helpers.ts): the package test relies on it to end a README command that
// hangs (npm/cli#4028) and to run it once more.
describe('runProcess', () => {
  it('with a process group, the limit kills the shell and the children holding its output, and says it timed out', async () => {
    const marker = `sleep ${37 + Math.floor(Math.random() * 1000) / 1000}`;
    const r = await runProcess('sh', ['-c', `${marker} & ${marker}; echo never`], { timeoutMs: 300, group: true });
    expect(r).toMatchObject({ code: null, stdout: '', timedOut: true });
    let left = '';
    try {
      left = execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' });
    } catch {}
    expect(left).toBe('');
  });
  it('a command that finishes: its exit code and both outputs, not timed out', async () => {
    const r = await runProcess('sh', ['-c', 'echo out; echo err >&2; exit 3'], { timeoutMs: 60_000, group: true });
    expect(r).toMatchObject({ code: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false });
  });
});
