// Cookie's media init script (plain JavaScript, see probe.init.js): tracks the page's AudioContexts and
// media elements so the environment freeze can pause them, and taps everything the page plays (Web Audio
// routed to a destination, <audio>/<video>) into one MediaRecorder, so the interaction's audio can be
// muxed with its video. Recording starts only when armed by the harness and pauses with the freeze, so the
// audio timeline, like the video's, holds only the time the app was running.
(() => {
  if (window.__cookieMedia) return;
  const OrigAC = window.AudioContext || window.webkitAudioContext;
  const origConnect = AudioNode.prototype.connect;
  const origDisconnect = AudioNode.prototype.disconnect;
  const origPlay = HTMLMediaElement.prototype.play;
  const contexts = new Set();
  const media = new Set();
  const taps = new WeakMap();
  const captured = new WeakSet();
  const log = [];
  let mixCtx = null, mixDest = null, recorder = null, chunks = [], armed = false, sources = 0, frozen = false;
  let pausedCtx = [], pausedMedia = [];

  // ── track the app's AudioContexts (a subclass, so instanceof and prototypes keep working) ──
  if (OrigAC) {
    const Tracked = class extends OrigAC { constructor(...a) { super(...a); contexts.add(this); } };
    for (const name of ['AudioContext', 'webkitAudioContext']) {
      if (window[name]) Object.defineProperty(window, name, { value: Tracked, writable: true, configurable: true });
    }
  }

  function ensureMix() {
    if (mixCtx || !OrigAC) return;
    mixCtx = new OrigAC(); // the real constructor: never tracked, never frozen
    mixDest = mixCtx.createMediaStreamDestination();
  }
  function maybeStart() {
    if (!armed || recorder || !sources || typeof MediaRecorder === 'undefined') return;
    try {
      recorder = new MediaRecorder(mixDest.stream, { mimeType: 'audio/webm;codecs=opus' });
      recorder.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
      recorder.start(500);
      if (frozen) recorder.pause();
      if (window.__cookieAudioStarted) window.__cookieAudioStarted().catch(() => {});
      log.push('recording');
    } catch (e) { log.push('recorder failed: ' + e); }
  }
  function addStream(stream, label) {
    ensureMix();
    if (!mixCtx) return;
    if (!stream.getAudioTracks().length) { log.push('no audio tracks: ' + label); return; }
    origConnect.call(mixCtx.createMediaStreamSource(stream), mixDest);
    if (mixCtx.state !== 'running') mixCtx.resume().catch(() => {});
    sources++;
    log.push('source: ' + label);
    maybeStart();
  }
  function tapFor(ctx) {
    if (typeof OfflineAudioContext !== 'undefined' && ctx instanceof OfflineAudioContext) return null;
    if (ctx === mixCtx) return null;
    let t = taps.get(ctx);
    if (!t) { t = ctx.createMediaStreamDestination(); taps.set(ctx, t); addStream(t.stream, 'audiocontext'); }
    return t;
  }
  AudioNode.prototype.connect = function (dest, ...rest) {
    const r = origConnect.call(this, dest, ...rest);
    try {
      if (dest instanceof AudioDestinationNode) { const t = tapFor(dest.context); if (t) origConnect.call(this, t); }
    } catch (e) { /* never break the app */ }
    return r;
  };
  AudioNode.prototype.disconnect = function (...args) {
    const r = origDisconnect.apply(this, args);
    try {
      if (args[0] instanceof AudioDestinationNode) { const t = taps.get(args[0].context); if (t) origDisconnect.call(this, t); }
    } catch (e) { /* ignore */ }
    return r;
  };
  HTMLMediaElement.prototype.play = function (...a) {
    media.add(this);
    const p = origPlay.apply(this, a);
    if (!captured.has(this)) {
      captured.add(this);
      const el = this;
      const grab = () => {
        try { const s = el.captureStream ? el.captureStream() : null; if (s) { if (s.getAudioTracks().length) addStream(s, 'media'); else s.addEventListener('addtrack', () => addStream(s, 'media'), { once: true }); } }
        catch (e) { log.push('captureStream failed: ' + e); }
      };
      if (el.readyState >= 2) grab(); else el.addEventListener('loadeddata', grab, { once: true });
    }
    return p;
  };

  Object.defineProperty(window, '__cookieMedia', {
    enumerable: false, configurable: false, writable: false,
    value: Object.freeze({
      log,
      /** Pause media elements and suspend the app's AudioContexts; pause the recorder (environment freeze). */
      async freeze() {
        frozen = true;
        document.querySelectorAll('video,audio').forEach((e) => media.add(e));
        pausedMedia = [...media].filter((e) => !e.paused);
        pausedMedia.forEach((e) => e.pause());
        pausedCtx = [...contexts].filter((c) => c.state === 'running');
        await Promise.all(pausedCtx.map((c) => c.suspend().catch(() => {})));
        if (recorder && recorder.state === 'recording') recorder.pause();
        return { media: pausedMedia.length, contexts: pausedCtx.length };
      },
      async unfreeze() {
        frozen = false;
        await Promise.all(pausedCtx.map((c) => c.resume().catch(() => {})));
        pausedMedia.forEach((e) => { origPlay.call(e).catch(() => {}); });
        const r = { media: pausedMedia.length, contexts: pausedCtx.length };
        pausedCtx = []; pausedMedia = [];
        if (recorder && recorder.state === 'paused') recorder.resume();
        return r;
      },
      /** Allow recording to start (at the start of the interaction). */
      arm() { armed = true; maybeStart(); return { sources }; },
      state() {
        return { armed, sources, recorder: recorder ? recorder.state : null, contexts: [...contexts].map((c) => c.state), mediaElements: media.size };
      },
      /** Stop recording and return the audio as base64 WebM/Opus (null when nothing played). */
      async stop() {
        if (!recorder) return null;
        if (recorder.state !== 'inactive') { const done = new Promise((r) => { recorder.onstop = r; }); recorder.stop(); await done; }
        const blob = new Blob(chunks, { type: recorder.mimeType });
        const buf = new Uint8Array(await blob.arrayBuffer());
        let s = '';
        for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode.apply(null, buf.subarray(i, i + 0x8000));
        return { mimeType: recorder.mimeType, base64: btoa(s), bytes: buf.length };
      },
    }),
  });
})();
