import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * The one module that runs ffmpeg and ffprobe (fluent-ffmpeg is archived upstream; MACHINE.md gives the
 * recipes). Everything else asks this module; nothing else spawns ffmpeg.
 */

/** Binary names, overridable for tests (COOKIE_FFMPEG / COOKIE_FFPROBE). */
export const FFMPEG = () => process.env.COOKIE_FFMPEG || 'ffmpeg';
/** The ffprobe binary (COOKIE_FFPROBE overrides). */
export const FFPROBE = () => process.env.COOKIE_FFPROBE || 'ffprobe';

const available = new Map<string, Promise<boolean>>();

/**
 * Resolves true when the ffmpeg binary runs (`ffmpeg -version` exits 0 within 10 s). Asked once per
 * binary per process (ffmpeg takes ~0.2 s to start here) and without blocking the event loop, so a run
 * can ask early, while its browser launches (runner/run.ts), and every recording reads the answer.
 * Never rejects.
 */
export function ffmpegAvailable(): Promise<boolean> {
  const bin = FFMPEG();
  let p = available.get(bin);
  if (!p) available.set(bin, (p = run(bin, ['-hide_banner', '-version'], 10_000).then((r) => r.ok)));
  return p;
}

/** A running H.264 encoder fed with JPEG frames at a constant frame rate. */
export interface FrameEncoder {
  /** Write one JPEG frame (one output frame). @returns false once the encoder is gone */
  write(jpeg: Buffer): boolean;
  /** Close the input and wait for the MP4 (time-boxed). @returns ok, or the reason it failed */
  finish(timeoutMs?: number): Promise<{ ok: boolean; reason?: string }>;
  /** Set when ffmpeg exited early or could not start. */
  readonly failure: string | null;
}

/**
 * Start ffmpeg encoding a constant-frame-rate stream of JPEG frames to H.264 MP4 (libx264, CRF 23,
 * yuv420p, veryfast; METHOD.md §9 and MACHINE.md): `-f image2pipe -framerate FPS -c:v mjpeg -i pipe:0`.
 * The caller decides which frames exist (Cookie writes frames only while the app runs, so the agent's
 * thinking time is not in the video).
 * @param out MP4 path
 * @param fps output (= input) frame rate
 * @param width output width, px (frames of another size are scaled)
 * @param height output height, px
 */
