import { describe, expect, it } from 'vitest';
import { diagnoseBuildLog } from '../../src/deploy/project.js';

// Log tails as tsc 5 and Vite 7 (esbuild) print them for the paper's commonest genuine build failures,
// captured from `npm run build` / `vite build` of examples/react/good with the fault planted.
const TSC_BACKSLASH = `
> cookie-react-scaffold@0.0.0 build
> tsc -b && vite build

src/App.tsx(7,19): error TS1125: Hexadecimal digit expected.
`;
const VITE_BACKSLASH = `vite v7.3.8 building client environment for production...
transforming...
✓ 3 modules transformed.
✗ Build failed in 113ms
error during build:
[vite:esbuild] Transform failed with 1 error:
/tmp/cookie-project-Ab12/src/App.tsx:7:18: ERROR: Syntax error "s"
file: /tmp/cookie-project-Ab12/src/App.tsx:7:18

Syntax error "s"
7  |  const PATH = 'C:\\users\\me';
   |                    ^
    at failureErrorWithLog (/tmp/cookie-project-Ab12/node_modules/esbuild/lib/main.js:1752:15)
`;
const TSC_ICON = `> tsc -b && vite build

src/App.tsx(1,38): error TS2305: Module '"lucide-react"' has no exported member 'RocketShip'.
`;
const VITE_ICON = `error during build:
src/App.tsx (1:38): "RocketShip" is not exported by "node_modules/lucide-react/dist/esm/lucide-react.js", imported by "src/App.tsx".
`;

describe('build log diagnosis (paper §5: the commonest genuine React failures)', () => {
  it('recognises an unescaped backslash in a string literal, from tsc and from esbuild, with its place', () => {
    expect(diagnoseBuildLog(TSC_BACKSLASH)).toEqual({ kind: 'syntax-error', summary: 'syntax error at src/App.tsx:7:19: error TS1125: Hexadecimal digit expected.' });
    expect(diagnoseBuildLog(VITE_BACKSLASH)).toEqual({ kind: 'syntax-error', summary: 'syntax error at src/App.tsx:7:18: Syntax error "s"' });
  });
  it('recognises a lucide-react icon that does not exist, from tsc and from Rollup', () => {
    for (const log of [TSC_ICON, VITE_ICON]) expect(diagnoseBuildLog(log)).toEqual({ kind: 'missing-icon', summary: 'imports a lucide-react icon that does not exist: RocketShip' });
  });
  it('a type error is not a syntax error; a timeout is a timeout; an unknown failure keeps its last line', () => {
    expect(diagnoseBuildLog("src/App.tsx(3,7): error TS2322: Type 'string' is not assignable to type 'number'.").kind).toBe('type-error');
    expect(diagnoseBuildLog('anything', true).kind).toBe('timeout');
    expect(diagnoseBuildLog('step 1\nKilled\n')).toEqual({ kind: 'unknown', summary: 'Killed' });
  });
});
