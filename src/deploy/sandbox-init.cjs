// Cookie's first process inside a candidate's bubblewrap sandbox (see sandbox.ts). Trusted Cookie code,
// plain CommonJS so it starts without a TypeScript loader.
//   node sandbox-init.cjs [--bridge SOCKET:PORT] [--forward PORT:SOCKET] [--uid N] -- CMD ARGS...
// --bridge   listen on the Unix socket SOCKET (in the folder Cookie shares with the sandbox) and forward each
//            connection to 127.0.0.1:PORT inside the sandbox's network namespace: the host reaches a dev
//            server that itself reaches nothing
// --forward  listen on 127.0.0.1:PORT inside the sandbox and forward each connection to the host's Unix
//            socket SOCKET: npm's only way out, to Cookie's registry proxy
// --uid      (Cookie runs as root) start CMD through util-linux setpriv as this uid/gid with no groups,
//            no capabilities and no_new_privs, then drop this process's own privileges too: the sockets
//            above were made while root, in a folder the candidate cannot write
// Exits with CMD's exit code; when it exits, bwrap ends and the kernel kills everything left in the PID
// namespace.
'use strict';
const { spawn } = require('node:child_process');
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

function pipeBoth(a, b) {
  a.pipe(b).pipe(a);
  const end = () => (a.destroy(), b.destroy());
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
}

const listening = [];
const bridge = opt('--bridge');
if (bridge) {
  const at = bridge.lastIndexOf(':');
  const sock = bridge.slice(0, at);
  const port = Number(bridge.slice(at + 1));
  fs.rmSync(sock, { force: true });
  const server = net.createServer((c) => pipeBoth(c, net.connect(port, '127.0.0.1')));
  listening.push(new Promise((resolve) => server.listen(sock, resolve)));
}
const forward = opt('--forward');
if (forward) {
  const at = forward.indexOf(':');
  const port = Number(forward.slice(0, at));
  const sock = forward.slice(at + 1);
  const server = net.createServer((c) => pipeBoth(c, net.connect(sock)));
  listening.push(new Promise((resolve) => server.listen(port, '127.0.0.1', resolve)));
}

Promise.all(listening).then(() => {
  const uid = opt('--uid');
  const child =
    uid === undefined
      ? spawn(cmd, args, { stdio: 'inherit' })
      : spawn('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--', cmd, ...args], { stdio: 'inherit' });
  if (uid !== undefined) {
    process.setgroups([]);
    process.setgid(Number(uid));
    process.setuid(Number(uid));
  }
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('error', (e) => {
    process.stderr.write(`cannot start ${cmd}: ${e.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
});
