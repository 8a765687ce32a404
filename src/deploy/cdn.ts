import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { lookup } from 'mrmime';
import type { CdnRewrite } from '../types.js';

const require = createRequire(import.meta.url);

/** An installed copy of a library: the npm alias it lives under and its version. */
interface Installed {
  alias: string;
  version: string;
}

/**
 * Libraries Cookie serves offline, by npm name: the versions installed with Cookie (as `cdn-*` npm
 * aliases in package.json) and the names cdnjs files them under. The set covers what LLM-written pages
 * load most (three.js, React/ReactDOM UMD, Tailwind's v3 Play CDN and v4 browser build, Chart.js 2/3/4,
 * D3, GSAP, p5, anime.js, Matter.js, cannon-es, Font Awesome, Bootstrap 4/5 and its icons, Babel
 * standalone, jQuery, lodash, Vue 2/3, Leaflet, Alpine.js, Lucide, AOS, Animate.css, canvas-confetti,
 * Tone.js, howler.js, ECharts 5, SortableJS, Typed.js, Swiper, particles.js, Popper 1/2, Font Awesome 4). A library's major versions each have their own alias:
 * a page written for one major version breaks on another (Chart.js 3's `chart.min.js` is not in 4, whose
 * `chart.js` is an ES module), and that would be Cookie's doing, not the model's.
 */
export const CDN_LIBRARIES: Record<string, { aliases: string[]; cdnjs: string[] }> = {
  three: { aliases: ['cdn-three', 'cdn-three-legacy'], cdnjs: ['three.js'] },
  react: { aliases: ['cdn-react'], cdnjs: ['react'] },
  'react-dom': { aliases: ['cdn-react-dom'], cdnjs: ['react-dom'] },
  '@tailwindcss/browser': { aliases: ['cdn-tailwind-browser'], cdnjs: [] },
  /** Tailwind v3's Play CDN script (cdn.tailwindcss.com), as mirrored on npm with its plugin builds. */
  'tailwindcss-cdn': { aliases: ['cdn-tailwind-play'], cdnjs: [] },
  'chart.js': { aliases: ['cdn-chartjs', 'cdn-chartjs-3', 'cdn-chartjs-2'], cdnjs: ['Chart.js', 'chart.js'] },
  d3: { aliases: ['cdn-d3'], cdnjs: ['d3'] },
  gsap: { aliases: ['cdn-gsap'], cdnjs: ['gsap'] },
  p5: { aliases: ['cdn-p5', 'cdn-p5-2'], cdnjs: ['p5.js'] },
  animejs: { aliases: ['cdn-animejs'], cdnjs: ['animejs', 'anime.js'] },
  'matter-js': { aliases: ['cdn-matter'], cdnjs: ['matter-js'] },
  'cannon-es': { aliases: ['cdn-cannon'], cdnjs: [] },
  '@fortawesome/fontawesome-free': { aliases: ['cdn-fontawesome', 'cdn-fontawesome-4'], cdnjs: ['font-awesome'] },
  'font-awesome': { aliases: ['cdn-fontawesome-4'], cdnjs: [] },
  /** Popper 1 (`popper.js`, Bootstrap 4's) and 2 (`@popperjs/core`), by the major version asked for. */
  'popper.js': { aliases: ['cdn-popper-1', 'cdn-popper'], cdnjs: ['popper.js'] },
  '@popperjs/core': { aliases: ['cdn-popper', 'cdn-popper-1'], cdnjs: [] },
  '@babel/standalone': { aliases: ['cdn-babel'], cdnjs: ['babel-standalone'] },
  jquery: { aliases: ['cdn-jquery'], cdnjs: ['jquery'] },
  lodash: { aliases: ['cdn-lodash'], cdnjs: ['lodash.js'] },
  vue: { aliases: ['cdn-vue', 'cdn-vue-2'], cdnjs: ['vue'] },
  bootstrap: { aliases: ['cdn-bootstrap', 'cdn-bootstrap-4'], cdnjs: ['bootstrap', 'twitter-bootstrap'] },
  'bootstrap-icons': { aliases: ['cdn-bootstrap-icons'], cdnjs: ['bootstrap-icons'] },
  alpinejs: { aliases: ['cdn-alpine'], cdnjs: ['alpinejs'] },
  lucide: { aliases: ['cdn-lucide'], cdnjs: [] },
  aos: { aliases: ['cdn-aos'], cdnjs: ['aos'] },
  'animate.css': { aliases: ['cdn-animate-css'], cdnjs: ['animate.css'] },
  'canvas-confetti': { aliases: ['cdn-confetti'], cdnjs: ['canvas-confetti'] },
  tone: { aliases: ['cdn-tone'], cdnjs: ['tone'] },
  howler: { aliases: ['cdn-howler'], cdnjs: ['howler'] },
  echarts: { aliases: ['cdn-echarts'], cdnjs: ['echarts'] },
  sortablejs: { aliases: ['cdn-sortable'], cdnjs: ['Sortable'] },
  'typed.js': { aliases: ['cdn-typed', 'cdn-typed-20'], cdnjs: ['typed.js'] },
  swiper: { aliases: ['cdn-swiper'], cdnjs: ['Swiper'] },
  'particles.js': { aliases: ['cdn-particles'], cdnjs: ['particles.js'] },
  leaflet: { aliases: ['cdn-leaflet'], cdnjs: ['leaflet'] },
};
const CDNJS = new Map(Object.entries(CDN_LIBRARIES).flatMap(([pkg, l]) => l.cdnjs.map((n) => [n.toLowerCase(), pkg] as const)));
/** Well-known vendored library builds a page may expect beside it (a harness provided them). */
const VENDORED: Record<string, string> = {
  'react.production.min.js': 'react',
  'react.development.js': 'react',
  'react-dom.production.min.js': 'react-dom',
  'react-dom.development.js': 'react-dom',
  'tailwind.min.js': 'tailwindcss-cdn',
  'tailwindcss.js': 'tailwindcss-cdn',
  'three.min.js': 'three',
  'babel.min.js': '@babel/standalone',
};

