import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Cookie's version, from package.json. */
export const COOKIE_VERSION: string = (require('../package.json') as { version: string }).version;
