import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import type { EventLog } from '../../browser/session.js';
import { ffmpegAvailable, muxAudio, probeMedia } from '../../common/ffmpeg.js';
import type { AudioEvidence, RecordingEvidence } from '../../types.js';
import { Freezer } from '../freeze.js';
import { AudioRecorder } from './audio.js';
import { VideoRecorder } from './video.js';

/** The freeze as the recording drives it ({@link Freezer}); times in ms. */
export interface FreezeControl {
  readonly enabled: boolean;
  freeze(ms: number): Promise<void>;
  unfreeze(ms: number): Promise<void>;
  dispose(): Promise<void>;
}

/** The continuous video as the recording drives it ({@link VideoRecorder}); offsets in ms. */
export type VideoTrack = Pick<VideoRecorder, 'start' | 'resume' | 'pause' | 'offsetMs' | 'offsetAt' | 'stop' | 'repaints'>;

/** The audio track as the recording drives it ({@link AudioRecorder}). */
export interface AudioTrack {
  stop(dir: string, video: VideoTrack | null): Promise<AudioEvidence>;
}

/** Options of {@link Recording.start}. Times in ms. */
export interface RecordingOptions {
  evidenceDir: string;
  /** Pause the app while the agent observes and deliberates (`agent.freeze`). */
  freeze: boolean;
  video: boolean;
  audio: boolean;
  /** Output frame rate of video.mp4. */
  fps: number;
  /** Limit of one freeze or unfreeze (twice this in all). */
  unresponsiveMs: number;
}

/**
 * The app's clock and the continuous recording of Stage 2 (paper §4.1 "environment freeze" and
 * "multi-modal capture"; METHOD.md §2.3; MACHINE.md "Video", "Audio"): the app runs only while the agent
 * acts — {@link run} unfreezes it and resumes the video, {@link pause} stops the video and freezes it — so
 * the agent's thinking is cut out of video.mp4 and {@link videoOffset} is a position in it. {@link finish}
 * wraps up: the app runs again, audio is fetched and muxed into the video, the video is probed, and the
 * {@link RecordingEvidence} says what was recorded or why not. Any part may be absent (freeze off, no
 * ffmpeg, audio off): its calls are then no-ops.
 */
export class Recording {
  constructor(
    private readonly parts: {
      freezer: FreezeControl | null;
      video: VideoTrack | null;
      audio: AudioTrack | null;
      /** What is recorded so far; completed by {@link finish}. */
      evidence: RecordingEvidence;
      evidenceDir: string;
      unresponsiveMs: number;
    },
  ) {}

  /** Whether the video was started (the app ran for an action at least once). */
  private videoStarted = false;

  /**
   * Attach the freeze (a failure to attach leaves the app unfrozen, `freeze: false` in the evidence), prepare
   * the video (`video.mp4` in the evidence folder, started by the first {@link run}; without ffmpeg, a note
   * instead) and arm the audio.
   * The app is left running; the first {@link pause} freezes it.
   */
  static async start(page: Page, log: EventLog, opts: RecordingOptions): Promise<Recording> {
    const freezer = await Freezer.attach(page, opts.freeze).catch(() => null);
    const evidence: RecordingEvidence = { video: null, videoNote: null, audio: null, freeze: !!freezer?.enabled };
    let video: VideoRecorder | null = null;
    if (opts.video) {
      if (!(await ffmpegAvailable())) evidence.videoNote = 'no video: ffmpeg is not installed or does not run';
      else {
        const vp = page.viewportSize() ?? { width: 1280, height: 800 };
        // started when the app first runs for an action (run()): a loop that takes no step records no video
        video = new VideoRecorder(page, { file: path.join(opts.evidenceDir, 'video.mp4'), fps: opts.fps, width: vp.width, height: vp.height });
      }
    } else evidence.videoNote = 'no video: recording is switched off (recording.video: false)';
    const audio = opts.audio ? new AudioRecorder(page, log) : null;
    await audio?.arm();
    return new Recording({ freezer, video, audio, evidence, evidenceDir: opts.evidenceDir, unresponsiveMs: opts.unresponsiveMs });
  }

  /** The app runs and the video records. @throws StageTimeoutError when the page does not answer the unfreeze */
  async run(): Promise<void> {
    if (this.parts.video && !this.videoStarted) {
      this.videoStarted = true;
      await this.parts.video.start();
    }
    await this.parts.freezer?.unfreeze(this.parts.unresponsiveMs);
    this.parts.video?.resume();
  }

  /** The video stops and the app is frozen. @throws StageTimeoutError when the page does not answer the freeze */
  async pause(): Promise<void> {
    this.parts.video?.pause();
    await this.parts.freezer?.freeze(this.parts.unresponsiveMs);
  }

  /** Stop the video only (the page stopped answering: a freeze could not reach it). */
  pauseVideo(): void {
    this.parts.video?.pause();
  }

  /** Current position in video.mp4, ms; null without video. */
  videoOffset(): number | null {
    return this.parts.video?.offsetMs() ?? null;
  }

  /**
   * Wrap up (always, once): unless the app `hung` (unresponsive or crashed), it runs again and its audio
   * is fetched; the video stops, the audio is muxed into it (offset by where it started), ffprobe describes
   * it; a video that failed is removed and its reason noted. Never throws for a recording failure.
   * @returns the evidence of the recording
   */
  async finish(hung: boolean): Promise<RecordingEvidence> {
    const { freezer, video, audio, evidence, evidenceDir } = this.parts;
    if (!hung) await freezer?.unfreeze(this.parts.unresponsiveMs).catch(() => {});
    video?.pause();
    if (audio && !hung) evidence.audio = await audio.stop(evidenceDir, video);
    else if (audio) evidence.audio = { captured: false, note: 'audio could not be fetched: the page stopped answering' };
    if (video && !this.videoStarted) evidence.videoNote = 'no video: the app never ran for an action (no step was taken)';
    else if (video) {
      const r = await video.stop();
      const file = path.join(evidenceDir, 'video.mp4');
      if (r.ok) {
        if (evidence.audio?.captured && evidence.audio.file) {
          const tmp = path.join(evidenceDir, 'video.av.mp4');
          const m = await muxAudio(file, path.join(evidenceDir, evidence.audio.file), evidence.audio.offsetMs ?? 0, tmp);
          if (m.ok) {
            fs.renameSync(tmp, file);
            evidence.audio.muxed = true;
          } else evidence.audio.note += `; not muxed into the video (${m.reason})`;
        }
        const info = await probeMedia(file);
        evidence.video = info?.video
          ? { file: 'video.mp4', durationMs: info.durationMs, fps: Math.round(info.video.fps * 100) / 100, frames: info.video.frames, width: info.video.width, height: info.video.height, repaints: video.repaints }
          : null;
        if (!evidence.video) evidence.videoNote = 'no video: ffprobe could not read the MP4';
      } else {
        evidence.videoNote = `no video: ${r.reason}`;
        fs.rmSync(file, { force: true });
      }
    }
    await freezer?.dispose();
    return evidence;
  }
}
