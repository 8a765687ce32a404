import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer, type StaticServer } from '../../src/deploy/static-server.js';

// The candidate's folder is served and nothing else: no path traversal, no symlinks out of it.
let server: StaticServer;
let base: string;
beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-static-'));
  const root = path.join(base, 'app');
  fs.mkdirSync(path.join(root, 'js'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), '<h1>app</h1>');
  fs.writeFileSync(path.join(root, 'js', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, '.env'), 'SECRET=1');
  fs.writeFileSync(path.join(base, 'outside-secret.txt'), 'OUTSIDE');
  fs.symlinkSync(path.join(base, 'outside-secret.txt'), path.join(root, 'leak.txt'));
  fs.symlinkSync('/etc', path.join(root, 'linketc'));
  fs.symlinkSync(path.join(root, 'js'), path.join(root, 'scripts')); // a symlink that stays inside is fine
  server = await startStaticServer(root);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(base, { recursive: true, force: true });
});
const get = async (p: string) => {
  const r = await fetch(server.origin + p);
  return [r.status, await r.text()] as const;
};

describe('static server', () => {
  it('serves the candidate folder, including symlinks that stay inside it', async () => {
    expect(await get('/')).toEqual([200, '<h1>app</h1>']);
    expect(await get('/scripts/app.js')).toEqual([200, 'console.log(1)']);
  });
  it('never follows a symlink out of the folder, never serves dotfiles or traverses up', async () => {
    for (const p of ['/leak.txt', '/linketc/passwd', '/.env', '/../outside-secret.txt', '/%2e%2e/outside-secret.txt', '/..%2foutside-secret.txt']) {
      expect((await get(p))[0], p).toBe(404);
    }
  });
  it('answers the favicon with 204 when the app has none', async () => {
    expect((await fetch(`${server.origin}/favicon.ico`)).status).toBe(204);
  });
});
