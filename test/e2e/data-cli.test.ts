import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli, tmpDir } from '../helpers.js';

describe('cookie bench dedup (CLI)', () => {
  it('writes the four CSVs; each group row says whether it is the representative (1) or not (0)', async () => {
    const dir = tmpDir('cookie-dedup-');
    const rows = [
      { data_id: 'a', query: 'Build a todo list app with due dates and tags.', language: 'English' },
      { data_id: 'b', query: 'Build a todo list app with due dates and tags!', language: 'English' },
      { data_id: 'c', query: '做一个带有粒子效果的太阳系三维模拟页面', language: 'Chinese' },
    ];
    fs.writeFileSync(path.join(dir, 'q.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const r = await runCli(['bench', 'dedup', 'q.jsonl', '--out', 'out'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/input 3 → exact 2/);
    for (const f of ['deduped_queries.csv', 'query_groups.csv', 'semantic_deduped_queries.csv', 'semantic_query_groups.csv']) expect(fs.existsSync(path.join(dir, 'out', f)), f).toBe(true);
    const groups = parse(fs.readFileSync(path.join(dir, 'out', 'query_groups.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    const ab = groups.filter((g) => g.data_id === 'a' || g.data_id === 'b');
    expect(ab.map((g) => [g.data_id, g.representative_id, g.is_representative])).toEqual([['a', 'a', '1'], ['b', 'a', '0']]);
  });
});
