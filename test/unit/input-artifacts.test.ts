import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactError } from '../../src/errors.js';
import { hashArtifact } from '../../src/runner/cache.js';
import { runCookie } from '../../src/runner/run.js';
import { MAX_ARTIFACT_BYTES } from '../../src/spec/artifacts.js';
import { discoverSpecs } from '../../src/spec/discover.js';
import { resolveSpec } from '../../src/spec/load.js';
import { loadBenchQueries } from '../../src/spec/queries-jsonl.js';
import { expandTasks } from '../../src/spec/tasks.js';
import { readResults, tmpDir, writeFiles } from '../helpers.js';

const query = { id: 'mixed', prompt: 'A page', language: 'en', kind: 'static' };

/** A folder with a good candidate, a FIFO, a 600 MB sparse file and an html folder without index.html. */
function odd(): string {
  const dir = tmpDir();
  writeFiles(dir, { 'ok.html': '<h1>hi</h1>', 'empty/readme.txt': 'no page here' });
  execFileSync('mkfifo', [path.join(dir, 'fifo.html')]);
  fs.writeFileSync(path.join(dir, 'big.html'), '');
  fs.truncateSync(path.join(dir, 'big.html'), 600 * 1024 * 1024); // sparse: nothing is written
  fs.symlinkSync('loop.html', path.join(dir, 'loop.html'));
  return dir;
}

/** Expand a one-query spec in `dir` with these candidates; task id → inputProblem. */
function problems(dir: string, candidates: object[]): Record<string, string | undefined> {
  const { suite } = resolveSpec({ query, candidates }, path.join(dir, 'mixed.cookie.yaml'));
  return Object.fromEntries(expandTasks([suite], {}).map((t) => [t.candidate.name, t.inputProblem]));
}

describe('candidate artifacts are checked at expansion, each a problem of its own evaluation', () => {
  it('refuses a FIFO, /dev/null, a huge file, a URL, ~, a missing file, react on a file, an html folder without index.html and a symlink loop, naming file, field and fix', () => {
    const dir = odd();
    const p = problems(dir, [
      { name: 'good', mode: 'html', path: 'ok.html' },
      { name: 'pipe', mode: 'html', path: 'fifo.html' },
      { name: 'null', mode: 'html', path: '/dev/null' },
      { name: 'big', mode: 'html', path: 'big.html' },
      { name: 'url', mode: 'html', path: 'https://example.com/x.html' },
      { name: 'home', mode: 'html', path: '~/x.html' },
      { name: 'gone', mode: 'html', path: 'nope.html' },
      { name: 'rx', mode: 'react', path: 'ok.html' },
      { name: 'empty', mode: 'html', path: 'empty' },
      { name: 'loop', mode: 'html', path: 'loop.html' },
    ]);
    const spec = path.join(dir, 'mixed.cookie.yaml');
    expect(p.good).toBeUndefined();
    expect(p.pipe).toBe(`${spec}: candidates.1.path: fifo.html is not a regular file or folder. Fix: point \`path\` at an .html file or a folder`);
    expect(p.null).toMatch(/: candidates\.2\.path: \/dev\/null is not a regular file or folder\. Fix:/);
    expect(p.big).toMatch(new RegExp(`^${spec.replace(/[.]/g, '\\.')}: candidates\\.3\\.path: .*big\\.html holds more than 200\\.0 MB \\(at least 600\\.0 MB\\).*Fix: keep a candidate under 200\\.0 MB`));
    expect(p.url).toMatch(/: candidates\.4\.path: "https:\/\/example\.com\/x\.html" is a URL.*Fix: download the file/);
    expect(p.home).toMatch(/: candidates\.5\.path: "~\/x\.html" starts with ~, which is not expanded\. Fix: use a path relative to the spec/);
    expect(p.gone).toMatch(/: candidates\.6\.path: artifact not found: .*nope\.html\. Fix:/);
    expect(p.rx).toMatch(/: candidates\.7\.mode: is "react" but ok\.html is a file.*Fix: use mode: html/);
    expect(p.loop).toMatch(/: candidates\.9\.path: loop\.html cannot be read \(ELOOP\)\. Fix:/);
    expect(p.empty).toMatch(/: candidates\.8\.path: folder empty has no index\.html\. Fix: add an index\.html/);
  });

  it('hashArtifact refuses a FIFO and an oversized file with an ArtifactError, without opening or reading them', () => {
    const dir = odd();
    expect(() => hashArtifact(path.join(dir, 'fifo.html'))).toThrow(ArtifactError);
    expect(() => hashArtifact(path.join(dir, 'fifo.html'))).toThrow(/fifo\.html is not a regular file or folder/);
    expect(() => hashArtifact(path.join(dir, 'big.html'))).toThrow(new RegExp(`more than ${MAX_ARTIFACT_BYTES / 1024 / 1024}\\.0 MB`));
  });

  it('hashArtifact streams: same hash as before for a page and its referenced files; a FIFO inside a folder is skipped', () => {
    const dir = tmpDir();
    writeFiles(dir, { 'site/index.html': '<script src="app.js"></script>', 'site/app.js': 'x=1' });
    execFileSync('mkfifo', [path.join(dir, 'site', 'pipe')]);
    const expected = crypto.createHash('sha256').update('index.html\0<script src="app.js"></script>\0app.js\0x=1\0').digest('hex');
    expect(hashArtifact(path.join(dir, 'site', 'index.html'))).toBe(expected);
    expect(hashArtifact(path.join(dir, 'site'))).toBe(crypto.createHash('sha256').update('app.js\0x=1\0index.html\0<script src="app.js"></script>\0').digest('hex'));
  });

  it('a run records refused candidates as error at stage load, and --list marks them and exits 1 (no browser)', async () => {
    const dir = odd();
    fs.writeFileSync(path.join(dir, 'mixed.cookie.yaml'), `query: { id: "mixed", prompt: "A page", language: en, kind: static }\ncandidates:\n  - { name: good, mode: html, path: ok.html }\n  - { name: pipe, mode: html, path: fifo.html }\n  - { name: big, mode: html, path: big.html }\n`);
    const listed = await runCookie({ paths: [dir], cwd: dir, list: true, silent: true });
    expect(listed.exitCode).toBe(1);
    expect(listed.listed!.map((t) => [t.id, !!t.inputProblem])).toEqual([['mixed/good', false], ['mixed/pipe', true], ['mixed/big', true]]);
    // a real run of the refused ones only: no browser is needed, each is a result of its own
    const out = path.join(dir, 'out');
    const run = await runCookie({ paths: [dir], cwd: dir, grep: 'pipe|big', outputDir: out, silent: true, reporters: [] });
    expect(run.exitCode).toBe(1);
    const results = readResults(out);
    expect(results.browserVersion).toMatch(/^not launched/);
    expect(results.evaluations.map((e) => [e.id, e.status, e.error?.stage])).toEqual([['mixed/pipe', 'error', 'load'], ['mixed/big', 'error', 'load']]);
    expect(results.evaluations[0]!.error!.message).toContain('candidates.1.path: fifo.html is not a regular file or folder');
  });
});

