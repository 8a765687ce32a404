// yarreg/osm-llm-webdev-test: one brief, eight multi-file static apps (index.html + app.js + styles.css,
// React UMD and Tailwind loaded from ./lib/ or from CDNs: served by the offline CDN).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { defineSpec } from 'cookie-eval';
import { read, REAL } from './shared.ts';

const dir = 'yarreg__osm-llm-webdev-test/gh-pages/restaurant_dark_singlepage';
const task = (parse(read('yarreg__osm-llm-webdev-test/master/config.yaml')) as { tasks: { name: string; brief: string; required_sections: string[] }[] }).tasks.find((t) => t.name === 'restaurant_dark_singlepage')!;

export default defineSpec({
  query: { id: 'yarreg-restaurant', prompt: `${task.brief} Required sections: ${task.required_sections.join(', ')}.`, language: 'en', kind: 'static', category: 'Display & Content' },
  candidates: fs
    .readdirSync(path.join(REAL, dir))
    .filter((m) => fs.existsSync(path.join(REAL, dir, m, 'index.html')))
    .sort()
    .map((m) => ({ name: m, mode: 'html', path: path.join(REAL, dir, m) })),
});
