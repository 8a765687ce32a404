// Cookie's WebRTC init script (plain JavaScript, see probe.init.js). The browser is launched with
// --webrtc-ip-handling-policy=disable_non_proxied_udp (launch.ts): WebRTC cannot open a UDP socket at all,
// and TCP candidates (TURN over TCP) go through the fence proxy, which refuses every host but the app's. This
// script does not enforce anything; it makes the attempt visible: every ICE server a page asks for (in the
// RTCPeerConnection constructor or setConfiguration) and every remote candidate it adds is reported to Cookie,
// which records it as a refused request in the evidence (issue 19: "every refused attempt is in the evidence").
// The page's API keeps working (a subclass), so a page that only uses WebRTC as a feature is not broken by it.
(() => {
  if (window.__cookieWebrtcWrapped) return;
  Object.defineProperty(window, '__cookieWebrtcWrapped', { value: true });
  const Orig = window.RTCPeerConnection || window.webkitRTCPeerConnection;
  if (!Orig) return;
  let reported = 0;
  const report = (urls) => {
    if (reported > 200 || !urls.length) return;
    reported += urls.length;
    try {
      const send = window.__cookieWebrtc;
      if (typeof send === 'function') send(urls.slice(0, 50).map((u) => String(u).slice(0, 300))).catch(() => {});
    } catch (e) {
      /* the page replaced the binding: the OS-level block still holds */
    }
  };
  const serversOf = (cfg) => {
    const out = [];
    try {
      const list = cfg && cfg.iceServers;
      if (!list || typeof list.length !== 'number') return out;
      for (let i = 0; i < list.length && i < 50; i++) {
        const u = list[i] && (list[i].urls !== undefined ? list[i].urls : list[i].url);
        if (typeof u === 'string') out.push(u);
        else if (u && typeof u.length === 'number') for (let j = 0; j < u.length && j < 50; j++) out.push(String(u[j]));
      }
    } catch (e) {
      /* a hostile config object: what was read is reported */
    }
    return out;
  };
  const Recorded = class RTCPeerConnection extends Orig {
    constructor(cfg, ...rest) {
      const urls = serversOf(cfg);
      report(urls.length ? urls : ['webrtc:peer-connection (no ICE servers)']);
      super(cfg, ...rest);
    }
    setConfiguration(cfg) {
      report(serversOf(cfg));
      return super.setConfiguration(cfg);
    }
    addIceCandidate(c, ...rest) {
      try {
        const s = c && (typeof c === 'string' ? c : c.candidate);
        if (s) report([`webrtc:remote-candidate ${String(s).split(' ').slice(4, 6).join(':')}`]);
      } catch (e) {
        /* unreadable candidate */
      }
      return super.addIceCandidate(c, ...rest);
    }
  };
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) {
    if (window[name]) Object.defineProperty(window, name, { value: Recorded, writable: true, configurable: true });
  }
})();
