#!/usr/bin/env node
// Build step after `tsc -p tsconfig.build.json`: each module of src/vendor/ (a re-export of one dependency)
// is compiled into dist/src/vendor/ as that dependency bundled into one file by esbuild, in place of tsc's
// one-line re-export. Node 20 loads a package of many small ES modules slowly (zod 4: ~90 modules, 65–80 ms
// at every start of the CLI; one bundled file: 25 ms). The dependency's code is the same, only packed; its
// version is the one package-lock.json installed; not minified, so a stack trace through it stays readable. A
// file already holding the same bundle is left untouched (a build during a run never rewrites a module a running
// CLI may be reading).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = path.join(root, 'src/vendor');
const outDir = path.join(root, 'dist/src/vendor');
/** esbuild options every vendor module is built with. */
const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'error' };
let written = 0;
/** Write `dest` atomically unless it already holds `code` (bytes). */
const put = (dest, code) => {
  fs.mkdirSync(outDir, { recursive: true });
  // tsc's source map describes its compiled module, not what is written here
  fs.rmSync(`${dest}.map`, { force: true });
  if (fs.existsSync(dest) && Buffer.from(code).equals(fs.readFileSync(dest))) return;
  fs.writeFileSync(`${dest}.tmp`, code);
  fs.renameSync(`${dest}.tmp`, dest);
  written++;
};
for (const name of fs.readdirSync(srcDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
  const dest = path.join(outDir, name.replace(/\.ts$/, '.js'));
  if (name.endsWith('.data.ts')) {
    // a module of plain data derived from a package (its exports: JSON values) is written as those values,
    // computed from the package installed now: bundled to a temporary file, imported, serialized
    const tmp = path.join(outDir, `.${name}.${process.pid}.mjs`);
    await build({ ...common, entryPoints: [path.join(srcDir, name)], outfile: tmp });
    try {
      const mod = await import(`${pathToFileURL(tmp).href}?t=${Date.now()}`);
      const header = `// Written by scripts/bundle-vendor.mjs from src/vendor/${name}: its exports' values, computed at build time.\n`;
      put(dest, header + Object.entries(mod).map(([k, v]) => `export const ${k} = ${JSON.stringify(v)};\n`).join(''));
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    continue;
  }
  const out = await build({
    ...common,
    entryPoints: [path.join(srcDir, name)],
    write: false,
    legalComments: 'inline',
    // a CommonJS dependency (yaml's Node build) may require Node's built-ins: an ES module has no `require`
    banner: { js: "import { createRequire as __cookieCreateRequire } from 'node:module';\nconst require = __cookieCreateRequire(import.meta.url);" },
  });
  put(dest, out.outputFiles[0].contents);
}
console.log(`bundled ${written} vendor module(s) into dist/src/vendor/`);
