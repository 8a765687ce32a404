import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from './util/package-root.js';

/** Cookie's version, from package.json. */
export const COOKIE_VERSION: string = (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
