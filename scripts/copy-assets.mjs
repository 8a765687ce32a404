#!/usr/bin/env node
// Build step after `tsc -p tsconfig.build.json`: copy the files tsc does not emit (in-page scripts,
// the sandbox's CommonJS init, the HTML report's assets, hand-written .d.ts) from src/ and reporters/
// into dist/ beside the compiled modules that read them by a path relative to `import.meta.url`.
// Then stamp dist/ so tests know it is up to date with the sources.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let copied = 0;
for (const top of ['src', 'reporters']) {
  for (const rel of fs.readdirSync(path.join(root, top), { recursive: true })) {
    const src = path.join(root, top, String(rel));
    if (!fs.statSync(src).isFile()) continue;
    if (src.endsWith('.ts') && !src.endsWith('.d.ts')) continue;
    const dest = path.join(root, 'dist', top, String(rel));
    // an asset already there as is stays untouched: a build during a run (npm pack's prepack) never
    // rewrites a file a running CLI may be reading
    if (fs.existsSync(dest) && fs.readFileSync(dest).equals(fs.readFileSync(src))) continue;
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(src, dest);
    copied++;
  }
}
fs.writeFileSync(path.join(root, 'dist', '.build-stamp'), `${new Date().toISOString()}\n`);
console.log(`copied ${copied} asset files into dist/`);