describe('{data_id} cannot leave the answers folder', () => {
  it('rejects a data_id with a path separator or .. naming the file, the line and the field', () => {
    const dir = tmpDir();
    const f = path.join(dir, 'q.jsonl');
    fs.writeFileSync(f, [{ data_id: 'ok_1', query: 'x' }, { data_id: '../../x', query: 'y' }, { data_id: '..', query: 'z' }, { data_id: 'a\\b', query: 'w' }].map((r) => JSON.stringify(r)).join('\n'));
    let message = '';
    try {
      loadBenchQueries(f);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/q\.jsonl:2: data_id: "\.\.\/\.\.\/x" contains a path separator or is "\." \/ "\.\.".*Fix: use a plain id/),
      expect.stringMatching(/q\.jsonl:3: data_id: "\.\." /),
      expect.stringMatching(/q\.jsonl:4: data_id: "a\\b" /),
    ]);
  });

  it('rejects an inline query id that is a path', () => {
    expect(() => resolveSpec({ query: { ...query, id: '../up' }, candidates: [{ name: 'a', mode: 'html', path: '{data_id}.html' }] }, '/x/s.cookie.yaml')).toThrow(/s\.cookie\.yaml: query\.id: "\.\.\/up" contains a path separator/);
  });
});

describe('spec discovery and symbolic links', () => {
  it('takes a spec reached through a link loop or a symlink once, under its direct path, and leaves out specs a link leads to outside the folder', async () => {
    const dir = tmpDir();
    writeFiles(dir, { 'disc/fine/a.cookie.yaml': 'x', 'other/b.cookie.yaml': 'y' });
    fs.mkdirSync(path.join(dir, 'disc', 'loopy'));
    fs.symlinkSync('..', path.join(dir, 'disc', 'loopy', 'up'));
    fs.symlinkSync('fine/a.cookie.yaml', path.join(dir, 'disc', 'l.cookie.yaml'));
    fs.symlinkSync('../other', path.join(dir, 'disc', 'out'));
    const files = await discoverSpecs(['disc'], dir, ['**/*.cookie.{yaml,yml}'], []);
    expect(files.map((f) => path.relative(dir, f))).toEqual([path.join('disc', 'fine', 'a.cookie.yaml')]);
  });
});
