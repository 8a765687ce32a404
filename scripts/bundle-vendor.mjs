#!/usr/bin/env node
// Build step after `tsc -p tsconfig.build.json`: each module of src/vendor/ (a re-export of one dependency)
// is compiled into dist/src/vendor/ as that dependency bundled into one file by esbuild, in place of tsc's
// one-line re-export. Node 20 loads a package of many small ES modules slowly (zod 4: ~90 modules, 65–80 ms
// at every start of the CLI; one bundled file: 25 ms). The dependency's code is the same, only packed; its
// version is the one package-lock.json installed; not minified, so a stack trace through it stays readable. A file already holding the same bundle is left untouched (a
// build during a run never rewrites a module a running CLI may be reading).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = path.join(root, 'src/vendor');
const outDir = path.join(root, 'dist/src/vendor');
let written = 0;
for (const name of fs.readdirSync(srcDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
  const out = await build({
    entryPoints: [path.join(srcDir, name)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    legalComments: 'inline',
    logLevel: 'error',
    // a CommonJS dependency (yaml's Node build) may require Node's built-ins: an ES module has no `require`
    banner: { js: "import { createRequire as __cookieCreateRequire } from 'node:module';\nconst require = __cookieCreateRequire(import.meta.url);" },
  });
  const code = out.outputFiles[0].contents;
  const dest = path.join(outDir, name.replace(/\.ts$/, '.js'));
  fs.mkdirSync(outDir, { recursive: true });
  // tsc's source map describes its one-line re-export, not the bundle
  fs.rmSync(`${dest}.map`, { force: true });
  if (fs.existsSync(dest) && Buffer.from(code).equals(fs.readFileSync(dest))) continue;
  fs.writeFileSync(`${dest}.tmp`, code);
  fs.renameSync(`${dest}.tmp`, dest);
  written++;
}
console.log(`bundled ${written} vendor module(s) into dist/src/vendor/`);
