import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../src/browser/launch.js';
import { defaultChromium } from '../../src/util/chromium.js';

// Isolation between evaluations (issue 19): when an evaluation ends, every renderer of its browser is gone;
// a browser that served a hostile page is replaced, its whole process group killed.
const CHROMIUM = defaultChromium();
const pool = new BrowserPool(CHROMIUM);
afterAll(() => pool.closeAll(1));

/** Live (not zombie) processes of a process group whose command line matches. */
function members(pgid: number, match = /./): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const st = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      if (f[0] === 'Z' || Number(f[2]) !== pgid) continue;
      if (match.test(fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').replace(/\0/g, ' '))) out.push(Number(e));
    } catch {
      /* gone */
    }
  }
  return out;
}

describe('browser pool', () => {
  it("kills a busy page's renderer when its evaluation ends, keeps the browser for the next, and kills the whole group on recycle", async () => {
    const first = await pool.acquire();
    expect(first.pid).not.toBeNull();
    const ctx = await first.browser.newContext();
    const page = await ctx.newPage();
    await page.setContent('<h1>busy</h1>');
    void page.evaluate('setTimeout(() => { for (;;) {} }, 50)').catch(() => {});
    const renderers = members(first.pid!, /--type=renderer/);
    expect(renderers.length).toBeGreaterThan(0);
    await ctx.close().catch(() => {});
    await first.close();
    for (const pid of renderers) expect(members(first.pid!).includes(pid), `renderer ${pid} outlived its evaluation`).toBe(false);

    // not hostile: the same browser serves the next evaluation, and works
    const second = await pool.acquire();
    expect(second.pid).toBe(first.pid);
    const c2 = await second.browser.newContext();
    const p2 = await c2.newPage();
    await p2.setContent('<p>next</p>');
    expect(await p2.textContent('p')).toBe('next');
    await c2.close();
    await second.close({ recycle: true });
    expect(members(first.pid!)).toEqual([]);

    // recycled: the next evaluation gets a fresh browser
    const third = await pool.acquire();
    expect(third.pid).not.toBe(first.pid);
    await third.close({ recycle: true });
    expect(members(third.pid!)).toEqual([]);
  });
});
