import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { webglRendererCached } from '../../src/browser/launch.js';
import { pageScreenshot, viewportPng } from '../../src/browser/screenshot.js';
import { fakePage, png } from '../fixtures/fake-page.js';
import { tmpDir } from '../helpers.js';

// The shortcuts of issue 13 (an evaluation near the floor) keep their answers: the protocol screenshot is the
// page's screenshot and falls back to Playwright's, the remembered WebGL renderer is the probed one.

describe('viewport screenshots through the DevTools protocol', () => {
  it('takes the PNG the page paints through one CDP session per page, opened once', async () => {
    const { page, calls } = fakePage({ screenshot: () => png([[1, 1]]) });
    const a = await viewportPng(page, 1000);
    const b = await viewportPng(page, 1000);
    expect(a.equals(png([[1, 1]]))).toBe(true);
    expect(b.equals(a)).toBe(true);
    expect(calls.filter((c) => c === 'cdp:Page.captureScreenshot')).toHaveLength(2);
  });

  it("falls back to Playwright's screenshot when the browser offers no CDP session, or the session fails", async () => {
    const { page, calls } = fakePage({ screenshot: () => png([[2, 2]]) });
    const noCdp = { ...page, context: () => ({ newCDPSession: async () => { throw new Error('CDP session is only available in Chromium'); } }) } as unknown as Page;
    expect((await viewportPng(noCdp, 1000)).equals(png([[2, 2]]))).toBe(true);
    const broken = { ...page, context: () => ({ newCDPSession: async () => ({ send: async () => { throw new Error('Target closed'); } }) }) } as unknown as Page;
    expect((await viewportPng(broken, 1000)).equals(png([[2, 2]]))).toBe(true);
    expect(calls).toContain('screenshot');
  });

  it('asks again, once the new document loaded, for a capture the page replaced its document under (Chromium never answers it)', async () => {
    const never = new Promise<Buffer>(() => {});
    const { page, calls, cdpEvents } = fakePage({ capture: async (n) => (n === 0 ? never : png([[3, 3]])) });
    const shot = viewportPng(page, 10_000);
    // the first capture is on its way; the page commits its next document (a reload), then loads it
    await expect.poll(() => calls.filter((c) => c === 'cdp:Page.captureScreenshot').length).toBe(1);
    cdpEvents.emit('Page.frameNavigated', { frame: { id: 'main' }, type: 'Navigation' });
    await new Promise((r) => setTimeout(r, 20));
    // not asked again before the new document loaded
    expect(calls.filter((c) => c === 'cdp:Page.captureScreenshot')).toHaveLength(1);
    cdpEvents.emit('Page.loadEventFired', { timestamp: 1 });
    expect((await shot).equals(png([[3, 3]]))).toBe(true);
    expect(calls.filter((c) => c.startsWith('cdp:'))).toEqual(['cdp:Page.enable', 'cdp:Page.captureScreenshot', 'cdp:Page.captureScreenshot']);
  });

  it("keeps waiting on its capture when only a frame inside the page navigated, and times out with the caller's limit", async () => {
    const { page, calls, cdpEvents } = fakePage({ capture: () => new Promise<Buffer>(() => {}) });
    const shot = viewportPng(page, 300);
    await expect.poll(() => calls.filter((c) => c === 'cdp:Page.captureScreenshot').length).toBe(1);
    cdpEvents.emit('Page.frameNavigated', { frame: { id: 'ad', parentId: 'main' }, type: 'Navigation' });
    await expect(shot).rejects.toThrow('screenshot timed out after 300 ms');
    expect(calls.filter((c) => c === 'cdp:Page.captureScreenshot')).toHaveLength(1);
  });
});

describe("Playwright's screenshot on a page that replaces its document", () => {
  const refused = () => {
    throw new Error('page.screenshot: Protocol error (Page.captureScreenshot): Unable to capture screenshot');
  };
  it('a capture Chromium refused because the document was replaced is asked once more after the next load', async () => {
    let n = 0;
    const { page, calls } = fakePage({ screenshot: () => (n++ === 0 ? refused() : png([[4, 4]])) });
    expect((await pageScreenshot(page, { fullPage: true }, 5000)).equals(png([[4, 4]]))).toBe(true);
    expect(calls).toEqual(['screenshot', 'waitForLoadState:load', 'screenshot']);
  });

  it('a second refusal, or any other error, is thrown as it is', async () => {
    const twice = fakePage({ screenshot: refused });
    await expect(pageScreenshot(twice.page, {}, 5000)).rejects.toThrow('Unable to capture screenshot');
    expect(twice.calls.filter((c) => c === 'screenshot')).toHaveLength(2);
    const other = fakePage({ screenshot: () => { throw new Error('Target page, context or browser has been closed'); } });
    await expect(pageScreenshot(other.page, {}, 5000)).rejects.toThrow('has been closed');
    expect(other.calls).toEqual(['screenshot']);
  });
});

describe('the WebGL renderer is remembered per host, browser build and flags', () => {
  const browser = (version: string, answer: string | null) => {
    let probes = 0;
    const b = {
      version: () => version,
      newContext: async () => ({
        newPage: async () => ({ evaluate: async () => (probes++, answer) }),
        close: async () => {},
      }),
    } as unknown as Browser;
    return { b, probes: () => probes };
  };

  it('probes once, then answers from the file; another build or other flags probe again; no WebGL is never remembered', async () => {
    const file = path.join(tmpDir('cookie-webgl-'), 'sub', 'webgl.json');
    const one = browser('131.0', 'SwiftShader');
    expect(await webglRendererCached(one.b, ['/usr/bin/chromium'], file)).toBe('SwiftShader');
    expect(await webglRendererCached(one.b, ['/usr/bin/chromium'], file)).toBe('SwiftShader');
    expect(one.probes()).toBe(1);
    const other = browser('132.0', 'ANGLE');
    expect(await webglRendererCached(other.b, ['/usr/bin/chromium'], file)).toBe('ANGLE');
    expect(await webglRendererCached(other.b, ['/usr/bin/chromium', '--disable-gpu'], file)).toBe('ANGLE');
    expect(other.probes()).toBe(2);
    const none = browser('133.0', null);
    expect(await webglRendererCached(none.b, [], file)).toBeNull();
    expect(await webglRendererCached(none.b, [], file)).toBeNull();
    expect(none.probes()).toBe(2);
    // an unreadable file only costs the probe
    fs.writeFileSync(file, '{not json');
    expect(await webglRendererCached(one.b, ['/usr/bin/chromium'], file)).toBe('SwiftShader');
    expect(one.probes()).toBe(2);
  });
});
