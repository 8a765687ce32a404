import fs from 'node:fs';
import type { FrameTiming } from '../types.js';

/**
 * The frame counters of the in-page probe's `snapshot()` (probe.init.js): requestAnimationFrame callbacks
 * so far, long animation frames so far, their summed length and the main-thread work in them (ms).
 */
export interface FrameSnap {
  frames: number;
  longFrames: number;
  longFrameMs: number;
  /** Absent when the probe predates the counter. */
  longFrameWorkMs?: number;
  /** Trusted click events the page received so far (window, capture phase); absent in older probes. */
  clicks?: number;
}

/**
 * Frame timing over the window between two probe snapshots taken `windowMs` ms apart (rubric item 11,
 * METHOD.md): frames per second to one decimal, and the differences of the long-frame counters.
 * @param windowMs wall-clock ms between the two snapshots; must be > 0 (fps is 0 otherwise).
 * @param stall {@link cpuStallMs} read at both snapshots (this host's browser only): gives `cpuPressure`.
 */
export function frameTimingBetween(a: FrameSnap, b: FrameSnap, windowMs: number, stall?: { from: number | null; to: number | null }): FrameTiming {
  const p = stall ? cpuPressureOver(stall.from, stall.to, windowMs) : null;
  const pressure = p !== null ? { cpuPressure: p } : {};
  const work = a.longFrameWorkMs !== undefined && b.longFrameWorkMs !== undefined ? { longFrameWorkMs: b.longFrameWorkMs - a.longFrameWorkMs } : {};
  return {
    fps: windowMs > 0 ? Math.round(((b.frames - a.frames) * 10000) / windowMs) / 10 : 0,
    longFrames: b.longFrames - a.longFrames,
    longFrameMs: b.longFrameMs - a.longFrameMs,
    ...work,
    ...pressure,
    windowMs,
  };
}

/**
 * CPU pressure over a window: the share (0–1, two decimals) of `windowMs` in which a task waited for a CPU,
 * from {@link cpuStallMs} read at its start and end (ms). Null when either reading or the window is missing.
 */
export function cpuPressureOver(from: number | null, to: number | null, windowMs: number): number | null {
  if (from === null || to === null || !(windowMs > 0)) return null;
  return Math.round(Math.min(1, Math.max(0, (to - from) / windowMs)) * 100) / 100;
}

/**
 * This machine's cumulative CPU stall time, ms: how long at least one runnable task waited for a CPU since
 * boot (Linux pressure stall information, /proc/pressure/cpu "some total", kernel ≥ 4.20). The difference over
 * a window, divided by its length, is the share of that window the machine had more work than CPUs.
 * @returns null where PSI is unavailable (other systems, kernels built without it); never throws.
 */
export function cpuStallMs(): number | null {
  try {
    const m = /^some .*total=(\d+)/m.exec(fs.readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? Number(m[1]) / 1000 : null;
  } catch {
    return null;
  }
}
