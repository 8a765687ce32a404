import type { CDPSession, Page } from 'playwright';
import { timebox } from '../../util/timebox.js';
import { startFrameEncoder, type FrameEncoder } from '../../common/ffmpeg.js';

/**
 * Screencast frames to skip for an output rate: the browser repaints at up to 60 Hz and JPEG-encodes every
 * frame it sends, its largest recording cost; a source at a bit above the output rate is enough
 * (15 fps → every 3rd repaint, 20 Hz).
 */
export function everyNth(fps: number): number {
  return Math.max(1, Math.floor(60 / fps) - 1);
}

/** Options of {@link VideoRecorder}. */
export interface VideoOptions {
  file: string;
  fps: number;
  width: number;
  height: number;
  /** JPEG quality of screencast frames (reference verifier: 80). */
  quality?: number;
}

/**
 * Continuous video of the interaction (paper §4.1 "multi-modal capture"; METHOD.md §9; MACHINE.md "Video"):
 * CDP `Page.startScreencast` JPEG frames, each acknowledged, written at a constant frame rate to ffmpeg
 * (libx264) only while the recorder is running. The harness runs it only while the app runs (between
 * unfreeze and freeze), so the agent's thinking time is cut out and playback is continuous; `offsetMs()`
 * is the current position in the video, which the trace records for each action.
 * Frames arrive only when the page repaints: between repaints the last frame is repeated.
 */
export class VideoRecorder {
  private cdp: CDPSession | null = null;
  private encoder: FrameEncoder | null = null;
  private latest: Buffer | null = null;
  private running = false;
  private segmentStart = 0;
  private segmentFrames = 0;
  private written = 0;
  private timer: NodeJS.Timeout | null = null;
  private failureReason: string | null = null;
  private screencastFrames = 0;
  /** Running segments: wall-clock start/end (ms) and the video offset at their start (ms). */
  private readonly segments: { wallStart: number; wallEnd: number | null; offsetStart: number }[] = [];

  constructor(
    private readonly page: Page,
    private readonly opts: VideoOptions,
  ) {}

  /** Why there is no video (ffmpeg missing or dead, screencast failed), or null. */
  get failure(): string | null {
    return this.failureReason ?? this.encoder?.failure ?? null;
  }

  /** Frames written so far. */
  get frames(): number {
    return this.written;
  }

  /** Frames the browser sent (repaints). */
  get repaints(): number {
    return this.screencastFrames;
  }

  /** Position in the video, ms. */
  offsetMs(): number {
    return Math.round((this.written * 1000) / this.opts.fps);
  }

  /**
   * Video offset (ms) of a wall-clock instant: inside a running segment, its position; between segments
   * (the app was frozen), the start of the next segment.
   */
  offsetAt(wallMs: number): number {
    for (const s of this.segments) {
      const end = s.wallEnd ?? Date.now();
      if (wallMs < s.wallStart) return s.offsetStart;
      if (wallMs <= end) return s.offsetStart + (wallMs - s.wallStart);
    }
    return this.offsetMs();
  }

  /** Start the screencast and the encoder (paused: call resume()). */
  async start(): Promise<void> {
    this.encoder = startFrameEncoder(this.opts.file, this.opts.fps, this.opts.width, this.opts.height);
    try {
      this.cdp = await timebox(this.page.context().newCDPSession(this.page), 5000, 'CDP session');
      this.cdp.on('Page.screencastFrame', ({ data, sessionId }: { data: string; sessionId: number }) => {
        this.latest = Buffer.from(data, 'base64');
        this.screencastFrames++;
        this.cdp?.send('Page.screencastFrameAck', { sessionId }).catch(() => {});
      });
      const shot = (await timebox(this.cdp.send('Page.captureScreenshot', { format: 'jpeg', quality: this.opts.quality ?? 80 }), 10_000, 'first frame')) as { data: string };
      this.latest = Buffer.from(shot.data, 'base64');
      await timebox(this.cdp.send('Page.startScreencast', { format: 'jpeg', quality: this.opts.quality ?? 80, maxWidth: this.opts.width, maxHeight: this.opts.height, everyNthFrame: everyNth(this.opts.fps) }), 5000, 'start screencast');
    } catch (e) {
      this.failureReason = `screencast failed: ${(e as Error).message.split('\n')[0]}`;
    }
  }

  /** Record from now on (the app runs). */
  resume(): void {
    if (this.running || this.failure) return;
    this.running = true;
    this.segmentStart = Date.now();
    this.segmentFrames = 0;
    this.segments.push({ wallStart: this.segmentStart, wallEnd: null, offsetStart: this.offsetMs() });
    this.pump();
    this.timer = setInterval(() => this.pump(), Math.max(10, Math.floor(1000 / this.opts.fps / 2)));
    this.timer.unref();
  }

  /** Stop recording (the app is about to be frozen); writes frames due up to now. */
  pause(): void {
    if (!this.running) return;
    this.pump();
    this.running = false;
    const seg = this.segments[this.segments.length - 1];
    if (seg) seg.wallEnd = Date.now();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Write as many frames as the running time of this segment calls for (constant frame rate). */
  private pump(): void {
    if (!this.running || !this.latest || !this.encoder) return;
    const due = Math.floor(((Date.now() - this.segmentStart) * this.opts.fps) / 1000) + 1;
    while (this.segmentFrames < due) {
      if (!this.encoder.write(this.latest)) {
        this.running = false;
        return;
      }
      this.segmentFrames++;
      this.written++;
    }
  }

  /** Stop everything and finish the MP4. @returns ok, or why there is no video */
  async stop(): Promise<{ ok: boolean; reason?: string }> {
    this.pause();
    // a hung renderer never answers CDP: bound these calls
    if (this.cdp) await timebox(this.cdp.send('Page.stopScreencast'), 2000, 'stop screencast').catch(() => {});
    if (this.cdp) await timebox(this.cdp.detach(), 2000, 'detach').catch(() => {});
    if (!this.encoder) return { ok: false, reason: this.failureReason ?? 'not started' };
    if (this.written === 0) {
      await this.encoder.finish(5000);
      return { ok: false, reason: this.failure ?? 'no frames were recorded' };
    }
    const r = await this.encoder.finish(120_000);
    if (!r.ok) return r;
    return this.failureReason ? { ok: false, reason: this.failureReason } : { ok: true };
  }
}
