import { chromium } from 'playwright';
import zlib from 'node:zlib';
import { CHROMIUM_ARGS } from '/work/main/dist/src/browser/launch.js';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
await p.goto('file:///work/main/' + (process.argv[2] || 'bench/floor/form.html'));
await p.waitForTimeout(1000);
const cdp = await p.context().newCDPSession(p);
const slow = Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png' })).data, 'base64');
const fast = Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true })).data, 'base64');
function chunks(buf) { const out = []; let o = 8; while (o < buf.length) { const len = buf.readUInt32BE(o); const type = buf.toString('latin1', o + 4, o + 8); out.push({ type, data: buf.subarray(o + 8, o + 8 + len) }); o += 12 + len; } return out; }
const c = chunks(fast);
console.log('slow', slow.length, 'fast', fast.length, c.map((x) => x.type + ':' + x.data.length).join(' '));
const idat = Buffer.concat(c.filter((x) => x.type === 'IDAT').map((x) => x.data));
const raw = zlib.inflateSync(idat);
const ihdr = c.find((x) => x.type === 'IHDR').data; console.log('w', ihdr.readUInt32BE(0), 'h', ihdr.readUInt32BE(4), 'depth', ihdr[8], 'colour', ihdr[9]);
const w = ihdr.readUInt32BE(0), bpp = ihdr[9] === 6 ? 4 : 3, stride = w * bpp + 1;
const filters = new Map(); for (let y = 0; y < raw.length / stride; y++) filters.set(raw[y * stride], (filters.get(raw[y * stride]) || 0) + 1);
console.log('row filters in fast png', [...filters]);
for (const level of [6, 9]) { const t0 = performance.now(); const d = await new Promise((r) => zlib.deflate(raw, { level }, (e, x) => r(x))); console.log('re-deflate level', level, d.length, (performance.now() - t0).toFixed(0), 'ms'); }
await b.close();
