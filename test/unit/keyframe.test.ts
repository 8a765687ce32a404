import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureKeyframe, countersOnly, keyframeFile } from '../../src/interact/record/keyframe.js';
import { fakePage, png } from '../fixtures/fake-page.js';
import { pngWritesDone } from '../../src/common/png.js';
import { decodePng } from '../../src/perceive/image.js';
import { tmpDir } from '../helpers.js';

const snap = { mutations: 7, scrollX: 0, scrollY: 40, url: 'http://127.0.0.1:1/', focusBox: null };
const probe = (expr: string) => (expr.includes('snapshot()') ? snap : expr.startsWith('window.__cookieProbe.textState(') ? ['Count: 1'] : null);

describe('keyframes of a step', () => {
  it('names keyframe files by zero-padded step index and label', () => {
    expect(keyframeFile(3, 'before')).toBe('screenshots/step-03-before.png');
    expect(keyframeFile(12, 'layout-375')).toBe('screenshots/step-12-layout-375.png');
  });

  it('writes the screenshot, decodes it and reads the probe snapshot and the text state without the target', async () => {
    const dir = tmpDir('cookie-keyframe-');
    fs.mkdirSync(path.join(dir, 'screenshots'));
    const { page, calls } = fakePage({ evaluate: probe, screenshot: () => png([[1, 1]], 64) });
    const t = Date.now();
    const c = await captureKeyframe(page, { evidenceDir: dir, unresponsiveMs: 500 }, keyframeFile(0, 'before'), 4);
    // written in the background (recompressed): on disk once the writes are done, with the captured pixels
    await pngWritesDone(dir);
    expect(decodePng(fs.readFileSync(path.join(dir, 'screenshots/step-00-before.png')))).toEqual(decodePng(c.png!));
    expect(c.img).toMatchObject({ width: 64, height: 64 });
    expect(c.snap).toEqual(snap);
    expect(c.text).toEqual(['Count: 1']);
    expect(c.at).toBeGreaterThanOrEqual(t);
    expect(calls).toContain('evaluate:window.__cookieProbe.textState(4)');
  });

  it('a baseline (file null) writes nothing; a probe that fails leaves snapshot and text null', async () => {
    const dir = tmpDir('cookie-keyframe-');
    const { page } = fakePage({ evaluate: () => Promise.reject(new Error('probe gone')) });
    const c = await captureKeyframe(page, { evidenceDir: dir, unresponsiveMs: 500 }, null, 'null');
    expect(c.img).not.toBeNull();
    expect(c.snap).toBeNull();
    expect(c.text).toBeNull();
    await pngWritesDone(dir);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a failed or hung screenshot gives an empty keyframe instead of throwing', async () => {
    const { page } = fakePage({ screenshot: () => { throw new Error('target closed'); } });
    await expect(captureKeyframe(page, { evidenceDir: tmpDir(), unresponsiveMs: 100 }, 'x.png', 0)).resolves.toMatchObject({ png: null, img: null, snap: null, text: null });
    const hung = fakePage({ screenshot: () => new Promise<Buffer>(() => {}) as unknown as Buffer });
    const t = Date.now();
    expect((await captureKeyframe(hung.page, { evidenceDir: tmpDir(), unresponsiveMs: 100 }, null, 0)).png).toBeNull();
    expect(Date.now() - t).toBeLessThan(3000);
  });

  it('counters only: the snapshot without a screenshot', async () => {
    const { page, calls } = fakePage({ evaluate: probe });
    const c = await countersOnly(page, 500);
    expect(c).toMatchObject({ png: null, img: null, text: null, snap });
    expect(calls).not.toContain('screenshot');
  });
});
