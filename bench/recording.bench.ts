// Benchmark: the CPU cost of recording per second of video, and the wall time of a 25-step offline
// interaction. Run: npx tsx bench/recording.bench.ts   (prints its figures; it asserts nothing)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../src/browser/launch.js';
import { openAppSession } from '../src/browser/session.js';
import { startStaticServer } from '../src/deploy/static-server.js';
import { OfflineExplorer } from '../src/interact/agents/explorer.js';
import { interact } from '../src/interact/loop.js';
import { VideoRecorder } from '../src/interact/record/video.js';
import { defaultChromium } from '../src/util/chromium.js';

const HZ = 100;
/** CPU seconds used so far by every process (utime + stime from /proc), by command name. */
function cpu(): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      m.set(`${comm}#${d}`, (Number(f[11]) + Number(f[12])) / HZ);
    } catch {
      /* process ended */
    }
  }
  // children that already exited (ffmpeg) are counted in our own cutime + cstime
  const self = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = self.slice(self.lastIndexOf(')') + 2).split(' ');
  m.set('exited children (ffmpeg)#self', (Number(f[13]) + Number(f[14])) / HZ);
  return m;
}
function delta(a: Map<string, number>, b: Map<string, number>): { total: number; byName: Record<string, number> } {
  const byName: Record<string, number> = {};
  let total = 0;
  for (const [k, v] of b) {
    const d = v - (a.get(k) ?? 0);
    if (d <= 0) continue;
    const name = k.split('#')[0]!;
    byName[name] = Math.round(((byName[name] ?? 0) + d) * 100) / 100;
    total += d;
  }
  return { total: Math.round(total * 100) / 100, byName };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-bench-rec-'));
// a full-screen canvas animation (the worst case for screencast + encoder) and a page with 30 controls
fs.writeFileSync(
  path.join(dir, 'anim.html'),
  `<!DOCTYPE html><html><body style="margin:0"><canvas id=c></canvas><script>
  const c=document.getElementById('c'),g=c.getContext('2d');c.width=innerWidth;c.height=innerHeight;
  (function f(t){g.fillStyle='hsl('+(t/20%360)+',60%,50%)';g.fillRect(0,0,c.width,c.height);
  for(let i=0;i<40;i++){g.fillStyle='#fff';g.beginPath();g.arc((t/5+i*97)%c.width,(i*53+t/9)%c.height,18,0,7);g.fill();}
  requestAnimationFrame(f)})(0);</script></body></html>`,
);
fs.writeFileSync(
  path.join(dir, 'controls.html'),
  `<!DOCTYPE html><html><body style="font-family:sans-serif;padding:20px"><h1>Thirty controls</h1><div id=out>none</div>
  ${Array.from({ length: 30 }, (_, i) => `<button class="b${i}" onclick="document.getElementById('out').textContent='pressed ${i}'">Action ${i}</button>`).join(' ')}
  </body></html>`,
);
const server = await startStaticServer(dir);
const browser = await launchBrowser(defaultChromium());
const viewport = { width: 1280, height: 800 };
const SECONDS = 10;

async function animate(record: boolean, fps: number): Promise<{ cpu: ReturnType<typeof delta>; videoMs: number }> {
  const s = await openAppSession(browser, server.origin, { viewport, media: false });
  await s.page.goto(`${server.origin}/anim.html`);
  await s.page.waitForTimeout(1000);
  const rec = record ? new VideoRecorder(s.page, { file: path.join(dir, `anim-${fps}.mp4`), fps, ...viewport }) : null;
  await rec?.start();
  const a = cpu();
  rec?.resume();
  await s.page.waitForTimeout(SECONDS * 1000);
  rec?.pause();
  const stop = rec ? await rec.stop() : null;
  const b = cpu();
  await s.close();
  if (stop && !stop.ok) throw new Error(stop.reason);
  return { cpu: delta(a, b), videoMs: rec ? rec.offsetMs() : 0 };
}

console.log(`Cookie recording benchmark — ${os.cpus().length} cores, ${browser.version()}, viewport ${viewport.width}x${viewport.height}`);
const base = await animate(false, 15);
console.log(`\nAnimated full-screen canvas, ${SECONDS} s without recording: ${base.cpu.total} CPU-s (${(base.cpu.total / SECONDS).toFixed(2)} cores)`);
for (const fps of [15, 25]) {
  const r = await animate(true, fps);
  const extra = r.cpu.total - base.cpu.total;
  console.log(
    `With recording at ${fps} fps: ${r.cpu.total} CPU-s; recording costs ${(extra / (r.videoMs / 1000)).toFixed(2)} CPU-s per second of video ` +
      `(video ${(r.videoMs / 1000).toFixed(1)} s; of which ffmpeg ${((r.cpu.byName.ffmpeg ?? 0) + (r.cpu.byName['exited children (ffmpeg)'] ?? 0)).toFixed(2)} CPU-s, chromium ${Object.entries(r.cpu.byName).filter(([k]) => /chrom/i.test(k)).reduce((x, [, v]) => x + v, 0).toFixed(2)} CPU-s)`,
  );
}

for (const freeze of [true, false]) {
  const s = await openAppSession(browser, server.origin, { viewport, media: true });
  await s.page.goto(`${server.origin}/controls.html`);
  const evidenceDir = fs.mkdtempSync(path.join(dir, 'ev-'));
  const inv = { interactive: [], canvases: [], listenedEvents: [], scrollHeight: 800 } as unknown as import('../src/types.js').DomInventory;
  const t0 = Date.now();
  const trace = await interact(s, new OfflineExplorer(server.origin, inv, 600), {
    url: `${server.origin}/controls.html`, origin: server.origin, evidenceDir, steps: 25, seed: 1, stepTimeoutMs: 15_000, thinkTimeoutMs: 60_000,
    unresponsiveMs: 5000, totalTimeoutMs: 300_000, animatedShare: 0, idleMutationsPerSec: 0, freeze, video: true, audio: true, fps: 15,
  });
  const wall = Date.now() - t0;
  await s.close();
  console.log(
    `\n25-step budget offline interaction (freeze ${freeze ? 'on' : 'off'}, video + audio on): ${trace.steps.length} steps in ${(wall / 1000).toFixed(1)} s wall ` +
      `(${(wall / trace.steps.length / 1000).toFixed(2)} s a step; video ${((trace.recording?.video?.durationMs ?? 0) / 1000).toFixed(1)} s, ended: ${trace.endedBecause})`,
  );
}
await browser.close();
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
