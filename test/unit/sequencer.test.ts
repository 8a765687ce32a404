import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';
import { HEAVY } from '../sequencer.js';

describe('the fresh-clone test order (test/sequencer.ts)', () => {
  it('names only test files that exist, so a renamed heavy file is not silently scheduled last', () => {
    const missing = Object.keys(HEAVY).filter((f) => !fs.existsSync(path.join(ROOT, f)));
    expect(missing).toEqual([]);
  });
});
