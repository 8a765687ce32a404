import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { ROOT } from '../helpers.js';

describe('README', () => {
  it('every YAML example parses (a flow mapping with {data_id} in an unquoted path does not)', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const b of blocks) expect(parseDocument(b).errors.map((e) => e.message), b.slice(0, 200)).toEqual([]);
    // the check is real: the old spelling fails
    expect(parseDocument('candidates:\n  - { name: m, mode: html, path: answers/m/{data_id}.html }\n').errors.length).toBeGreaterThan(0);
  });
});
