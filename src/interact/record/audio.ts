import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { evalIn, type EventLog } from '../../browser/session.js';
import type { AudioEvidence } from '../../types.js';
import { audioVolume, probeMedia, remuxAudio } from '../../common/ffmpeg.js';
import type { VideoRecorder } from './video.js';

/**
 * Audio of the interaction (paper §4.1 "multi-modal capture"; MACHINE.md "Audio"): the media init script
 * taps Web Audio and <audio>/<video> into one MediaRecorder (WebM/Opus), armed at the start of the
 * interaction and paused with the freeze, so its timeline matches the video's. Here it is fetched back,
 * remuxed (MediaRecorder WebM has no duration), measured, and aligned: `offsetMs` is where it starts in
 * the video. A page that plays nothing says so.
 */
export class AudioRecorder {
  constructor(
    private readonly page: Page,
    private readonly log: EventLog,
  ) {}

  /** Allow recording to start (sources connected earlier are included). */
  async arm(): Promise<void> {
    await evalIn(this.page, 'window.__cookieMedia ? window.__cookieMedia.arm() : null', 3000).catch(() => {});
  }

  /**
   * Stop, save `audio.webm` into `dir` and describe it.
   * @param video the video recorder (only its `offsetAt`), to align the audio's start with the video
   */
  async stop(dir: string, video: Pick<VideoRecorder, 'offsetAt'> | null): Promise<AudioEvidence> {
    let raw: { base64: string; bytes: number } | null = null;
    let state: { sources: number } | null = null;
    try {
      state = await evalIn<{ sources: number } | null>(this.page, 'window.__cookieMedia ? window.__cookieMedia.state() : null', 3000);
      raw = await evalIn<{ base64: string; bytes: number } | null>(this.page, 'window.__cookieMedia ? window.__cookieMedia.stop() : null', 15_000);
    } catch (e) {
      return { captured: false, note: `audio could not be fetched from the page: ${(e as Error).message.split('\n')[0]}` };
    }
    if (!state) return { captured: false, note: 'audio capture was not installed' };
    if (!raw || !raw.bytes) {
      return { captured: false, note: state.sources ? 'the page connected audio but played nothing while recording' : 'the page played no audio (no Web Audio output, no <audio>/<video> playback)' };
    }
    const rawFile = path.join(dir, 'audio-raw.webm');
    const file = path.join(dir, 'audio.webm');
    fs.writeFileSync(rawFile, Buffer.from(raw.base64, 'base64'));
    const rem = await remuxAudio(rawFile, file);
    fs.rmSync(rawFile, { force: true });
    if (!rem.ok) return { captured: false, note: `audio could not be remuxed: ${rem.reason}` };
    const [info, vol] = await Promise.all([probeMedia(file), audioVolume(file)]);
    const offsetMs = this.log.audioStartedAt !== null && video ? video.offsetAt(this.log.audioStartedAt) : 0;
    return {
      captured: true,
      file: 'audio.webm',
      offsetMs,
      durationMs: info?.audio?.durationMs || info?.durationMs || 0,
      meanVolumeDb: vol?.meanDb ?? null,
      maxVolumeDb: vol?.maxDb ?? null,
      muxed: false,
      note: vol && vol.maxDb > -60 ? 'the page played audible sound' : 'the page played only near-silence',
    };
  }
}