let installedCache: Map<string, Installed[]> | null = null;
/** Which versions are installed (read once from node_modules). */
function installed(): Map<string, Installed[]> {
  if (installedCache) return installedCache;
  installedCache = new Map();
  for (const [pkg, lib] of Object.entries(CDN_LIBRARIES)) {
    const list: Installed[] = [];
    for (const alias of lib.aliases) {
      const dir = findPackageDir(alias);
      if (dir) list.push({ alias, version: (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version });
    }
    installedCache.set(pkg, list);
  }
  return installedCache;
}

/** Folders to look for `cdn-*` packages in: Node's module paths from Cookie, then the optional `cookie-cdn` package's own node_modules (when npm did not hoist them). */
let searchPathsCache: string[] | null = null;
function searchPaths(): string[] {
  if (searchPathsCache) return searchPathsCache;
  const paths = [...(require.resolve.paths('cdn-three') ?? [])];
  const cdnPackage = cookieCdnDir();
  if (cdnPackage) paths.push(path.join(cdnPackage, 'node_modules'), ...(createRequire(path.join(cdnPackage, 'package.json')).resolve.paths('cdn-three') ?? []));
  return (searchPathsCache = [...new Set(paths)]);
}

/** The folder of the optional `cookie-cdn` package (the offline CDN copies), or null when it is not installed. */
export function cookieCdnDir(): string | null {
  for (const base of require.resolve.paths('cookie-cdn') ?? []) {
    const dir = path.join(base, 'cookie-cdn');
    if (fs.existsSync(path.join(dir, 'package.json'))) return fs.realpathSync(dir);
  }
  return null;
}

/**
 * How to add the offline CDN copies, for messages: `cookie-cdn` is not on npm, so it is packed from a
 * clone of Cookie's repository and installed as a tarball (README "Using Cookie from another project").
 */
export const CDN_INSTALL_FIX = 'in a clone of Cookie\'s repository run `npm pack --workspace packages/cookie-cdn`, then in this project `npm install --save-dev <the cookie-cdn-*.tgz it wrote>` (README: "Using Cookie from another project")';

/** True when the offline CDN copies are installed (the `cookie-cdn` package, or the `cdn-*` aliases directly). */
export function offlineCdnInstalled(): boolean {
  return [...installed().values()].some((l) => l.length > 0);
}

/** The folder of an installed package, found along Node's module paths (its `exports` may hide package.json). */
function findPackageDir(alias: string): string | null {
  for (const base of searchPaths()) {
    const dir = path.join(base, alias);
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return null;
}

function dirOf(alias: string): string {
  const d = findPackageDir(alias);
  if (!d) throw new Error(`offline CDN package ${alias} is not installed`);
  return d;
}

/** Does the served version match the request: equal, or equal on every part the request gives (`18` ↔ 18.3.1; `r128` ↔ 0.128.x). */
function sameVersion(requested: string | undefined, served: string): boolean {
  if (!requested || /^(latest|next)$/.test(requested)) return true;
  const r = requested.replace(/^[v^~=]+/, '');
  const three = r.match(/^r(\d+)$/);
  if (three) return served.startsWith(`0.${three[1]}.`);
  // `3.x.x` (Alpine's documented URL) and `3.x` ask for any release of that major
  const parts = r.split('.');
  while (parts.length > 1 && /^[x*]$/i.test(parts[parts.length - 1]!)) parts.pop();
  return served.split('.').slice(0, parts.length).join('.') === parts.join('.');
}

/** Parse "18", "1.9.0", "r128", "^3.2", "latest" into [major, minor] (three.js "r128" = 0.128). */
export function parseVersion(v: string | undefined): [number, number] | null {
  if (!v) return null;
  const r = v.match(/^r(\d+)/);
  if (r) return [0, Number(r[1])];
  const m = v.match(/(\d+)(?:\.(\d+))?/);
  return m ? [Number(m[1]), Number(m[2] ?? -1)] : null;
}

/** The installed version closest to the requested one: same major first (then nearest minor), else the newest. */
function pickVersion(list: Installed[], requested: string | undefined): { pick: Installed; exact: boolean } | null {
  if (!list.length) return null;
  const want = parseVersion(requested);
  const scored = list.map((i) => {
    const have = parseVersion(i.version)!;
    const exact = sameVersion(requested, i.version);
    const dist = want ? (have[0] === want[0] ? 0 : 1000) + (want[1] >= 0 ? Math.abs(have[1] - want[1]) : 0) : -have[0] * 1000 - have[1];
    return { i, exact, dist };
  });
  scored.sort((a, b) => a.dist - b.dist);
  return { pick: scored[0]!.i, exact: scored[0]!.exact };
}

const SEARCH_DIRS = ['', 'build', 'dist', 'lib', 'umd', 'css', 'webfonts', 'min', 'dist/umd', 'lib/min'];

/** Find a file in a package: the exact path, else the same basename in the usual folders (.min.js ↔ .js). */
function findFile(root: string, wanted: string): string | null {
  const clean = wanted.replace(/^\/+/, '').split('?')[0]!;
  if (clean && fs.existsSync(path.join(root, clean)) && fs.statSync(path.join(root, clean)).isFile()) return path.join(root, clean);
  // the same path under a usual folder first (cdnjs `umd/popper.min.js` is the package's `dist/umd/popper.min.js`,
  // not its `dist/popper.min.js`, an ES module)
  for (const d of SEARCH_DIRS) if (d && clean && fs.existsSync(path.join(root, d, clean)) && fs.statSync(path.join(root, d, clean)).isFile()) return path.join(root, d, clean);
  const base = path.basename(clean);
  const names = [base, base.replace(/\.min\.(js|css)$/, '.$1'), base.replace(/\.(js|css)$/, '.min.$1'), base.replace(/^three\.js$/, 'three.min.js')];
  // webfonts keep their folder (Font Awesome CSS refers to ../webfonts/)
  const sub = clean.includes('webfonts/') ? ['webfonts'] : SEARCH_DIRS;
  for (const d of sub) for (const n of names) if (n && fs.existsSync(path.join(root, d, n)) && fs.statSync(path.join(root, d, n)).isFile()) return path.join(root, d, n);
  return null;
}

/** The default browser file of a package (`unpkg`, `jsdelivr`, `browser`, `main` fields). */
function entryOf(root: string): string | null {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  for (const k of ['unpkg', 'jsdelivr', 'browser', 'main']) {
    const v = pkg[k];
    if (typeof v === 'string' && fs.existsSync(path.join(root, v))) return path.join(root, v);
  }
  return null;
}

/** What a CDN URL asks for: the npm package, version and file. */
export function parseCdnUrl(raw: string): { pkg: string; version?: string; file: string } | { special: 'fonts' } | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  const host = u.hostname;
  const p = decodeURIComponent(u.pathname);
  const npmPath = (rest: string) => {
    const m = rest.match(/^\/((?:@[^/]+\/)?[^/@]+)(?:@([^/]+))?(\/.*)?$/);
    return m ? { pkg: m[1]!, version: m[2], file: m[3] ?? '' } : null;
  };
  if (host === 'fonts.googleapis.com' || host === 'fonts.gstatic.com') return { special: 'fonts' };
  if (host === 'cdn.jsdelivr.net' || host === 'fastly.jsdelivr.net') return p.startsWith('/npm/') ? npmPath(p.slice(4)) : null;
  if (host === 'unpkg.com' || host === 'esm.sh' || host === 'cdn.skypack.dev') return npmPath(p);
  if (host === 'cdn.tailwindcss.com') return tailwindPlay(p, u.searchParams.get('plugins'));
  if (host === 'cdnjs.cloudflare.com') {
    const m = p.match(/^\/ajax\/libs\/([^/]+)\/([^/]+)\/(.+)$/);
    const pkg = m && CDNJS.get(m[1]!.toLowerCase());
    return pkg ? { pkg, version: m![2], file: m![3]! } : null;
  }
  if (host === 'code.jquery.com') {
    const m = p.match(/jquery-(\d[\w.]*?)(\.min|\.slim\.min|\.slim)?\.js$/);
    return m ? { pkg: 'jquery', version: m[1], file: `dist/jquery${m[2] ?? ''}.js` } : null;
  }
  if (host === 'threejs.org') return { pkg: 'three', file: p };
  if (host === 'stackpath.bootstrapcdn.com' || host === 'maxcdn.bootstrapcdn.com') {
    const m = p.match(/^\/(bootstrap|font-awesome)\/([^/]+)\/(.+)$/);
    if (!m) return null;
    return m[1] === 'bootstrap' ? { pkg: 'bootstrap', version: m[2], file: `dist/${m[3]}` } : { pkg: 'font-awesome', version: m[2], file: m[3]! };
  }
  if (host === 'use.fontawesome.com') {
    const m = p.match(/^\/releases\/v([^/]+)\/(.+)$/);
    return m ? { pkg: '@fortawesome/fontawesome-free', version: m[1], file: m[2]! } : null;
  }
  if (host === 'd3js.org') {
    const m = p.match(/d3\.v(\d+)/);
    return { pkg: 'd3', version: m?.[1], file: 'dist/d3.min.js' };
  }
  return null;
}

/** Tailwind v3's Play CDN plugins that have a build of their own in the mirror (more than one: the all-plugins build). */
const PLAY_PLUGINS = ['forms', 'typography', 'aspect-ratio', 'container-queries', 'line-clamp'];

/**
 * What `cdn.tailwindcss.com[/<version>][?plugins=a,b]` asks for: Tailwind v3's Play CDN script, a build per
 * plugin set (`tailwindcss.js`, `tailwindcss-with-forms.js`, … `tailwindcss-with-all-plugins.js`).
 */
function tailwindPlay(pathname: string, plugins: string | null): { pkg: string; version?: string; file: string } {
  const version = pathname.match(/^\/(\d+\.\d+(?:\.\d+)?)/)?.[1];
  const wanted = (plugins ?? '').split(',').map((x) => x.trim().replace(/@.*/, '')).filter((x) => PLAY_PLUGINS.includes(x));
  const name = wanted.length === 0 ? 'tailwindcss.js' : wanted.length === 1 ? `tailwindcss-with-${wanted[0]}.js` : 'tailwindcss-with-all-plugins.js';
  return { pkg: 'tailwindcss-cdn', version, file: name };
}

/**
 * True when a file is an ES module (a top-level `import` or `export` statement at the start of a line).
 * A classic `<script src>` cannot run one ("Cannot use import statement outside a module"), so a fallback
 * match that is an ES module is never served for a request that named another file.
 */
function isEsModuleFile(file: string): boolean {
  if (!/\.m?js$/.test(file)) return false;
  const head = fs.readFileSync(file, 'utf8').slice(0, 200_000);
  return /^\s*(import\s*[\w{*'"]|export\s*[\w{*])/m.test(head.replace(/\/\*[\s\S]*?\*\//g, ''));
}

/** A response to fulfil a request with. */
export interface Fulfilment {
  status: number;
  contentType: string;
  body: Buffer;
  rewrite: CdnRewrite;
}

/**
 * The offline CDN (PITFALLS.md: a library loaded from a CDN fails offline and the page looks broken):
 * answer a request to a public CDN from the npm packages installed with Cookie, matching the requested
 * version where one is installed (same major first). Google Fonts get an empty stylesheet (system fonts;
 * font failures are never penalised). Returns null when the request cannot be served: it then stays
 * blocked and is recorded as unresolved, and the judge does not blame the app for it.
 */
export function resolveCdn(url: string): Fulfilment | null {
  const req = parseCdnUrl(url);
  if (!req) return null;
  if ('special' in req) {
    const css = /\/css2?\b/.test(url) || url.includes('fonts.googleapis.com');
    return { status: css ? 200 : 204, contentType: css ? 'text/css' : 'font/woff2', body: Buffer.from(css ? '/* fonts are not available offline: system fonts are used */\n' : ''), rewrite: { url, servedFrom: 'system fonts (empty stylesheet)', exact: false, note: 'web fonts unavailable offline; not penalised' } };
  }
  const list = installed().get(req.pkg);
  if (!list?.length) return null;
  const esm = url.includes('esm.sh') || url.includes('skypack');
  // three.js UMD builds (three.min.js, three.js) exist only in the legacy version
  const wantsUmd = req.pkg === 'three' && /(^|\/)three(\.min)?\.js$/.test(req.file);
  const choice = wantsUmd ? { pick: list.find((i) => i.alias === 'cdn-three-legacy') ?? list[0]!, exact: false } : pickVersion(list, req.version);
  if (!choice) return null;
  const root = dirOf(choice.pick.alias);
  let file: string | null = null;
  if (esm && !req.file) {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { module?: string };
    file = pkg.module && fs.existsSync(path.join(root, pkg.module)) ? path.join(root, pkg.module) : null;
  } else if (req.pkg === 'tailwindcss-cdn' && req.version && fs.existsSync(path.join(root, req.version, req.file))) {
    // the mirror keeps older Play CDN releases in folders of their own (3.3.3/, 3.4.1/, …)
    file = path.join(root, req.version, req.file);
  } else file = req.file && req.file !== '/' ? findFile(root, req.file) : entryOf(root);
  if (!file) return null;
  const askedEsm = esm || /\.mjs$|[./-]esm[./]|\/esm\//.test(req.file);
  if (!askedEsm && req.file && path.basename(file) !== path.basename(req.file.split('?')[0]!) && isEsModuleFile(file)) return null;
  const exact = sameVersion(req.version, choice.pick.version) || (req.pkg === 'tailwindcss-cdn' && !!req.version && file.includes(`${path.sep}${req.version}${path.sep}`));
  return {
    status: 200,
    contentType: lookup(file) ?? 'application/octet-stream',
    body: fs.readFileSync(file),
    rewrite: {
      url,
      servedFrom: `${req.pkg}@${choice.pick.version}/${path.relative(root, file)}`,
      exact,
      ...(exact ? {} : { note: `requested ${req.version ?? 'latest'}, served ${choice.pick.version}` }),
    },
  };
}

/**
 * A same-origin request for a well-known vendored library build that the candidate's folder lacks (e.g.
 * `lib/react.production.min.js`, which the generating harness provided): serve it from the offline CDN.
 * @returns null when the name is not a known library build
 */
export function resolveVendored(url: string): Fulfilment | null {
  const base = path.basename(new URL(url).pathname);
  const pkg = VENDORED[base];
  if (!pkg) return null;
  const list = installed().get(pkg);
  const choice = list && pickVersion(list, pkg === 'three' ? 'r149' : undefined);
  if (!choice) return null;
  const root = dirOf(choice.pick.alias);
  const file = pkg === 'tailwindcss-cdn' ? entryOf(root) : findFile(root, base);
  if (!file) return null;
  return { status: 200, contentType: lookup(file) ?? 'text/javascript', body: fs.readFileSync(file), rewrite: { url, servedFrom: `${pkg}@${choice.pick.version}/${path.relative(root, file)}`, exact: false, note: 'vendored library missing beside the page; served from the offline CDN' } };
}

/** True when a same-origin URL names a vendored library build Cookie can stand in for. */
export function isVendoredName(url: string): boolean {
  try {
    return path.basename(new URL(url).pathname) in VENDORED;
  } catch {
    return false;
  }
}
