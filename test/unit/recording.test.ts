import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/browser/session.js';
import { Recording, type AudioTrack, type FreezeControl, type VideoTrack } from '../../src/interact/record/recording.js';
import type { AudioEvidence } from '../../src/types.js';
import { fakePage } from '../fixtures/fake-page.js';
import { tmpDir } from '../helpers.js';

/** Fakes of the freeze, the video and the audio that log what was done to them, in order. */
function parts(over: { videoStop?: { ok: boolean; reason?: string }; unfreezeFails?: boolean; audio?: AudioEvidence } = {}) {
  const events: string[] = [];
  let offset = 0;
  const freezer: FreezeControl = {
    enabled: true,
    freeze: async (ms) => void events.push(`freeze(${ms})`),
    unfreeze: async (ms) => {
      events.push(`unfreeze(${ms})`);
      if (over.unfreezeFails) throw new Error('page hung');
    },
    dispose: async () => void events.push('dispose'),
  };
  const video: VideoTrack = {
    start: async () => void events.push('video.start'),
    resume: () => void events.push('video.resume'),
    pause: () => {
      events.push('video.pause');
      offset += 1000;
    },
    offsetMs: () => offset,
    offsetAt: () => 0,
    stop: async () => (events.push('video.stop'), over.videoStop ?? { ok: false, reason: 'the encoder died' }),
    repaints: 0,
  };
  const audio: AudioTrack = {
    stop: async (_dir, v) => (events.push(`audio.stop(${v === video ? 'video' : 'none'})`), over.audio ?? { captured: false, note: 'the page played no audio' }),
  };
  return { events, freezer, video, audio };
}

describe('the recording: app clock, video and audio', () => {
  it('run unfreezes then records; pause stops recording then freezes; the video offset is the recorder\'s', async () => {
    const p = parts();
    const rec = new Recording({ ...p, evidence: { video: null, videoNote: null, audio: null, freeze: true }, evidenceDir: tmpDir(), unresponsiveMs: 700 });
    await rec.run();
    await rec.pause();
    expect(p.events).toEqual(['video.start', 'unfreeze(700)', 'video.resume', 'video.pause', 'freeze(700)']);
    // started once: the next run only unfreezes and records
    await rec.run();
    expect(p.events.slice(5)).toEqual(['unfreeze(700)', 'video.resume']);
    expect(rec.videoOffset()).toBe(1000);
    rec.pauseVideo();
    expect(p.events.at(-1)).toBe('video.pause');
  });

  it('finish: the app runs again, audio is fetched with the video to align it, a failed video is removed with its reason', async () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, 'video.mp4'), 'partial');
    const p = parts({ unfreezeFails: true });
    const rec = new Recording({ ...p, evidence: { video: null, videoNote: null, audio: null, freeze: true }, evidenceDir: dir, unresponsiveMs: 700 });
    // the app ran once (the video started; the unfreeze failed)
    await expect(rec.run()).rejects.toThrow('page hung');
    p.events.length = 0;
    const ev = await rec.finish(false);
    expect(p.events).toEqual(['unfreeze(700)', 'video.pause', 'audio.stop(video)', 'video.stop', 'dispose']);
    expect(ev).toEqual({ video: null, videoNote: 'no video: the encoder died', audio: { captured: false, note: 'the page played no audio' }, freeze: true });
    expect(fs.existsSync(path.join(dir, 'video.mp4'))).toBe(false);
  });

  it('finish after a hang: no unfreeze and no audio fetch (the page cannot answer), a video ffprobe cannot read is noted', async () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, 'video.mp4'), 'not an mp4');
    const p = parts({ videoStop: { ok: true } });
    const rec = new Recording({ ...p, evidence: { video: null, videoNote: null, audio: null, freeze: true }, evidenceDir: dir, unresponsiveMs: 700 });
    await rec.run();
    p.events.length = 0;
    const ev = await rec.finish(true);
    expect(p.events).toEqual(['video.pause', 'video.stop', 'dispose']);
    expect(ev.audio).toEqual({ captured: false, note: 'audio could not be fetched: the page stopped answering' });
    expect(ev.video).toBeNull();
    expect(ev.videoNote).toBe('no video: ffprobe could not read the MP4');
  });

  it('a loop that took no step records no video: the video is never started or stopped, and the note says why', async () => {
    const p = parts({ videoStop: { ok: true } });
    const rec = new Recording({ ...p, evidence: { video: null, videoNote: null, audio: null, freeze: true }, evidenceDir: tmpDir(), unresponsiveMs: 700 });
    await rec.pause();
    const ev = await rec.finish(false);
    expect(p.events).not.toContain('video.start');
    expect(p.events).not.toContain('video.stop');
    expect(ev.video).toBeNull();
    expect(ev.videoNote).toBe('no video: the app never ran for an action (no step was taken)');
  });

  it('start with everything off: no freeze, a note why there is no video, no audio, and run/pause do nothing', async () => {
    const { page, calls } = fakePage();
    const rec = await Recording.start(page, new EventLog(), { evidenceDir: tmpDir(), freeze: false, video: false, audio: false, fps: 15, unresponsiveMs: 500 });
    await rec.run();
    await rec.pause();
    expect(rec.videoOffset()).toBeNull();
    expect(calls).toEqual([]);
    expect(await rec.finish(false)).toEqual({ video: null, videoNote: 'no video: recording is switched off (recording.video: false)', audio: null, freeze: false });
  });

  it('a freeze that cannot attach (no CDP session) leaves the app running and says freeze: false', async () => {
    const page = { ...fakePage().page, context: () => ({ newCDPSession: async () => Promise.reject(new Error('no CDP')) }) } as unknown as Page;
    const rec = await Recording.start(page, new EventLog(), { evidenceDir: tmpDir(), freeze: true, video: false, audio: false, fps: 15, unresponsiveMs: 500 });
    expect((await rec.finish(false)).freeze).toBe(false);
  });
});
