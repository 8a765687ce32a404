/**
 * Public CDNs LLM-written pages load libraries from. Shared by the judge (a library blocked offline is
 * the environment's fault, not the model's: PITFALLS.md) and by deploy (which serves them locally).
 */
export const CDN_HOSTS = [
  'cdnjs.cloudflare.com',
  'cdn.jsdelivr.net',
  'fastly.jsdelivr.net',
  'unpkg.com',
  'cdn.tailwindcss.com',
  'esm.sh',
  'cdn.skypack.dev',
  'ajax.googleapis.com',
  'fonts.googleapis.com',
  'fonts.gstatic.com',
  'code.jquery.com',
  'stackpath.bootstrapcdn.com',
  'maxcdn.bootstrapcdn.com',
  'cdn.plot.ly',
  'd3js.org',
  'threejs.org',
  'cdn.babylonjs.com',
  'use.fontawesome.com',
  'kit.fontawesome.com',
  'cdn.socket.io',
  'cdn.bootcdn.net',
  'lib.baomitu.com',
];

/** True when `url` is on a known library CDN. */
export function isCdnUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return CDN_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
  } catch {
    return false;
  }
}
