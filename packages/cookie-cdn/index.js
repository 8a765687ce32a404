// cookie-cdn: a data package. cookie-eval finds the `cdn-*` npm aliases installed with it (its
// dependencies) along Node's module paths; this file only names the package's folder.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Folder of this package (its node_modules holds the cdn-* aliases when they are not hoisted). */
export const packageDir = path.dirname(fileURLToPath(import.meta.url));
