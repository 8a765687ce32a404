import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { giveToSandbox, sandboxAvailable, sandboxCommand } from '../../src/deploy/sandbox.js';
import { tmpDir } from '../helpers.js';

// The bubblewrap sandbox of project candidates, driven directly (no browser): what a command inside can
// see and do. Runs as root on CI and on this machine (the README's setup), which is the case checked.
describe('the bubblewrap sandbox (issue 19 point 1)', () => {
  const run = (script: string, o: { readonly?: string[]; writable?: string[] } = {}) => {
    const dir = tmpDir('cookie-sbx-');
    giveToSandbox(dir);
    const sb = sandboxCommand(process.execPath, ['-e', script], { writable: [dir, ...(o.writable ?? [])], readonly: o.readonly, cwd: dir, env: { PATH: '/usr/bin:/bin', HOME: dir } });
    const r = spawnSync(sb.cmd, sb.args, { encoding: 'utf8', env: { ...process.env, COOKIE_SBX_SECRET: 'sbx-secret-42' }, timeout: 120_000 });
    return { out: r.stdout.trim(), err: r.stderr, code: r.status, dir };
  };

  it('is usable here', () => {
    expect(sandboxAvailable()).toBe(true);
  });

  it.runIf(process.getuid?.() === 0)('root-only files stay unreadable even where they are mounted: the uid is the host uid 65534, not a mapped root', () => {
    const shared = tmpDir('cookie-sbx-shared-');
    fs.chmodSync(shared, 0o755);
    fs.writeFileSync(path.join(shared, 'public.txt'), 'public', { mode: 0o644 });
    fs.writeFileSync(path.join(shared, 'secret.txt'), 'root only', { mode: 0o600 });
    const r = run(
      `const fs = require('fs'); const t = (f) => { try { return fs.readFileSync(f, 'utf8'); } catch (e) { return e.code; } };
       console.log([process.getuid(), process.getgid(), process.getgroups().join('+'), t(${JSON.stringify(path.join(shared, 'public.txt'))}), t(${JSON.stringify(path.join(shared, 'secret.txt'))}), require('fs').readFileSync('/proc/self/status', 'utf8').match(/CapEff:\\s+(\\w+)/)[1], require('fs').readFileSync('/proc/self/status', 'utf8').match(/NoNewPrivs:\\s+(\\d)/)[1]].join(' '));`,
      { readonly: [shared] },
    );
    expect(r.out, r.err).toBe('65534 65534 65534 public EACCES 0000000000000000 1');
  });

  it("the host's environment, processes, sockets and home are absent; only the given folders are writable", () => {
    const r = run(`const fs = require('fs'); const t = (f) => { try { return f(); } catch (e) { return e.code; } };
      console.log(JSON.stringify({
        env: Object.keys(process.env).sort().join(','),
        pids: fs.readdirSync('/proc').filter((d) => /^\\d+$/.test(d)).length,
        run: t(() => fs.readdirSync('/run')), root: t(() => fs.readdirSync('/root')), home: t(() => fs.readdirSync('/home')),
        etc: fs.readdirSync('/etc').sort().join(','),
        tmp: fs.readdirSync('/tmp').length,
        usr: t(() => fs.writeFileSync('/usr/x', 'x')),
        own: t(() => (fs.writeFileSync('own.txt', 'x'), 'ok')),
        net: require('os').networkInterfaces().lo ? Object.keys(require('os').networkInterfaces()).join(',') : 'none',
      }));`);
    const o = JSON.parse(r.out || '{}');
    expect(o.env, r.err).toBe('HOME,PATH,PWD'); // PWD: set by bwrap's --chdir
    expect(o.pids).toBeLessThanOrEqual(3); // bwrap's init, sandbox-init, node: nothing of the host
    expect(o).toMatchObject({ run: 'ENOENT', root: 'ENOENT', home: 'ENOENT', usr: 'EROFS', own: 'ok', net: 'lo' });
    expect(o.etc).not.toMatch(/shadow|npmrc|environment/);
    expect(fs.readFileSync(path.join(r.dir, 'own.txt'), 'utf8')).toBe('x');
  });
});
