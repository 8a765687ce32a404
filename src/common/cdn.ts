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

/**
 * The app's HTML with the `integrity` attribute removed from `<script>` and `<link>` tags whose URL the
 * offline CDN answers. Subresource Integrity pins the exact bytes of one build; the offline copy is often
 * another release (or the same one minified differently), so the browser would refuse it and the page would
 * look broken for the environment's reason (a Bootstrap snippet copied with its hashes renders unstyled).
 * Online, the CDN serves the pinned bytes and the check passes: without it the page behaves as it would there.
 * @param serves whether the offline CDN answers a URL (`resolveCdn(url) !== null`)
 * @returns the HTML (unchanged when nothing was removed) and the URLs whose hash is no longer enforced
 */
export function dropCdnIntegrity(html: string, serves: (url: string) => boolean): { html: string; urls: string[] } {
  if (!/\bintegrity\s*=/i.test(html)) return { html, urls: [] };
  const urls: string[] = [];
  const out = html.replace(/<(script|link)\b[^>]*>/gi, (tag) => {
    if (!/\bintegrity\s*=/i.test(tag)) return tag;
    const ref = tag.match(/\b(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i);
    const raw = ref ? (ref[1] ?? ref[2] ?? ref[3] ?? '') : '';
    const url = raw.startsWith('//') ? `https:${raw}` : raw;
    if (!/^https?:\/\//i.test(url) || !serves(url)) return tag;
    urls.push(url);
    return tag.replace(/\s+integrity\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/i, '');
  });
  return { html: out, urls };
}