export function startFrameEncoder(out: string, fps: number, width: number, height: number): FrameEncoder {
  let failure: string | null = null;
  let stderr = '';
  let proc: ChildProcessWithoutNullStreams | null = null;
  try {
    proc = spawn(FFMPEG(), [
      '-hide_banner', '-loglevel', 'error', '-y',
      // no probing of the input (its format, codec and rate are given): by default ffmpeg reads up to 5 MB
      // or 5 s of frames before it encodes any, so a short recording was encoded only after the stream
      // ended (0.4-0.6 s of every evaluation's wrap-up); the output is byte-identical
      '-probesize', '32', '-analyzeduration', '0',
      '-f', 'image2pipe', '-framerate', String(fps), '-c:v', 'mjpeg', '-i', 'pipe:0',
      '-vf', `scale=${width - (width % 2)}:${height - (height % 2)}`,
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-movflags', '+faststart',
      out,
    ]);
  } catch (e) {
    failure = `ffmpeg could not start: ${(e as Error).message}`;
  }
  const exited = new Promise<number | null>((resolve) => {
    if (!proc) return resolve(null);
    proc.on('error', (e) => {
      failure ??= `ffmpeg could not start: ${e.message}`;
      resolve(null);
    });
    proc.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    proc.stdin.on('error', () => {
      failure ??= `ffmpeg closed its input: ${stderr.trim().split('\n').pop() ?? ''}`;
    });
    proc.on('exit', (code, signal) => {
      if (code !== 0) failure ??= `ffmpeg exited with ${code ?? signal}: ${stderr.trim().split('\n').pop() ?? ''}`;
      resolve(code);
    });
  });
  return {
    get failure() {
      return failure;
    },
    write(jpeg: Buffer): boolean {
      if (failure || !proc || proc.stdin.destroyed) return false;
      proc.stdin.write(jpeg);
      return true;
    },
    async finish(timeoutMs = 60_000) {
      if (proc && !proc.stdin.destroyed) proc.stdin.end();
      const timer = setTimeout(() => {
        failure ??= `ffmpeg did not finish within ${timeoutMs} ms`;
        proc?.kill('SIGKILL');
      }, timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code === 0 && !failure ? { ok: true } : { ok: false, reason: failure ?? 'ffmpeg failed' };
    },
  };
}

/**
 * Run ffmpeg or ffprobe to completion without blocking the event loop (a concurrent evaluation's waits,
 * timers and protocol messages go on while a video is probed or muxed). Never rejects.
 */
function run(bin: string, args: string[], timeoutMs: number): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return execFileAsync(bin, args, { timeout: timeoutMs, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' }).then(
    ({ stdout, stderr }) => ({ ok: true, stdout, stderr }),
    (e: { stdout?: string; stderr?: string }) => ({ ok: false, stdout: e.stdout ?? '', stderr: e.stderr || String(e) }),
  );
}

/**
 * Mux an MP4 video with an audio file that starts `offsetMs` into the video, re-encoding audio to AAC.
 * @returns ok, or the reason
 */
export async function muxAudio(video: string, audio: string, offsetMs: number, out: string): Promise<{ ok: boolean; reason?: string }> {
  const r = await run(FFMPEG(), ['-hide_banner', '-loglevel', 'error', '-y', '-i', video, '-itsoffset', (offsetMs / 1000).toFixed(3), '-i', audio, '-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', out], 120_000);
  return r.ok ? { ok: true } : { ok: false, reason: r.stderr.trim().split('\n').pop() };
}

/** What ffprobe says about a media file (durations in ms; `frames`: the video stream's packets, one per frame in H.264/MP4, counted without decoding). */
export interface MediaInfo {
  durationMs: number;
  video?: { codec: string; width: number; height: number; fps: number; frames: number };
  audio?: { codec: string; durationMs: number };
}

/** ffprobe a media file. @returns null when ffprobe fails (never rejects) */
export async function probeMedia(file: string): Promise<MediaInfo | null> {
  const r = await run(FFPROBE(), ['-v', 'error', '-count_packets', '-show_entries', 'format=duration:stream=codec_type,codec_name,width,height,avg_frame_rate,r_frame_rate,nb_read_packets,duration', '-of', 'json', file], 60_000);
  if (!r.ok) return null;
  const j = JSON.parse(r.stdout) as { format?: { duration?: string }; streams?: Record<string, string | number>[] };
  const info: MediaInfo = { durationMs: Math.round(Number(j.format?.duration ?? 0) * 1000) };
  for (const s of j.streams ?? []) {
    if (s.codec_type === 'video') {
      const [n, d] = String(s.avg_frame_rate || s.r_frame_rate || '0/1').split('/').map(Number);
      info.video = { codec: String(s.codec_name), width: Number(s.width), height: Number(s.height), fps: d ? n! / d : 0, frames: Number(s.nb_read_packets ?? 0) };
    } else if (s.codec_type === 'audio') {
      info.audio = { codec: String(s.codec_name), durationMs: Math.round(Number(s.duration ?? 0) * 1000) };
    }
  }
  return info;
}

/** Remux an audio file (e.g. a MediaRecorder WebM without duration) so it has a proper duration. */
export async function remuxAudio(input: string, out: string): Promise<{ ok: boolean; reason?: string }> {
  const r = await run(FFMPEG(), ['-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-c:a', 'libopus', '-b:a', '96k', out], 60_000);
  return r.ok ? { ok: true } : { ok: false, reason: r.stderr.trim().split('\n').pop() };
}

/** Mean and max volume of a file's audio in dBFS (ffmpeg volumedetect); null when there is no audio. */
export async function audioVolume(file: string): Promise<{ meanDb: number; maxDb: number } | null> {
  const r = await run(FFMPEG(), ['-hide_banner', '-i', file, '-map', '0:a:0', '-af', 'volumedetect', '-f', 'null', '-'], 60_000);
  const mean = r.stderr.match(/mean_volume: (-?[\d.]+|-inf) dB/);
  const max = r.stderr.match(/max_volume: (-?[\d.]+|-inf) dB/);
  if (!mean || !max) return null;
  const num = (s: string) => (s === '-inf' ? -Infinity : Number(s));
  return { meanDb: num(mean[1]!), maxDb: num(max[1]!) };
}

/**
 * Extract one frame of a video at `ms` as JPEG (for keyframes sampled from the video).
 * @returns the JPEG bytes, or null when ffmpeg fails
 */
export function extractFrame(video: string, ms: number, maxWidth = 1280): Promise<Buffer | null> {
  const args = ['-hide_banner', '-loglevel', 'error', '-ss', (Math.max(0, ms) / 1000).toFixed(3), '-i', video, '-frames:v', '1', '-vf', `scale='min(${maxWidth},iw)':-2`, '-q:v', '4', '-f', 'image2', '-c:v', 'mjpeg', 'pipe:1'];
  return execFileAsync(FFMPEG(), args, { timeout: 30_000, maxBuffer: 32 * 1024 * 1024, encoding: 'buffer', killSignal: 'SIGKILL' }).then(
    ({ stdout }) => (stdout.length ? stdout : null),
    () => null,
  );
}
