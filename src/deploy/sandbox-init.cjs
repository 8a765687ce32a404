// PID 1 of a candidate's sandbox (run by `unshare` as root; see processes.ts `sandboxed`). Trusted Cookie
// code, plain CommonJS so it starts without a TypeScript loader.
//   node sandbox-init.cjs [--lo] [--bridge SOCKET:PORT] [--uid N] -- CMD ARGS...
// --lo       bring up the loopback interface of the (otherwise empty) network namespace
// --bridge   forward connections made to the Unix socket SOCKET (visible to the host through the file
//            system) to 127.0.0.1:PORT inside the namespace: the host reaches a dev server that itself
//            reaches nothing
// --uid      drop to this user and group (no supplementary groups) before starting CMD: the candidate's
//            code cannot read root's files or write outside its own copy
// Exits with CMD's exit code; when it exits, the kernel kills everything left in the PID namespace.
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const net = require('node:net');
const fs = require('node:fs');

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const opts = argv.slice(0, sep);
const [cmd, ...args] = argv.slice(sep + 1);
const opt = (name) => {
  const i = opts.indexOf(name);
  return i >= 0 ? opts[i + 1] : undefined;
};

if (opts.includes('--lo')) execFileSync('ip', ['link', 'set', 'lo', 'up']);
const bridge = opt('--bridge');
if (bridge) {
  const at = bridge.lastIndexOf(':');
  const sock = bridge.slice(0, at);
  const port = Number(bridge.slice(at + 1));
  fs.rmSync(sock, { force: true });
  net
    .createServer((c) => {
      const u = net.connect(port, '127.0.0.1');
      c.pipe(u).pipe(c);
      c.on('error', () => u.destroy());
      u.on('error', () => c.destroy());
    })
    .listen(sock);
}
const uid = opt('--uid');
if (uid !== undefined) {
  process.setgroups([]);
  process.setgid(Number(uid));
  process.setuid(Number(uid));
}
const child = spawn(cmd, args, { stdio: 'inherit' });
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('error', (e) => {
  process.stderr.write(`cannot start ${cmd}: ${e.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
