import type { ConsoleEntry, Defect, DomInventory, FrameTiming, Evidence, RubricVerdict, StaticPerception, TraceStep, ViewportCheck } from '../../types.js';
import { isCdnUrl } from '../../common/cdn.js';
import { checkLanguage } from '../../common/language-check.js';
import { rubricItem } from '../rubric.js';
import { briefFeatures, conceptOfControl, namedInBrief, quotedInBrief, tallyFeatures, type FeatureTally } from './brief.js';

/**
 * The offline judge's rubric checks: each decides one rubric item (METHOD.md §4) from measured evidence
 * by a named method, or records it as not assessed with the reason. A check proposes defects with their
 * deduction (0–8 scale, METHOD.md §9) and a cap group; `score.ts` applies caps and the adjustment rules.
 */

/** A defect proposed by a check, before caps: `points` on 0–8, `cap` groups deductions that share a ceiling. */
export type DraftDefect = Omit<Defect, 'deduction'> & { points: number; cap?: string };

/** What one check returns. */
export interface CheckResult {
  verdict: RubricVerdict;
  defects: DraftDefect[];
  /** Rubric item 3a only: the brief's features and the control taken for each. */
  features?: FeatureTally[];
}

/** Ceilings of capped deduction groups, 0–8 scale ("all buttons dead → about 3–4, not 1", METHOD.md §9). */
export const CAPS: Record<string, number> = {
  'dead-controls': 4,
  'interaction-errors': 3,
  'load-errors': 2,
  placeholders: 2,
  images: 1.5,
  'text-problems': 2,
};

function verdict(id: string, v: RubricVerdict['verdict'], method: string, reason: string): RubricVerdict {
  const item = rubricItem(id);
  return { id, name: item.name, dimension: item.dimension, verdict: v, method, reason };
}

/** Facts derived once from the evidence and shared by the checks. */
export interface Facts {
  ev: Evidence;
  rendered: boolean;
  blank: boolean;
  unresponsiveAtLoad: boolean;
  entryFailed: boolean;
  vpDefault: ViewportCheck | undefined;
  blockedScripts: boolean;
  /** Library scripts from public CDNs that could not be loaded offline (the environment's fault). */
  cdnScriptsMissing: string[];
  /** Stylesheets and fonts from public CDNs that could not be loaded offline. */
  cdnStylesMissing: string[];
  /** Library scripts the offline CDN answered with another version than the page asked for (`CdnRewrite.exact` false). */
  cdnScriptsSubstituted: string[];
  steps: TraceStep[];
}

/**
 * Whether the DOM inventory shows nothing a reviewer could see: no visible text, image, canvas or SVG, and
 * no shapes drawn with CSS — fewer than 3 visible elements in the body, or none of them painting a
 * background (CSS art, a drawing made of styled <div>s, is content; an empty app shell is not). Rubric
 * item 1 (paper §4.3, "code renders"), read with the blank-screen test of the screenshot.
 */
export function nothingInDom(inv: DomInventory | null): boolean {
  if (!inv || inv.visibleTextLength > 0 || inv.canvases.length > 0 || inv.images.length > 0 || inv.svgCount > 0) return false;
  const st = inv.style;
  const drawnWithCss = !!st && st.elementCount >= 3 && st.distinctBackgrounds + st.gradientElements > 0;
  return !drawnWithCss;
}

/**
 * Why perception found the page unresponsive ({@link StaticPerception.unresponsiveCause}); for evidence written
 * before the field existed (2026-12-05), read from the problem lines perception wrote then.
 */
function causeOf(st: StaticPerception): StaticPerception['unresponsiveCause'] {
  if (st.unresponsiveCause || !st.unresponsive) return st.unresponsiveCause;
  if (legacyProblem(st, /crashed/)) return 'crash';
  if (legacyProblem(st, /dialogs in an endless loop/)) return 'dialog-loop';
  return legacyProblem(st, /during perception/) ? 'hang-after-load' : 'hang-at-load';
}

/** A problem line of evidence written before perception recorded typed causes (2026-12-05); read only where the typed field is absent. */
function legacyProblem(st: StaticPerception | null | undefined, re: RegExp): boolean {
  return !!st && st.problems.some((p) => re.test(p));
}

/** Derive {@link Facts}. */
export function facts(ev: Evidence): Facts {
  const st = ev.static;
  const vpDefault = st?.viewports.find((v) => v.width === 1280) ?? st?.viewports[st.viewports.length - 1];
  const entryFailed = st?.entryStatus !== undefined ? st.entryStatus >= 400 : legacyProblem(st, /entry document answered HTTP/);
  const unresponsiveAtLoad = !!st?.unresponsive;
  const blank = !!vpDefault?.blank.isBlank || nothingInDom(st?.inventory ?? null);
  return {
    ev,
    rendered: !!st && !unresponsiveAtLoad && !entryFailed && !blank && !!vpDefault,
    blank,
    unresponsiveAtLoad,
    entryFailed,
    vpDefault,
    blockedScripts: ev.failedRequests.some((r) => r.blocked && (r.resourceType === 'script' || r.resourceType === 'stylesheet')),
    cdnScriptsMissing: [...new Set(ev.failedRequests.filter((r) => r.blocked && r.resourceType === 'script' && isCdnUrl(r.url)).map((r) => r.url))],
    cdnStylesMissing: [...new Set(ev.failedRequests.filter((r) => r.blocked && (r.resourceType === 'stylesheet' || r.resourceType === 'font') && isCdnUrl(r.url)).map((r) => r.url))],
    cdnScriptsSubstituted: [...new Set((ev.cdn?.rewrites ?? []).filter((r) => !r.exact && /\.m?js$/.test(r.servedFrom)).map((r) => r.url))],
    steps: ev.interaction?.steps ?? [],
  };
}

/**
 * Whose fault an error is: `environment` when the harness caused it (blocked network, favicon) or when it
 * is a "X is not defined" after Cookie blocked a script the page loads from outside localhost (PITFALLS.md:
 * an offline CDN library failing is not the model's fault) — or the kind of error a library version
 * mismatch raises after the offline CDN served another version than the page asked for, or an error thrown
 * inside a CDN library while a library script could not be loaded offline.
 */
export function isEnvironmentError(e: ConsoleEntry, f: Facts): boolean {
  if (e.origin === 'environment') return true;
  if (f.blockedScripts && /ReferenceError: .* is not defined|is not a constructor|Cannot read properties of undefined/.test(e.text)) return true;
  // thrown inside a CDN library while another library it needs could not be loaded offline (Bootstrap 4's
  // dropdown without Popper): the missing dependency's doing
  const thrownAt = e.location?.match(/https?:\/\/[^\s)]+/)?.[0];
  if (f.cdnScriptsMissing.length && thrownAt && isCdnUrl(thrownAt)) return true;
  if (f.cdnScriptsSubstituted.length && /ReferenceError: .* is not defined|is not a constructor|is not a function|Cannot read properties of (undefined|null)|Cannot use import statement|Unexpected token 'export'/.test(e.text)) return true;
  return false;
}

/** Normalise an error message for de-duplication (numbers and URLs vary between repeats). */
export function errorKey(text: string): string {
  return text.replace(/https?:\/\/\S+/g, 'URL').replace(/\d+/g, 'N').slice(0, 160);
}

// ───────────────────────────── static checks ─────────────────────────────

/** Item 1, code renders: blank-screen test + load + main-thread responsiveness. */
export function codeRenders(f: Facts): CheckResult {
  const method = 'blank-screen test on the 1280-px screenshot (variance < 100, or < 10 colours and brightness > 240) + load + responsiveness probe';
  if (!f.ev.static) return { verdict: verdict('1', 'not-assessed', method, 'static perception did not run'), defects: [] };
  const crashed = f.ev.stageErrors.some((e) => /crashed/.test(e.message)) || f.ev.interaction?.endedBecause === 'crashed' || causeOf(f.ev.static) === 'crash';
  if (crashed && (f.unresponsiveAtLoad || !f.ev.static.inventory)) {
    return {
      verdict: verdict('1', 'fail', method, 'the page crashed (its renderer process died)'),
      defects: [{ code: 'page-crash', severity: 'critical', dimension: 'functionality', title: 'Page crashes', detail: 'The browser tab crashed (out of memory or a renderer failure) while the page ran; nothing can be used.', rubricItem: '1', points: 8, phase: 'static', evidence: {} }],
    };
  }
  if (f.unresponsiveAtLoad) {
    const cause = causeOf(f.ev.static);
    const flood = cause === 'dialog-loop' ? `the page opens dialogs in an endless loop${f.ev.static.dialogLoopCount ? ` (${f.ev.static.dialogLoopCount} so far)` : ''}` : undefined;
    const after = cause === 'hang-after-load';
    return {
      verdict: verdict('1', 'fail', method, flood ?? `the main thread stopped answering ${after ? 'soon after' : 'during'} load`),
      defects: [
        flood
          ? { code: 'dialog-loop', severity: 'critical', dimension: 'functionality', title: 'Dialogs in an endless loop', detail: `The page keeps opening alert/confirm/prompt dialogs${f.ev.static.dialogLoopCount ? ` (${f.ev.static.dialogLoopCount} so far)` : ''}; nothing else can be used.`, rubricItem: '1', points: 8, phase: 'static', evidence: {} }
          : { code: 'page-hang', severity: 'critical', dimension: 'functionality', title: after ? 'Page hangs soon after load' : 'Page hangs on load', detail: `The main thread stopped answering ${after ? 'seconds after the page loaded' : 'while the page loaded'} (an endless loop); nothing can be used.`, rubricItem: '1', points: 8, phase: 'static', evidence: {} },
      ],
    };
  }
  if (f.entryFailed) {
    return {
      verdict: verdict('1', 'fail', method, 'the entry document did not load'),
      defects: [{ code: 'entry-not-loaded', severity: 'critical', dimension: 'functionality', title: 'Entry page does not load', detail: f.ev.static.problems.join('; '), rubricItem: '1', points: 8, phase: 'static', evidence: {} }],
    };
  }
  if (f.blank && f.cdnScriptsMissing.length) {
    return { verdict: verdict('1', 'exempt', method, `blank, but the page depends on library script(s) that could not be loaded offline: ${f.cdnScriptsMissing.slice(0, 3).join(', ')}`), defects: [] };
  }
  if (f.blank) {
    const errs = [...f.ev.pageErrors, ...f.ev.consoleErrors].filter((e) => e.step === undefined && !isEnvironmentError(e, f));
    // a page that left its own origin before the screenshot (location set to another site, refused offline)
    // shows an empty error page: say so, it is what the user would see happen
    const shotAt = f.vpDefault?.shotAtMs;
    const away = f.ev.navigations.find((n) => n.offApp && n.step === undefined && (shotAt === undefined || n.atMs <= shotAt));
    const cause = `${away ? ` The page navigated away from itself to ${away.url.slice(0, 120)} ${(away.atMs / 1000).toFixed(1)} s after the session began (another site: not loaded during evaluation).` : ''}${errs.length ? ` First error: ${errs[0]!.text}` : ''}`;
    return {
      verdict: verdict('1', 'fail', method, `blank screen (variance ${f.vpDefault?.blank.variance}, ${f.vpDefault?.blank.colours} colours)`),
      defects: [{ code: 'blank-page', severity: 'critical', dimension: 'functionality', title: 'Blank page', detail: `Nothing renders at 1280 px.${cause}`, rubricItem: '1', points: 8, phase: 'static', evidence: { screenshot: f.vpDefault?.screenshot, viewport: 1280, excerpt: errs[0]?.text } }],
    };
  }
  // the page reloads itself over and over while nobody touches it (Cookie loads it once during perception)
  const selfReloads = (f.ev.documentLoads ?? []).filter((l) => l.step === undefined && !l.byCookie).length - 1;
  if (selfReloads >= 3) {
    return {
      verdict: verdict('1', 'fail', method, `the page reloaded itself ${selfReloads} times during static perception`),
      defects: [{ code: 'reload-loop', severity: 'critical', dimension: 'functionality', title: 'Page reloads itself in a loop', detail: `The document loaded ${selfReloads + 1} times in the seconds Cookie only looked at it; whatever the user types or does is lost at the next reload.`, rubricItem: '1', points: 4, phase: 'static', evidence: {} }],
    };
  }
  return { verdict: verdict('1', 'pass', method, 'the page loads, answers and shows content'), defects: [] };
}

/** A step whose action changed the page beyond what it does on its own (effect kind `changed`; older evidence: screenChanged). */
function changedPage(s: TraceStep): boolean {
  return s.outcome === 'ok' && !!s.effect?.screenChanged && (s.effect.kind === undefined || s.effect.kind === 'changed');
}

/** Item 2, intent alignment: only the page type is decidable offline (a dynamic brief needs something to operate). */
export function intentAlignment(f: Facts): CheckResult {
  const method = 'page-type check: a dynamic query needs controls, key listeners or a canvas';
  const inv = f.ev.static?.inventory;
  if (!f.rendered || !inv) return { verdict: verdict('2', 'not-assessed', method, 'the page did not render'), defects: [] };
  const interactive = inv.interactive.length + inv.canvases.length + (inv.listenedEvents.some((e) => /^key/.test(e)) ? 1 : 0);
  if (f.ev.task.query.kind === 'dynamic' && interactive === 0) {
    // the inventory lists controls, canvases and key handlers; a page can answer input it does not list (cards
    // dragged between columns of a board): an action that changed the page is proof there is something to operate
    const answered = f.steps.find(changedPage);
    if (answered) return { verdict: verdict('2', 'pass', method, `no control, canvas or key handler in the inventory, but step ${answered.index} (${answered.action.kind}${answered.action.target ? ` on ${answered.action.target.role} "${answered.action.target.name || answered.action.target.tag}"` : ''}) changed the page: it answers input`), defects: [] };
    // a live display (a clock, a ticker, an animation) may be all the brief asks for: offline, whether it wanted
    // input cannot be told — not assessed rather than a critical guess against the app
    const st = f.ev.static;
    if (st && (st.animatedShare > 0 || (st.idleMutationsPerSec ?? 0) > 0)) return { verdict: verdict('2', 'not-assessed', method, `no control, canvas or key handler, and the page updates by itself (${Math.round(st.animatedShare * 1000) / 10}% of the screen moves, ${st.idleMutationsPerSec ?? 0} DOM changes/s): whether the brief asks for input needs a model-backed judge`), defects: [] };
    return {
      verdict: verdict('2', 'fail', method, 'a dynamic page was asked for; the page has no control, canvas or key handler'),
      defects: [{ code: 'nothing-to-interact', severity: 'critical', dimension: 'functionality', title: 'Nothing to interact with', detail: 'The brief asks for a dynamic page but the page offers no control, canvas or keyboard handling: the core loop is missing.', rubricItem: '2', points: 3, phase: 'static', evidence: { screenshot: f.vpDefault?.screenshot } }],
    };
  }
  return { verdict: verdict('2', 'not-assessed', method, `page type plausible (${inv.interactive.length} controls, ${inv.canvases.length} canvases); whether the content matches the brief needs a model-backed judge`), defects: [] };
}

/**
 * Item 2a, language consistency: the visible text (hidden text left out) against the query's language,
 * decided only from enough text (see checkLanguage: franc close to the best → match, script share,
 * `<html lang>` as a tie-breaker); otherwise not assessed with the reason. Only a confident different
 * language or a wrong script is a defect; its severity follows the share of the UI affected: ≥ 60%
 * critical (−4 for an English query answered in another language, −2 otherwise; METHOD.md §9), ≥ 30%
 * major (−1), less minor (−0.5); little text caps it at major.
 */
export function languageConsistency(f: Facts): CheckResult {
  // decided here from the stored visible text (re-judging stored evidence picks up a better detector);
  // text drawn on canvases (labels, data) is not UI copy and is left out
  const inv = f.ev.static?.inventory;
  const lang = inv ? checkLanguage(inv.textSample, f.ev.task.query.language, inv.htmlLang) : f.ev.static?.language;
  const method = 'visible text only (hidden text left out): franc trigram identification restricted to web UI languages, close-to-best rule, script share, <html lang> as tie-breaker';
  if (!f.rendered || !lang || lang.matches === null) return { verdict: verdict('2a', 'not-assessed', method, lang ? lang.method : 'no visible text captured'), defects: [] };
  if (lang.matches) return { verdict: verdict('2a', 'pass', method, `visible text is in ${lang.expected} (${lang.method})`), defects: [] };
  const affected = lang.affectedShare ?? 1;
  const little = lang.sampleLength < 30;
  const severity: DraftDefect['severity'] = affected >= 0.6 && !little ? 'critical' : affected >= 0.3 ? 'major' : 'minor';
  const points = severity === 'critical' ? (lang.expected === 'en' ? 4 : 2) : severity === 'major' ? 1 : 0.5;
  return {
    verdict: verdict('2a', 'fail', method, `query is in ${lang.expected}, page text reads as ${lang.detected} (${lang.method})`),
    defects: [{ code: 'language-mismatch', severity, dimension: 'functionality', title: 'Page language does not match the query', detail: `The query is in "${lang.expected}" but the visible text reads as "${lang.detected}" (${Math.round(affected * 100)}% of the visible prose affected; ${Math.round(lang.expectedScriptShare * 100)}% in the expected script; ${lang.method}).`, rubricItem: '2a', points, phase: 'static', evidence: { screenshot: f.vpDefault?.screenshot, excerpt: inv?.textSample.slice(0, 120) } }],
  };
}

/**
 * Item 3 (static part): the page renders but its content area stays nearly empty and the app threw at
 * load — the core feature is broken (critical, −3; METHOD.md §9). The load error itself is then the cause,
 * not a second penalty. Only an error logged before the default viewport's screenshot was taken can be what
 * that screenshot shows (`shotAtMs`): a page that loads and draws fine, then throws when perception resizes
 * the window, has not failed to render (a KCORES solar system, human score 85/90, was called "does not
 * render" on its resize handler's error).
 */
export function brokenByError(f: Facts): CheckResult | null {
  if (!f.rendered || !f.vpDefault || f.cdnScriptsMissing.length) return null;
  // uncaught exceptions: page errors, and console errors in an exception's shape (callbacks run by the
  // harness's clock report their exceptions on the console)
  const uncaught = (e: ConsoleEntry) => /^(Uncaught )?(\w*Error|DOMException)\b/.test(e.text);
  const shotAt = f.vpDefault.shotAtMs;
  const errs = [...f.ev.pageErrors, ...f.ev.consoleErrors.filter(uncaught)].filter((e) => e.step === undefined && !isEnvironmentError(e, f) && (shotAt === undefined || e.atMs <= shotAt));
  if (!errs.length || f.vpDefault.contentShare >= 0.05) return null;
  return {
    verdict: verdict('3', 'fail', 'load-time exception + nearly empty content area', `threw "${errs[0]!.text.slice(0, 100)}" and ${(f.vpDefault.contentShare * 100).toFixed(1)}% of the screen carries content`),
    defects: [{ code: 'core-not-rendered', severity: 'critical', dimension: 'functionality', title: 'Core content does not render', detail: `The app threw at load (${errs[0]!.text.slice(0, 160)}) and its screen stays nearly empty (${(f.vpDefault.contentShare * 100).toFixed(1)}% content).`, rubricItem: '3', points: 3, phase: 'static', evidence: { screenshot: f.vpDefault.screenshot, excerpt: errs[0]!.text.slice(0, 200) } }],
  };
}

/** Item 4, data display: garbled text, clipped text and overlapping text elements found in the DOM. */
export function dataDisplay(f: Facts): CheckResult {
  const method = 'DOM text scan: replacement characters/mojibake/"undefined"/"NaN"/raw templates; clipped leaf text; overlapping text boxes';
  const inv = f.ev.static?.inventory;
  if (!f.rendered || !inv) return { verdict: verdict('4', 'not-assessed', method, 'the page did not render'), defects: [] };
  const defects: DraftDefect[] = [];
  const garbled = inv.textProblems.filter((t) => t.kind === 'garbled');
  const overlap = inv.textProblems.filter((t) => t.kind === 'overlap');
  const clipped = inv.textProblems.filter((t) => t.kind === 'clipped');
  if (garbled.length) defects.push({ code: 'garbled-text', severity: 'major', dimension: 'functionality', title: 'Unreadable or garbled data', detail: `${garbled.length} text element(s) show broken values, e.g. "${garbled[0]!.text}" at ${garbled[0]!.selector}.`, rubricItem: '4', points: 1, cap: 'text-problems', phase: 'static', evidence: { excerpt: garbled[0]!.text, screenshot: f.vpDefault?.screenshot } });
  if (overlap.length) defects.push({ code: 'text-overlap', severity: 'major', dimension: 'aesthetics', title: 'Overlapping text', detail: `${overlap.length} pair(s) of text elements overlap, e.g. ${overlap[0]!.selector} ("${overlap[0]!.text}").`, rubricItem: '4', points: 1, cap: 'text-problems', phase: 'static', evidence: { excerpt: overlap[0]!.text, screenshot: f.vpDefault?.screenshot } });
  if (clipped.length) defects.push({ code: 'text-clipped', severity: 'minor', dimension: 'aesthetics', title: 'Clipped text', detail: `${clipped.length} text element(s) are cut off without an ellipsis, e.g. "${clipped[0]!.text}".`, rubricItem: '4', points: 0.5, cap: 'text-problems', phase: 'static', evidence: { excerpt: clipped[0]!.text, screenshot: f.vpDefault?.screenshot } });
  return { verdict: verdict('4', defects.length ? 'fail' : 'pass', method, defects.length ? defects.map((d) => d.title).join('; ') : 'no garbled, clipped or overlapping text found'), defects };
}

/** A library's warning printed with console.error: React's "Warning: …", deprecations ("no longer supported", "deprecated"). */
const LIBRARY_WARNING = /^(?:Warning: |\[Deprecation\])|\bis no longer supported\b|\bis deprecated\b|\bdeprecated and will be removed\b/;

/** Item 5, no console errors: app-caused console errors and uncaught exceptions during load. */
export function consoleErrors(f: Facts): CheckResult {
  const method = 'console errors and uncaught exceptions during load, harness-caused ones (blocked network, favicon) excluded';
  if (!f.ev.static) return { verdict: verdict('5', 'not-assessed', method, 'static perception did not run'), defects: [] };
  const load = [...f.ev.pageErrors, ...f.ev.consoleErrors].filter((e) => e.step === undefined);
  // exempt (METHOD.md §4): a request to a backend that does not exist (fetch/XHR to the app's own server answered 404/405/501)
  const backend = new Set(f.ev.failedRequests.filter((r) => !r.blocked && (r.resourceType === 'fetch' || r.resourceType === 'xhr') && (r.status === 404 || r.status === 405 || r.status === 501)).map((r) => r.url));
  const missingBackend = (e: ConsoleEntry) => /Failed to load resource/.test(e.text) && !!e.location && [...backend].some((u) => e.location!.startsWith(u));
  const exempt = load.filter(missingBackend).length;
  const logged = load.filter((e) => !isEnvironmentError(e, f) && !missingBackend(e));
  // a library's deprecation warning printed with console.error (React 18: "Warning: ReactDOM.render is no longer
  // supported…") is a warning in red, not a runtime error: the page works; one minor note, never a major defect
  const warnings = logged.filter((e) => f.ev.consoleErrors.includes(e) && LIBRARY_WARNING.test(e.text));
  const app = logged.filter((e) => !warnings.includes(e));
  const distinct = [...new Map(app.map((e) => [errorKey(e.text), e])).values()];
  const env = load.length - logged.length - exempt;
  const notes = [env ? `${env} caused by the offline environment` : '', exempt ? `${exempt} from a missing backend (exempt)` : '', warnings.length ? `${warnings.length} library warning(s) logged as errors` : ''].filter(Boolean).join(', ');
  if (!distinct.length) {
    const w = warnings[0];
    const defects: DraftDefect[] = w
      ? [{ severity: 'minor', dimension: 'functionality', code: 'console-warning', title: 'Library warning logged as an error on load', detail: `${w.text}${w.location ? ` (${w.location})` : ''}`, rubricItem: '5', points: 0.25, cap: 'load-errors', phase: 'static', evidence: { excerpt: w.text.slice(0, 200) } }]
      : [];
    return { verdict: verdict('5', 'pass', method, notes ? `no app errors (${notes}, not counted as errors)` : 'no errors'), defects };
  }
  // a blank page or an empty content area already carries the critical defect; its errors are the cause, not a second penalty
  const points = f.blank || brokenByError(f) ? 0 : 1;
  // an error first logged after perception resized the window came with a resize, not with the load: said so
  const resizedFrom = f.ev.static.resizesFromMs;
  const seenBeforeResize = new Set(app.filter((x) => resizedFrom === undefined || x.atMs < resizedFrom).map((x) => errorKey(x.text)));
  // the load's own errors first: the first one is the major defect (stable: otherwise in the order logged)
  const ordered = distinct.map((e) => ({ e, afterResize: !seenBeforeResize.has(errorKey(e.text)) })).sort((x, y) => Number(x.afterResize) - Number(y.afterResize));
  const defects: DraftDefect[] = ordered.slice(0, 3).map(({ e, afterResize }, i) => ({
    severity: i === 0 ? 'major' : 'minor',
    dimension: 'functionality',
    code: 'page-error',
    title: `${i === 0 ? 'Runtime error' : 'Further runtime error'} ${afterResize ? 'after a window resize' : 'on load'}`,
    detail: `${e.text}${e.location ? ` (${e.location})` : ''}${afterResize ? ' — first logged after the window was resized to capture another viewport; not before' : ''}`,
    rubricItem: '5',
    points: i === 0 ? points : points / 2,
    cap: 'load-errors',
    phase: 'static',
    evidence: { excerpt: e.text.slice(0, 200) },
  }));
  return { verdict: verdict('5', 'fail', method, `${distinct.length} distinct app error(s); first: ${ordered[0]!.e.text.slice(0, 120)}`), defects };
}

/** Item 6, responsive adaptation: horizontal overflow and blank screens at each viewport. */
export function responsive(f: Facts): CheckResult {
  const method = 'document scrollWidth vs viewport width and the blank test at each viewport (375/768/1280 px)';
  const vps = f.ev.static?.viewports ?? [];
  if (!f.rendered || !vps.length) return { verdict: verdict('6', 'not-assessed', method, 'the page did not render'), defects: [] };
  const defects: DraftDefect[] = [];
  for (const v of vps) {
    if (v.blank.isBlank && v.width !== f.vpDefault?.width) {
      defects.push({ code: 'blank-at-viewport', severity: 'critical', dimension: 'aesthetics', title: `Nothing shows at ${v.width} px`, detail: `The page renders at ${f.vpDefault?.width} px but is blank at ${v.width} px.`, rubricItem: '6', points: 2, phase: 'static', evidence: { screenshot: v.screenshot, viewport: v.width } });
    } else if (!v.layoutNotMeasured && v.overflowPx > 8) {
      // sized by what a user loses: a few pixels of a fixed canvas are a nuisance, a page twice the screen is broken
      const big = v.overflowPx > v.width * 0.15;
      const small = v.overflowPx <= 24;
      defects.push({
        code: 'horizontal-overflow',
        severity: big ? 'critical' : small ? 'minor' : 'major',
        dimension: 'aesthetics',
        title: `Horizontal overflow at ${v.width} px`,
        detail: `The page is ${v.overflowPx} px wider than a ${v.width}-px screen${v.overflowingElements[0] ? `; ${v.overflowingElements[0].selector} ends at ${v.overflowingElements[0].right} px` : ''}.`,
        rubricItem: '6',
        points: big ? 2 : small ? 0.5 : 1,
        cap: 'responsive',
        phase: 'static',
        evidence: { screenshot: v.screenshot, viewport: v.width },
      });
    } else if (!v.layoutNotMeasured && (v.overflowAfterResizePx ?? 0) > 8) {
      // loaded at this width the page fits; only a window narrowed from the desktop layout keeps it wide
      // (charts and grid tracks sized once): a reader resizing a desktop window sees it, a phone never does
      defects.push({
        code: 'overflow-after-resize',
        severity: 'minor',
        dimension: 'aesthetics',
        title: `Layout does not follow a resize to ${v.width} px`,
        detail: `Narrowed from ${f.vpDefault?.width ?? 'the desktop'} px to ${v.width} px the page stays ${v.overflowAfterResizePx} px too wide; loaded at ${v.width} px it fits (${v.overflowPx} px).`,
        rubricItem: '6',
        points: 0.5,
        cap: 'responsive',
        phase: 'static',
        evidence: { screenshot: v.screenshot, viewport: v.width },
      });
    }
  }
  const big = vps.find((v) => v.width === f.vpDefault?.width);
  for (const v of vps) {
    if (v === big || v.clippedText === undefined || big?.clippedText === undefined) continue;
    if (v.clippedText >= big.clippedText + 3) defects.push({ code: 'text-clipped-at-viewport', severity: 'major', dimension: 'aesthetics', title: `Text clipped at ${v.width} px`, detail: `${v.clippedText} text elements are cut off or overlap at ${v.width} px (${big.clippedText} at ${big.width} px).`, rubricItem: '6', points: 1, cap: 'responsive', phase: 'static', evidence: { screenshot: v.screenshot, viewport: v.width } });
  }
  // one responsive failure is one defect: keep the worst
  defects.sort((a, b) => b.points - a.points);
  const kept = defects.slice(0, 1);
  // viewports perception had no time left for are unknown, not fine (untested ≠ working)
  const unseen = (f.ev.static?.incomplete?.skipped ?? []).filter((s) => s.startsWith('viewport '));
  if (!kept.length && unseen.length) return { verdict: verdict('6', 'not-assessed', method, `no overflow at ${vps.map((v) => v.width).join('/')} px; ${unseen.join(', ')} not captured (perception's time budget ran out on a slow page)`), defects: [] };
  return { verdict: verdict('6', kept.length ? 'fail' : 'pass', method, kept.length ? defects.map((d) => d.title).join('; ') : `no overflow at ${vps.map((v) => v.width).join('/')} px`), defects: kept };
}

/** Item 7, layout rationality: content share of the default screenshot (an almost empty screen is wasted space). */
export function layout(f: Facts): CheckResult {
  const method = 'share of the 1280-px screenshot that differs from its background colour';
  if (!f.rendered || !f.vpDefault) return { verdict: verdict('7', 'not-assessed', method, 'the page did not render'), defects: [] };
  const share = f.vpDefault.contentShare;
  if (share < 0.03 && f.cdnScriptsMissing.length) {
    return { verdict: verdict('7', 'exempt', method, `mostly empty, but library script(s) could not be loaded offline (${f.cdnScriptsMissing[0]})`), defects: [] };
  }
  // a scene drawn on a canvas or SVG that fills the first screen (a solar system in dark space, a starfield,
  // a game board): its empty space is the scene's composition, not a layout that wastes the screen
  const scene = (f.ev.static?.inventory?.canvases ?? []).reduce((a, c) => a + c.areaShare, 0);
  if (share < 0.03 && scene >= 0.5) {
    return { verdict: verdict('7', 'not-assessed', method, `only ${(share * 100).toFixed(1)}% of the first screen differs from the background, but a canvas covering ${Math.round(Math.min(1, scene) * 100)}% of it draws a scene whose empty space is its composition`), defects: [] };
  }
  // a small centred card (a calculator, a login box) is a design choice, not wasted space: minor at most
  const centred = !!f.vpDefault.colour && Math.abs(f.vpDefault.colour.centroidX - 0.5) < 0.15 && (f.ev.static?.inventory?.visibleTextLength ?? 0) > 0;
  // little ink spread across the screen (a minimalist clock: thin 7-rem digits over a third of the width) is a
  // minimal design, not content squeezed into a small block: whether it wastes the screen is taste
  const spread = f.vpDefault.colour?.contentWidthShare ?? 0;
  if (share < 0.03 && centred && spread >= 0.3) {
    return { verdict: verdict('7', 'not-assessed', method, `only ${(share * 100).toFixed(1)}% of the first screen differs from the background, but the centred content spans ${Math.round(spread * 100)}% of its width: a minimal design, whose use of space needs a model-backed judge`), defects: [] };
  }
  if (share < 0.03 && centred) {
    return {
      verdict: verdict('7', 'fail', method, `only ${(share * 100).toFixed(1)}% of the first screen carries content, centred`),
      defects: [{ code: 'sparse-screen', severity: 'minor', dimension: 'aesthetics', title: 'Sparse first screen', detail: `Only ${(share * 100).toFixed(1)}% of the first screen differs from the background; the content sits in a small centred block.`, rubricItem: '7', points: 0.5, phase: 'static', evidence: { screenshot: f.vpDefault.screenshot } }],
    };
  }
  if (share < 0.03) {
    return {
      verdict: verdict('7', 'fail', method, `only ${(share * 100).toFixed(1)}% of the first screen carries content`),
      defects: [{ code: 'empty-screen', severity: 'major', dimension: 'aesthetics', title: 'Mostly empty screen', detail: `Only ${(share * 100).toFixed(1)}% of the first screen differs from the background: the layout wastes the space.`, rubricItem: '7', points: 1, phase: 'static', evidence: { screenshot: f.vpDefault.screenshot } }],
    };
  }
  const col = f.vpDefault.colour;
  const defects: DraftDefect[] = [];
  if (col && col.contentWidthShare < 0.35 && Math.abs(col.centroidX - 0.5) > 0.2) defects.push({ code: 'unbalanced-layout', severity: 'minor', dimension: 'aesthetics', title: 'Unbalanced layout', detail: `The content occupies ${Math.round(col.contentWidthShare * 100)}% of the width, pushed to one side (centre of mass at ${Math.round(col.centroidX * 100)}% of the width).`, rubricItem: '7', points: 0.5, phase: 'static', evidence: { screenshot: f.vpDefault.screenshot } });
  if (share > 0.9 && (f.ev.static?.inventory?.visibleTextLength ?? 0) > 2500) defects.push({ code: 'crowded-layout', severity: 'minor', dimension: 'aesthetics', title: 'Crowded layout', detail: `${Math.round(share * 100)}% of the first screen is covered, with ${f.ev.static?.inventory?.visibleTextLength} characters of text.`, rubricItem: '7', points: 0.5, phase: 'static', evidence: { screenshot: f.vpDefault.screenshot } });
  return { verdict: verdict('7', defects.length ? 'fail' : 'pass', `${method}; content width and centre of mass`, `${(share * 100).toFixed(0)}% of the first screen carries content${defects.length ? `; ${defects.map((d) => d.title).join('; ')}` : ''}; hierarchy and module separation need a model-backed judge`), defects };
}

/**
 * Item 8, interface regularity: edge alignment of content boxes (share whose column line — left, right, centre — or
 * row line — top, bottom, middle — matches another box), the spacing scale (distinct margin/padding/gap values) and the type scale
 * (distinct font sizes).
 */
export function regularity(f: Facts): CheckResult {
  const method = 'edge alignment of visible content boxes, distinct spacing values, distinct font sizes';
  const inv = f.ev.static?.inventory;
  if (!f.rendered || !inv?.layout) return { verdict: verdict('8', 'not-assessed', method, 'the page did not render'), defects: [] };
  const { boxes, alignedShare, spacingValues } = inv.layout;
  if (boxes < 8) return { verdict: verdict('8', 'not-assessed', method, `only ${boxes} content boxes: too few to judge alignment`), defects: [] };
  const defects: DraftDefect[] = [];
  if (alignedShare < 0.5) defects.push({ code: 'misaligned', severity: 'major', dimension: 'aesthetics', title: 'Misaligned elements', detail: `Only ${Math.round(alignedShare * 100)}% of ${boxes} content boxes share a column line (left, right, centre) or a row line (top, bottom, middle) with another.`, rubricItem: '8', points: 1, phase: 'static', evidence: { screenshot: f.vpDefault?.screenshot } });
  const sizes = inv.style.fontSizes.filter((x) => x >= 10);
  if (spacingValues.length > 24) defects.push({ code: 'spacing-scale', severity: 'minor', dimension: 'aesthetics', title: 'No consistent spacing scale', detail: `${spacingValues.length} different margin/padding/gap values are in use.`, rubricItem: '8', points: 0.5, phase: 'static', evidence: {} });
  if (sizes.length > 12) defects.push({ code: 'type-scale', severity: 'minor', dimension: 'aesthetics', title: 'No consistent type scale', detail: `${sizes.length} different font sizes are in use (${sizes.slice(0, 14).join(', ')} px).`, rubricItem: '8', points: 0.5, phase: 'static', evidence: {} });
  return { verdict: verdict('8', defects.length ? 'fail' : 'pass', method, `${Math.round(alignedShare * 100)}% of ${boxes} boxes aligned; ${spacingValues.length} spacing values; ${sizes.length} font sizes`), defects };
}

/**
 * Words by which a brief or a page claims keyboard play (English and Cookie-Bench's 8 languages): games,
 * arrow keys, WASD, the space bar, the keyboard.
 */
/** Words that name the keys the explorer tries on a game-like page (arrows, WASD, Space) themselves. */
const TRIED_KEYS = /\b(arrow|wasd|space ?bar|press space|flecha|fl[eè]che|pfeiltaste|freccia|seta)|стрелк|矢印|方向键|방향키/i;

/**
 * Words that claim those keys without naming them: a game, or a game known by its name. "Keyboard support"
 * alone is no such claim (a calculator's is its digit and operator keys, a piano's its letter keys: a helper's
 * calculator with "keyboard support" got a major "Keys do nothing" because the arrows and WASD did nothing on
 * it), nor is "press Enter" (a form's hint: "type a task and press Enter to add it").
 */
const GAME_WORDS = /\b(press any key|game|snake|tetris|pong|breakout|arkanoid|flappy|pac-?man|asteroids|space invaders|platformer|juego|jeu|spiel|gioco|jogo)|игр|змейк|тетрис|ゲーム|スネーク|テトリス|游戏|遊戲|贪吃蛇|俄罗斯方块|게임|뱀/i;

/**
 * A page or brief that documents keys of its own ("Press 1–9 to place your X, or press R to restart"): a
 * game played by those keys does not claim the arrows, WASD and Space (unless it names them too).
 */
const OTHER_KEYS = /\bpress(?:ing)?\s+(?:the\s+)?(?:keys?\s+)?["'“]?(?:\d(?:\s*[-–]\s*\d)?|(?![wasd]\b)[a-z])["'”]?(?=[\s,.;:!)]|$)/i;

/** Item 9, colour harmony and contrast: axe-core color-contrast results. */
export function colour(f: Facts): CheckResult {
  const method = 'axe-core color-contrast rule (WCAG 2.x AA)';
  const axe = f.ev.static?.axe;
  if (!f.rendered || !axe) return { verdict: verdict('9', 'not-assessed', method, axe ? 'the page did not render' : 'axe-core did not run'), defects: [] };
  const c = axe.find((a) => a.id === 'color-contrast');
  const defects: DraftDefect[] = [];
  if (c && c.nodes >= 3) {
    // weigh what a reader loses: faint secondary text (timestamps, captions) is minor; a fifth of the page's
    // text failing by a visible margin (below 4:1 — a near miss such as 4.46:1 against 4.5:1 is not seen), or
    // a text hardly readable at all (below 2:1), is major. Older evidence without texts: major.
    const total = f.ev.static?.inventory?.visibleTextLength ?? 0;
    const seen = c.texts?.filter((t) => t.ratio === null || t.ratio < 4);
    const share = seen && total > 0 ? seen.reduce((a, t) => a + t.chars, 0) / total : null;
    const faintest = Math.min(...(c.texts ?? []).map((t) => t.ratio ?? Infinity));
    const major = share === null || share >= 0.2 || faintest < 2;
    // the example is the faintest text itself; the count is capped at the page's visible text (an element's
    // text also holds its flagged children's, and evidence before 2026-12-06 counted spaces)
    const example = (c.texts ?? []).find((t) => t.ratio === faintest && t.text) ?? c.texts?.find((t) => t.text);
    const what = share === null ? '' : ` — ${Math.min(c.chars ?? 0, total)} of ${total} characters of text${Number.isFinite(faintest) ? `, the faintest at ${faintest}:1` : ''}${example ? `${Number.isFinite(faintest) && example.ratio === faintest ? ': ' : ', e.g. '}"${example.text}"` : ''}`;
    defects.push({ code: 'poor-contrast', severity: major ? 'major' : 'minor', dimension: 'aesthetics', title: 'Poor text contrast', detail: `${c.nodes} text elements fail WCAG AA contrast (axe-core color-contrast)${what}.`, rubricItem: '9', points: major ? 1 : 0.5, phase: 'static', evidence: { screenshot: f.vpDefault?.screenshot } });
  }
  const col = f.vpDefault?.colour;
  if (col && col.saturatedShare > 0.45 && col.hueFamilies >= 3) defects.push({ code: 'clashing-colours', severity: 'major', dimension: 'aesthetics', title: 'Clashing saturated colours', detail: `${Math.round(col.saturatedShare * 100)}% of the first screen is strongly saturated, in ${col.hueFamilies} hue families.`, rubricItem: '9', points: 1, phase: 'static', evidence: { screenshot: f.vpDefault?.screenshot } });
  const bgs = f.ev.static?.inventory?.style.distinctBackgrounds ?? 0;
  if (bgs > 16) defects.push({ code: 'incoherent-palette', severity: 'minor', dimension: 'aesthetics', title: 'Incoherent palette', detail: `${bgs} different background colours are in use.`, rubricItem: '9', points: 0.5, phase: 'static', evidence: {} });
  const why = `${c ? `${c.nodes} low-contrast element(s)` : 'no contrast violations'}; ${col ? `${Math.round(col.saturatedShare * 100)}% saturated in ${col.hueFamilies} hue families` : 'no colour statistics'}; ${bgs} background colours`;
  return { verdict: verdict('9', defects.length ? 'fail' : 'pass', `${method}; saturation and hue families of the 1280-px screenshot; distinct background colours`, why), defects };
}

/** Item 12, transition effects: CSS transitions/animations on the page's elements. */
export function transitions(f: Facts): CheckResult {
  const method = 'computed transition-duration / animation-name over visible elements';
  const inv = f.ev.static?.inventory;
  if (!f.rendered || !inv) return { verdict: verdict('12', 'not-assessed', method, 'the page did not render'), defects: [] };
  const n = inv.style.transitionElements + inv.style.animatedElements;
  const controls = inv.interactive.filter((e) => e.role === 'button' || e.role === 'tab' || e.role === 'link' || e.role === 'clickable').length;
  if (controls < 3 || inv.canvases.some((c) => c.areaShare > 0.5)) return { verdict: verdict('12', 'not-assessed', method, 'too few DOM controls for transitions to matter'), defects: [] };
  if (n === 0) {
    return {
      verdict: verdict('12', 'fail', method, `${controls} controls, none with a transition or animation`),
      defects: [{ code: 'hard-state-switches', severity: 'minor', dimension: 'aesthetics', title: 'Hard state switches', detail: `None of the ${controls} controls uses a CSS transition or animation: hover, expand and menu changes switch abruptly.`, rubricItem: '12', points: 0.5, phase: 'static', evidence: {} }],
    };
  }
  return { verdict: verdict('12', 'pass', method, `${n} elements with transitions or animations`), defects: [] };
}

/** Item 15, image asset quality: images that failed to load or are distorted (blocked external images exempt). */
export function images(f: Facts): CheckResult {
  const method = 'img complete/naturalWidth and rendered vs natural aspect ratio; images blocked by the offline fence are exempt';
  const inv = f.ev.static?.inventory;
  if (!f.rendered || !inv) return { verdict: verdict('15', 'not-assessed', method, 'the page did not render'), defects: [] };
  if (!inv.images.length) return { verdict: verdict('15', 'not-assessed', method, 'no images'), defects: [] };
  const blocked = new Set(f.ev.failedRequests.filter((r) => r.blocked).map((r) => r.url));
  const external = (src: string) => blocked.has(src) || (!!src && !src.startsWith(new URL(f.ev.deploy?.url ?? 'http://127.0.0.1').origin) && /^https?:/.test(src));
  const broken = inv.images.filter((i) => !i.loaded && i.src && !external(i.src));
  const exempt = inv.images.filter((i) => !i.loaded && external(i.src)).length;
  const distorted = inv.images.filter((i) => i.loaded && (i.distortion < 0.8 || i.distortion > 1.25) && i.width > 40);
  const defects: DraftDefect[] = [];
  for (const img of broken.slice(0, 3)) {
    const hero = img.areaShare >= 0.15;
    defects.push({ code: hero ? 'broken-hero-image' : 'broken-image', severity: hero ? 'major' : 'minor', dimension: 'aesthetics', title: hero ? 'Broken hero image' : 'Broken image', detail: `Image ${img.src || '(no src)'} did not load.`, rubricItem: '15', points: hero ? 1 : 0.5, cap: 'images', phase: 'static', evidence: { excerpt: img.src, screenshot: f.vpDefault?.screenshot } });
  }
  if (distorted.length) defects.push({ code: 'distorted-image', severity: 'minor', dimension: 'aesthetics', title: 'Distorted image', detail: `${distorted.length} image(s) are stretched (aspect ratio off by ${Math.round(Math.abs(1 - distorted[0]!.distortion) * 100)}%).`, rubricItem: '15', points: 0.5, cap: 'images', phase: 'static', evidence: { excerpt: distorted[0]!.src } });
  const reason = defects.length ? defects.map((d) => d.title).join('; ') : `${inv.images.length} image(s) load and fit${exempt ? `; ${exempt} external image(s) blocked offline, exempt` : ''}`;
  return { verdict: verdict('15', defects.length ? 'fail' : exempt === inv.images.length ? 'exempt' : 'pass', method, reason), defects };
}

/** Item 16, audio and video behaviour: media elements whose sources fail. */
export function media(f: Facts): CheckResult {
  const method = 'media requests that failed (blocked external media exempt)';
  const inv = f.ev.static?.inventory;
  if (!inv || inv.videoCount + inv.audioCount === 0) return { verdict: verdict('16', 'not-assessed', method, 'no <audio> or <video> elements'), defects: [] };
  const failed = f.ev.failedRequests.filter((r) => r.resourceType === 'media' && !r.blocked);
  if (failed.length) {
    return {
      verdict: verdict('16', 'fail', method, `${failed.length} media source(s) failed`),
      defects: [{ code: 'media-failed', severity: 'major', dimension: 'functionality', title: 'Media does not load', detail: `Media source ${failed[0]!.url} failed (${failed[0]!.status ?? failed[0]!.errorText}).`, rubricItem: '16', points: 1, phase: 'static', evidence: { excerpt: failed[0]!.url } }],
    };
  }
  return { verdict: verdict('16', 'pass', method, 'media sources load'), defects: [] };
}

/**
 * An alert that explains a precondition or an empty state (nothing selected or saved yet, a field to fill
 * first, an invalid value), in the benchmark's main languages: feedback of a working control, not a
 * placeholder (rubric item 14). "Coming soon", "Clicked!", "Copied!" with no copy do not match.
 */
export const STATE_MESSAGE =
  /\b(no|none|nothing|empty|please|select|choose|enter|first|must|required|invalid|cannot|can't|at least|already|missing)\b|请|請|没有|沒有|尚未|未选择|不能|无效|veuillez|aucune?|rien|d'abord|invalide|bitte|kein(e|en)?|nichts|zuerst|ungültig|por favor|ningún|ninguna|nada|primero|inválid|nenhum|ありません|してください|選択|입력|선택|없습니다|пожалуйста|нет |выберите/i;

/**
 * The most other work on the machine is assumed to stretch the page's own script (wall time over CPU time):
 * tenfold — a 2-core machine running 20 busy processes. A frame holding ≥ 1 s of the page's script therefore
 * needed ≥ 100 ms of CPU whatever the load (PITFALLS.md: blame the app only for what it did).
 */
const CONTENTION_STRETCH_BOUND = 10;

/**
 * The share of its wall time a page's own work would take on a CPU of its own, given the CPU pressure (0–1)
 * it ran under: 2 / (1 − pressure) stretch, never more than {@link CONTENTION_STRETCH_BOUND}.
 */
function contentionDiscount(pressure: number): number {
  return Math.max(1 / CONTENTION_STRETCH_BOUND, (1 - pressure) * 0.5);
}

/**
 * Item 11, animation smoothness: frames per second the page delivers (a counter on requestAnimationFrame,
 * which stalls when the app blocks the main thread) while idle and while each action ran, on pages that
 * animate or play; and load latency. Measured on this machine (2 cores, software WebGL): thresholds are
 * set low (10 fps major, 3 fps critical) so only real jank counts. The app is blamed only for what its own
 * main thread did: when the slow windows' long frames hold little of the page's work (scripts, style and
 * layout under 40% of the window), frames waited for software raster or for a CPU other processes held —
 * the machine, not the app (PITFALLS.md) — and the item is not assessed; likewise when tasks waited for a CPU
 * through half of at least half the slow windows (Linux PSI) — unless the page's own work per long frame,
 * discounted for the contention, still holds a frame for 100 ms or more — or an empty page in the same run
 * was as slow.
 */
export function smoothness(f: Facts): CheckResult {
  const method = 'frames per second (requestAnimationFrame counter) idle and during actions; long animation frames; load time';
  const st = f.ev.static;
  if (!f.rendered || !st) return { verdict: verdict('11', 'not-assessed', method, 'the page did not render'), defects: [] };
  const defects: DraftDefect[] = [];
  const animates = st.animatedShare >= 0.005 || !!f.ev.interaction?.gameLike;
  // every measured window: the idle gap of static perception, then each step
  const timings = [st.frameTiming, ...f.steps.map((s) => s.frameTiming)].filter((t): t is FrameTiming => !!t && typeof t.fps === 'number' && t.fps >= 0);
  const samples = timings.map((t) => t.fps);
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : null;
  // the machine's own capacity in the same run: an empty page's frame rate measured before the app loaded
  const machine = st.machineFrameRate?.fps;
  const machineLimited = machine !== undefined && median !== null && (machine < 20 || median >= machine * 0.5);
  if (animates && median !== null && median < 10 && machineLimited) {
    return { verdict: verdict('11', 'not-assessed', method, `median ${median} fps, but the machine itself delivered only ${machine} fps on an empty page in the same run: the machine was the limit, not the app`), defects: [] };
  }
  // the slow windows: how much of them the page's own main thread worked (evidence that measured it)
  const slow = timings.filter((t) => t.fps < 10 && t.longFrameWorkMs !== undefined && t.windowMs !== undefined && t.windowMs > 0);
  // a window where the CPUs were contended still blames the app when its own work per long frame, discounted
  // for the contention, would alone hold a frame for 100 ms or more (under 10 fps on a CPU of its own). The
  // discount assumes the contention stretched the page's script by 2 / (1 − pressure), and never by more than
  // CONTENTION_STRETCH_BOUND (PSI saturates near 100 % on an oversubscribed machine and says no more)
  const appBound = (t: FrameTiming) => (t.longFrames ?? 0) > 0 && ((t.longFrameWorkMs ?? 0) * contentionDiscount(t.cpuPressure ?? 0)) / t.longFrames! >= 100;
  const contended = slow.filter((t) => (t.cpuPressure ?? 0) >= 0.5 && !appBound(t));
  if (animates && median !== null && median < 10 && slow.length && contended.length * 2 >= slow.length) {
    const worst = Math.max(...contended.map((t) => t.cpuPressure!));
    return { verdict: verdict('11', 'not-assessed', method, `median ${median} fps, but in ${contended.length} of the ${slow.length} slow measurements other work held this machine's CPUs (tasks waited for a CPU up to ${Math.round(worst * 100)}% of the window): the machine was the limit, not the app`), defects: [] };
  }
  // windows where the page's own script alone explains the slowness need no share of the window: between its
  // long frames a contended page also waits to be scheduled, which the share test would blame on the machine
  if (animates && median !== null && median < 10 && slow.length && slow.filter(appBound).length * 2 < slow.length) {
    const work = slow.reduce((a, t) => a + Math.max(0, t.longFrameWorkMs!), 0);
    const window = slow.reduce((a, t) => a + t.windowMs!, 0);
    if (work < 0.4 * window) {
      return { verdict: verdict('11', 'not-assessed', method, `median ${median} fps, but the page's own code worked only ${Math.round(work)} ms of the ${Math.round(window)} ms measured (scripts, style and layout in long frames): frames waited for this machine's software rendering (no GPU) or CPU, not for the app`), defects: [] };
    }
  }
  if (animates && median !== null && median < 10) {
    const critical = median < 3;
    defects.push({ code: 'animation-stutter', severity: critical ? 'critical' : 'major', dimension: 'aesthetics', title: `Animation stutters (${median} fps)`, detail: `The page delivers a median of ${median} frames per second over ${samples.length} measurements (long frames: ${st.frameTiming?.longFrames ?? 0} in the idle second).`, rubricItem: '11', points: critical ? 2 : 1, phase: 'static', evidence: {} });
  }
  const excused = st.loadMs > SLOW_LOAD_MS ? slowLoadExcuse(st) : null;
  if (st.loadMs > SLOW_LOAD_MS && !excused) defects.push({ code: 'slow-load', severity: 'minor', dimension: 'aesthetics', title: 'Slow to load', detail: `The page took ${(st.loadMs / 1000).toFixed(1)} s to load${st.loadTiming?.workMs !== undefined ? `, ${(st.loadTiming.workMs / 1000).toFixed(1)} s of it its own scripts, style and layout` : ''}.`, rubricItem: '11', points: 0.5, phase: 'static', evidence: {} });
  const loaded = `loaded in ${st.loadMs} ms${excused ? ` (load time not assessed: ${excused})` : ''}`;
  if (!animates && !defects.length) return { verdict: verdict('11', 'not-assessed', method, `the page does not animate by itself; ${loaded}`), defects: [] };
  return { verdict: verdict('11', defects.length ? 'fail' : 'pass', method, `median ${median ?? '–'} fps over ${samples.length} measurements${machine !== undefined ? ` (machine capacity ${machine} fps)` : ''}; ${loaded}`), defects };
}

/** A load longer than this is slow (rubric item 11, "reasonable load latency"), ms. */
export const SLOW_LOAD_MS = 10_000;

/**
 * Why a load over {@link SLOW_LOAD_MS} is not the app's doing, or null when it is (PITFALLS.md: the machine's
 * slowness is not the app's). Not the app's: Cookie's own server took half the load to answer the entry
 * document; other work held this machine's CPUs through half the load (Linux PSI) and the page's own work,
 * discounted for that contention as for frames ({@link CONTENTION_STRETCH_BOUND}), does not alone fill the
 * threshold; or an empty page on the same machine ran under 20 fps (also where PSI is unmeasured: a remote browser). Evidence
 * without `loadTiming` (written before it was measured) keeps the plain threshold.
 */
export function slowLoadExcuse(st: StaticPerception): string | null {
  const lt = st.loadTiming;
  if (lt?.documentWaitMs !== undefined && lt.documentWaitMs * 2 >= st.loadMs) return `Cookie's server took ${lt.documentWaitMs} ms to answer the entry document`;
  const p = lt?.cpuPressure;
  if (p !== undefined && p >= 0.5) {
    const own = (lt?.workMs ?? 0) * contentionDiscount(p);
    if (own < SLOW_LOAD_MS) return `other work held this machine's CPUs through ${Math.round(p * 100)}% of the load, and the page's own work (${lt?.workMs ?? 0} ms) does not explain it`;
  }
  const machine = st.machineFrameRate?.fps;
  if (machine !== undefined && machine < 20) return `the machine itself delivered only ${machine} fps on an empty page in the same run`;
  return null;
}

/** Item 10, design refinement: decided by the styling-signal baseline (see baseline.ts); verdict only. */
export function refinementVerdict(tier: number, signals: string): RubricVerdict {
  return verdict('10', tier >= 5 ? 'pass' : 'fail', 'styling signals: custom font, backgrounds, radii, shadows, gradients, transitions; canvas colour richness', `${signals} → aesthetics baseline ${tier}`);
}

// ───────────────────────────── interaction checks ─────────────────────────────

function label(s: TraceStep): string {
  const t = s.action.target;
  if (t) return `${t.role} "${t.name || t.tag}"`;
  if (s.action.key) return `key ${s.action.key}`;
  return s.action.kind;
}

/**
 * Items 3, 3a, 13, 14 from the interaction trace: hangs (crash, −4), errors thrown by an action (major),
 * controls with no visible effect after two tries (dead: button major, other minor; capped at 4),
 * alert-only handlers (placeholders), game keys that never change the screen. Untested controls are never
 * defects; an action the agent could not perform is the agent's problem, not the app's.
 */
export function interactionChecks(f: Facts, staticErrorKeys: Set<string>, minTries = 2): CheckResult[] {
  const tr = f.ev.interaction;
  const m3 = 'interaction trace: hangs, errors thrown by actions, controls without effect after two tries';
  const m13 = 'share of actions with a visible effect (pixels beyond the page\'s own animation, DOM mutations, scroll, dialog, navigation)';
  const m14 = 'alert-only handlers, popups and navigation off the app during interaction';
  if (!tr || !f.rendered) {
    const why = !tr ? 'no interaction evidence' : 'the page did not render';
    return [
      { verdict: verdict('3', 'not-assessed', m3, why), defects: [] },
      { verdict: verdict('3a', 'not-assessed', 'tally of exercised controls', why), defects: [] },
      { verdict: verdict('13', 'not-assessed', m13, why), defects: [] },
      { verdict: verdict('14', 'not-assessed', m14, why), defects: [] },
    ];
  }
  const steps = tr.steps;
  const d3: DraftDefect[] = [];
  const d13: DraftDefect[] = [];
  const d14: DraftDefect[] = [];

  // dialogs the page opens by itself, again and again (an alert on a timer): the same message at least twice
  // while nobody acted (static perception) — each one blocks the page until it is dismissed. Dialogs an action
  // opened (a "Deleted!" after Delete) are the action's; an endless flood is item 1's "Dialogs in an endless loop"
  if (!f.ev.static?.unresponsive) {
    const unprompted = f.ev.dialogs.filter((d) => d.step === undefined || d.step === null);
    const repeats = new Map<string, number>();
    for (const d of unprompted) repeats.set(d.message, (repeats.get(d.message) ?? 0) + 1);
    const [message, times] = [...repeats].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    if (times >= 2) {
      const same = f.ev.dialogs.filter((d) => d.message === message);
      d14.push({ code: 'recurring-dialog', severity: 'major', dimension: 'functionality', title: 'Dialogs keep opening by themselves', detail: `The page opened the ${same[0]!.type} "${message.slice(0, 80)}" ${same.length} times in all, ${times} of them while nobody touched it (${unprompted.length > 1 ? `about every ${((unprompted[unprompted.length - 1]!.atMs - unprompted[0]!.atMs) / 1000 / (unprompted.length - 1)).toFixed(1)} s` : 'repeatedly'}); each blocks the page until it is dismissed.`, rubricItem: '14', points: 1, phase: 'interaction', evidence: { excerpt: message.slice(0, 200) } });
    }
  }

  const hang = steps.find((s) => s.outcome === 'unresponsive');
  if (hang) {
    d3.push({ code: 'page-freeze', severity: 'critical', dimension: 'functionality', title: 'Page freezes', detail: `After ${label(hang)} the main thread stopped answering; the app is unusable from then on.`, rubricItem: '3', points: 4, phase: 'interaction', evidence: { step: hang.index, screenshot: hang.screenshotBefore ?? undefined } });
  }

  // the brief's core actions (issue 11 point 2): a control that serves one is core, the rest secondary
  const features = briefFeatures(f.ev.task.query.prompt);
  const core = new Set(features.map((x) => x.id));
  // …and a control the brief names in quotes ('a "New quote" button') is core whatever its verb
  const quoted = quotedInBrief(f.ev.task.query.prompt);
  const briefInput = namedInBrief(f.ev.task.query.prompt);
  const isCore = (name: string) => {
    const c = conceptOfControl(name);
    return (!!c && core.has(c)) || quoted(name);
  };

  // errors thrown during steps (no double penalty: an error already counted at load is not counted again)
  const thrownBy = new Map<string, TraceStep>();
  for (const s of steps) {
    for (const e of [...s.pageErrors, ...s.consoleErrors]) {
      if (isEnvironmentError(e, f)) continue;
      const k = errorKey(e.text);
      if (staticErrorKeys.has(k) || thrownBy.has(k)) continue;
      thrownBy.set(k, s);
      // a throwing core control is critical, a secondary one minor, like a dead one (issue 11 point 2): a placeholder
      // link whose scroll handler throws on href="#" costs the user nothing they came for
      const c = !!s.action.target && isCore(s.action.target.name);
      // typing into an input the brief asks for by name ("bill amount") that throws an uncaught exception: the
      // brief's own input fails (major); a console message, or a secondary control's error, stays minor
      const input = !c && s.pageErrors.includes(e) && ['fill', 'select'].includes(s.action.kind) && !!s.action.target?.name && briefInput(s.action.target.name);
      d3.push({
        code: c ? 'core-feature-error' : 'interaction-error',
        severity: c ? 'critical' : input ? 'major' : 'minor',
        dimension: 'functionality',
        title: `Error when using ${label(s)}`,
        detail: `${e.text}${c ? ` — it serves the brief's core action "${conceptOfControl(s.action.target!.name)}"` : input ? ' — an input the brief asks for' : ''}`,
        rubricItem: '3',
        points: c ? 3 : input ? 1.5 : 0.5,
        cap: c || input ? undefined : 'interaction-errors',
        phase: 'interaction',
        evidence: { step: s.index, screenshot: s.screenshotAfter ?? undefined, excerpt: e.text.slice(0, 200) },
      });
    }
  }
  const erroredTargets = new Set([...thrownBy.values()].map((s) => s.action.target?.signature).filter(Boolean));

  // a page that destroys itself on a step (body emptied, nearly all elements gone): the step did it
  // (a document still being parsed when it was read — the action navigated — shows nothing of the sort)
  const destroyed = steps.find((s) => s.content && !s.content.after.loading && s.content.before.elements >= 3 && s.content.after.elements <= Math.max(1, s.content.before.elements * 0.1) && s.content.after.textChars < Math.max(5, s.content.before.textChars * 0.1));
  if (destroyed) {
    d3.push({ code: 'page-self-destructs', severity: 'critical', dimension: 'functionality', title: `Page destroys itself on ${label(destroyed)}`, detail: `Step ${destroyed.index} (${label(destroyed)}) left ${destroyed.content!.after.elements} of ${destroyed.content!.before.elements} elements and ${destroyed.content!.after.textChars} of ${destroyed.content!.before.textChars} characters of text: the app is gone.`, rubricItem: '3', points: 4, phase: 'interaction', evidence: { step: destroyed.index, screenshot: destroyed.screenshotAfter ?? undefined } });
  }

  // dead controls: every try (≥ 2) performed, none with a visible effect — unless a library the page
  // needs could not be loaded offline, in which case no control can be blamed on the app. Not controls,
  // never dead: a canvas, image or decorative element without handlers or a role, a container that
  // delegates clicks to its children; never dead: actions with nothing to do in the state they met or
  // whose effect leaves the page (download, print, clipboard, new tab).
  const libMissing = f.cdnScriptsMissing.length > 0;
  const inv = f.ev.static?.inventory;
  const seen = new Map((inv?.interactive ?? []).map((e) => [e.signature, e]));
  const notControl = (t: NonNullable<TraceStep['action']['target']>): string | null => {
    const e = seen.get(t.signature);
    const explicitRole = t.role !== 'clickable';
    if (!explicitRole && /^(canvas|img|svg|picture|figure|video)$/.test(t.tag) && !(e?.handlers?.length)) return 'a graphic without handlers or a role is not a control';
    // a chart's canvas listens for the pointer to show tooltips; a click on it is not a control a user expects to act
    if (!explicitRole && t.tag === 'canvas' && e?.chart) return `a chart drawn by ${e.chart} (its listeners serve hover tooltips), not a control`;
    if (!explicitRole && !(e?.handlers?.length) && /^(div|span|section|li|p|article|main|ul|td|tr|header|footer|h\d)$/.test(t.tag)) return 'decorative element (pointer cursor only, no handler or role)';
    const inside = (inv?.interactive ?? []).filter((o) => o.signature !== t.signature && o.box.x >= t.box.x - 1 && o.box.y >= t.box.y - 1 && o.box.x + o.box.width <= t.box.x + t.box.width + 1 && o.box.y + o.box.height <= t.box.y + t.box.height + 1).length;
    if (!explicitRole && inside >= 2) return `a container of ${inside} controls (delegated handler): its children are the controls`;
    return null;
  };
  const KEYPAD_KEY = /^([0-9]|00|[.,]|±|\+\/[-−]|[-−+*÷/%=^√()]|⌫|←)$/;
  const OFF_PAGE = /\b(save|download|export|print|copy|share|tweet|open in new|png|pdf|csv)\b|enregistrer|télécharger|imprimer|copier|partager|guardar|descargar|imprimir|copiar|compartir|salvar|baixar|partilhar|speichern|herunterladen|drucken|kopieren|teilen|保存|下载|导出|打印|复制|分享|ダウンロード|印刷|コピー|共有|저장|다운로드|인쇄|복사|공유/i;
  const CLEARS = (name: string) => ['reset', 'delete'].includes(conceptOfControl(name) ?? '') || /\bundo\b|annuler|deshacer|desfazer|rückgängig|撤销|元に戻す|실행 취소/i.test(name);
  // a new game on a board no move has changed yet has nothing to reset (a tic-tac-toe's "🔄 New Game" before
  // the first move)
  const NEW_GAME = /\b(new game|play again|new round|restart game)\b|nouvelle partie|rejouer|neues spiel|nochmal spielen|nuevo juego|jugar de nuevo|nova partida|jogar novamente|新游戏|新遊戲|再来一局|新しいゲーム|もう一度|새 게임|다시 하기/i;
  // steps that create something a clear/delete/undo could remove: drawing (drag), typing text, adding
  const PRODUCES = (s: TraceStep) =>
    s.outcome === 'ok' &&
    !!s.effect?.screenChanged &&
    (s.action.kind === 'drag' ||
      (s.action.kind === 'fill' && s.action.target?.role === 'textbox' && !!s.action.value && !/^#[0-9a-f]{3,8}$|^-?[\d.]+$/i.test(s.action.value)) ||
      (s.action.kind === 'click' && ['add', 'increment', 'start', 'submit', 'calculate'].includes(conceptOfControl(s.action.target?.name ?? '') ?? '')));
  let exemptDead = 0;
  const quiet: string[] = [];
  const byTarget = new Map<string, TraceStep[]>();
  for (const s of steps) {
    if (s.action.kind !== 'click' || !s.action.target || s.outcome !== 'ok' || !s.effect) continue;
    // nothing to act on (clear on an empty canvas) or an effect that left the page (download): not dead
    if (s.effect.kind === 'nothing-to-do' || s.effect.kind === 'external') continue;
    // a click another element caught (a toast over a cookie banner's button) never reached the control: that try
    // is untested, not dead (a decorative overlay that swallows clicks is its own defect, click-intercepted)
    if (s.intercepted && !s.effect.screenChanged) continue;
    const k = s.action.target.signature;
    byTarget.set(k, [...(byTarget.get(k) ?? []), s]);
  }
  let working = 0;
  let dead = 0;
  const failing = new Set<string>(erroredTargets as Set<string>);
  // a control's signature carries its classes, so a colour swatch drawn selected ("swatch sel") and the same
  // swatch unselected are two signatures: a named control that changed the page under either one works
  const nameKey = (t: { role: string; name: string }) => `${t.role}|${t.name}`;
  const answeredNames = new Set(steps.filter((s) => s.action.kind === 'click' && s.outcome === 'ok' && !!s.effect?.screenChanged && !!s.action.target?.name).map((s) => nameKey(s.action.target!)));
  const deadNames = new Set<string>();
  // the keypad exemption below needs a page that answers at all: on a calculator where no key ever does anything
  // (its script failed to parse), every key is dead whatever state it met
  const pageAnswered = steps.some((s) => s.outcome === 'ok' && !!s.effect?.screenChanged);
  for (const [sig, tries] of byTarget) {
    const named = tries[0]!.action.target!.name;
    if (tries.some((t) => t.effect!.screenChanged) || (!!named && answeredNames.has(nameKey(tries[0]!.action.target!)))) {
      working++;
      continue;
    }
    if (tries.length < minTries || erroredTargets.has(sig)) continue; // one try is not proof; an error is already counted
    if (libMissing) {
      exemptDead++;
      continue;
    }
    const t = tries[0]!.action.target!;
    const nc = notControl(t);
    const offPage = OFF_PAGE.test(t.name) ? 'its effect may leave the page (download, print, clipboard, share)' : null;
    const firstTry = tries[0]!.index;
    const lastTry = tries[tries.length - 1]!.index;
    const nothingToClear = CLEARS(t.name) && !steps.some((s) => s.index < lastTry && s.index !== firstTry && PRODUCES(s) && s.action.target?.signature !== sig);
    const nothingToRestart = NEW_GAME.test(t.name) && !steps.some((s) => s.index < lastTry && !tries.includes(s) && s.outcome === 'ok' && !!s.effect?.screenChanged);
    const nothing = nothingToClear ? 'nothing to clear or remove in the state it met' : nothingToRestart ? 'a new game before anything on the page had changed (nothing to reset)' : null;
    // add/submit/calculate/convert/search act on what was typed: with nothing typed before, an empty input may be refused on purpose
    const needsInput = ['add', 'submit', 'calculate', 'convert', 'search'].includes(conceptOfControl(t.name) ?? '') && !tries.some((x) => steps.some((s) => s.index < x.index && s.action.kind === 'fill' && s.outcome === 'ok' && !!s.action.value)) ? 'it acts on typed input and nothing was typed before it (an empty input may be refused on purpose)' : null;
    // a canvas is one surface for many inputs (a game's keys, a drag that rotates a scene): clicks that land
    // mid-rally do nothing by design, and a canvas that answered another input is not dead
    const answeredOther = t.tag === 'canvas' ? steps.find((s) => changedPage(s) && (!s.action.target || s.action.target.signature === sig)) : undefined;
    const canvasAnswered = answeredOther ? `the canvas answered other input (step ${answeredOther.index}: ${answeredOther.action.kind}${answeredOther.action.key ? ` ${answeredOther.action.key}` : ''})` : null;
    // a keypad key tried only in one state ("0" and "±" pressed twice while the display read 0): in that state it
    // may have nothing to change; only tries in states the page moved between prove it dead
    const between = steps.filter((s) => s.index > firstTry && s.index < lastTry && !tries.includes(s));
    const oneState = pageAnswered && KEYPAD_KEY.test(t.name.trim()) && !between.some((s) => s.outcome === 'ok' && !!s.effect?.screenChanged) ? 'a keypad key tried only in one state (it may have nothing to change there: "0" or "±" on a display reading 0)' : null;
    const why = nc ?? offPage ?? nothing ?? needsInput ?? canvasAnswered ?? oneState;
    if (why) {
      quiet.push(`${t.role} "${t.name || t.tag}" (${why})`);
      continue;
    }
    failing.add(sig);
    // the same named control under another signature (its classes changed) is one dead control, not two
    if (named && deadNames.has(nameKey(t))) continue;
    if (named) deadNames.add(nameKey(t));
    dead++;
    const c = isCore(t.name);
    const primary = t.role === 'button' || t.tag === 'button';
    d13.push({
      code: 'dead-control',
      severity: c ? 'critical' : 'minor',
      dimension: 'functionality',
      title: `Dead ${primary ? 'button' : 'control'} "${t.name || t.tag}"`,
      detail: `Clicked ${tries.length} times; nothing visible changed (no DOM change, no pixel change beyond the page's own animation, no dialog or navigation).${c ? ` It serves the brief's core action "${conceptOfControl(t.name)}", which this control does not perform.` : ' A secondary control (not named by the brief).'}`,
      rubricItem: '13',
      points: c ? 3 : primary ? 0.5 : 0.5,
      cap: c ? undefined : 'dead-controls',
      phase: 'interaction',
      evidence: { step: tries[tries.length - 1]!.index, screenshot: tries[tries.length - 1]!.screenshotAfter ?? undefined },
    });
  }

  // nothing the user clicks works: "all buttons dead on an otherwise complete page → about 3–4, not 1"
  // (METHOD.md §9): one critical −4 in place of the per-control deductions; a page where any control
  // works — by click or by key — is not in this case
  const clicks = [...byTarget.keys()];
  // keys, drags and typing that changed the app show it works too (issue 11: a snake steered by arrows
  // works); the keys count as one responding control in the tally
  // (a checkbox ticked or an option chosen that changed the page is a control that works as well)
  const worksOtherwise = steps.filter((s) => ['hold', 'press', 'drag', 'fill', 'check', 'select'].includes(s.action.kind) && s.outcome === 'ok' && !!s.effect?.screenChanged);
  if (worksOtherwise.some((s) => s.action.kind === 'hold' || s.action.kind === 'press')) working++;
  const failedControls = dead + [...erroredTargets].filter((sig) => sig && !byTarget.get(sig)?.some((t) => t.effect!.screenChanged)).length;
  // "none works" is a claim about the page's controls, not about the one that was tried: with a single failing
  // control it needs nothing else left to try (a one-button page); controls never tried, or tried without a
  // measured effect, are untested, not broken (a to-do page whose Add is dead, and whose filters the run did
  // not get to measure, has a dead Add button — not "no control works")
  const untried = (f.ev.interaction?.untested.length ?? 0) + new Set(steps.filter((s) => s.action.kind === 'click' && s.action.target && !byTarget.has(s.action.target.signature) && !erroredTargets.has(s.action.target.signature)).map((s) => s.action.target!.signature)).size;
  if (clicks.length > 0 && working === 0 && !worksOtherwise.length && failedControls > 0 && (failedControls >= 2 || untried === 0) && !libMissing) {
    for (const d of [...d13, ...d3]) if (d.code === 'dead-control' || d.code === 'interaction-error' || d.code === 'core-feature-error') d.points = 0;
    d3.push({ code: 'no-control-works', severity: 'critical', dimension: 'functionality', title: 'No control works', detail: `None of the ${clicks.length} control(s) exercised responded (${failedControls} dead or throwing after well-formed tries): the app's core does not work.`, rubricItem: '3', points: 4, phase: 'interaction', evidence: { step: steps.find((s) => s.action.kind === 'click')?.index } });
  }
  const tally: FeatureTally[] = tallyFeatures(features, steps, [...new Map([...(inv?.interactive ?? []).map((e) => [e.signature, { signature: e.signature, name: e.name, role: e.role }] as const), ...steps.filter((s) => s.action.target).map((s) => [s.action.target!.signature, { signature: s.action.target!.signature, name: s.action.target!.name, role: s.action.target!.role }] as const)]).values()], failing);

  // game keys that never change a still screen
  if (tr.gameLike) {
    const keys = steps.filter((s) => (s.action.kind === 'hold' || s.action.kind === 'press') && !s.action.target && s.outcome === 'ok' && s.effect);
    // only a screen where nothing moved at all can show that keys do nothing: on a page that animates by
    // itself (a snake crawling a few cells), small key effects hide in its own motion — not assessed
    const still = (f.ev.static?.animatedShare ?? 0) < 0.005 && keys.every((s) => s.effect!.pixelChange < 0.0005);
    // only a page that listens for keys claims keyboard control (an autonomous canvas animation does not)
    const listens = !!f.ev.static?.inventory?.listenedEvents.some((e) => /^key/.test(e));
    // and only a brief or page that speaks of a game or of keys claims the keys tried (arrows, WASD, Space,
    // Enter): a calculator that listens for digit keys, or a p5.js visualization (p5 listens for keys on every
    // sketch) of a spanning tree, is not broken because the arrows do nothing — a large canvas is no claim
    // (a page that documents keys of its own, "press 1–9", claims those, not the arrows tried)
    const said = `${f.ev.task.query.prompt}\n${f.ev.static?.inventory?.textSample ?? ''}`;
    const claimsKeys = TRIED_KEYS.test(said) || (GAME_WORDS.test(said) && !OTHER_KEYS.test(said));
    // and a game that was moving by itself earlier in the trace and is still now has stopped on its own (a
    // snake that hit the wall while the tester focused the board): its game-over screen ignores keys by design
    const movedBefore = keys.length > 0 && steps.some((s) => s.index < keys[0]!.index && !!s.effect?.baseline && (s.effect.baseline.regions > 0 || s.effect.baseline.mutations > 0));
    if (keys.length >= 4 && still && listens && claimsKeys && !movedBefore && !libMissing && keys.every((s) => !s.effect!.screenChanged)) {
      d13.push({ code: 'keys-dead', severity: 'major', dimension: 'functionality', title: 'Keys do nothing', detail: `${keys.length} key presses/holds (${keys.map((s) => s.action.key).join(', ')}) changed nothing on a still screen.`, rubricItem: '13', points: 1, phase: 'interaction', evidence: { step: keys[keys.length - 1]!.index, screenshot: keys[keys.length - 1]!.screenshotAfter ?? undefined } });
    }
  }

  // placeholder handlers: the only effect of a control is an alert — unless the alert states why there is
  // nothing to do yet ("No saved list selected.", "Please enter a name"): a working app's empty-state or
  // validation message, which a careful tester does not call a placeholder
  const alertOnly = steps.filter((s) => s.dialogs.some((d) => d.type === 'alert' && !STATE_MESSAGE.test(d.message)) && s.effect && s.effect.domMutations === 0 && s.action.target);
  if (alertOnly.length >= 2) {
    d14.push({ code: 'placeholder-handlers', severity: 'major', dimension: 'functionality', title: 'Placeholder handlers', detail: `${alertOnly.length} controls only pop up an alert ("${alertOnly[0]!.dialogs[0]!.message.slice(0, 80)}") and change nothing.`, rubricItem: '14', points: 1, cap: 'placeholders', phase: 'interaction', evidence: { step: alertOnly[0]!.index } });
  }
  const offApp = steps.filter((s) => s.navigations.some((n) => n.offApp));
  if (offApp.length) {
    d14.push({ code: 'leaves-app', severity: 'minor', dimension: 'functionality', title: 'Control leaves the app', detail: `${label(offApp[0]!)} opened ${offApp[0]!.navigations.find((n) => n.offApp)!.url} outside the app.`, rubricItem: '14', points: 0.5, phase: 'interaction', evidence: { step: offApp[0]!.index } });
  }

  const acted = steps.filter((s) => s.outcome === 'ok' && s.effect);
  const withEffect = acted.filter((s) => s.effect!.screenChanged).length;
  return [
    { verdict: verdict('3', d3.length ? 'fail' : 'not-assessed', m3, d3.length ? d3.map((d) => d.title).join('; ') : `no broken behaviour in ${acted.length} actions; correctness against the brief needs a model-backed judge`), defects: d3 },
    {
      verdict: verdict(
        '3a',
        tally.some((t) => t.status === 'failing') || (!features.length && (dead || d3.length)) ? 'fail' : tally.length || working ? 'pass' : 'not-assessed',
        "tally of the brief's features (core actions read from the query in its language) against the controls that serve them, by accessible name",
        `${tally.length ? `brief features: ${tally.filter((t) => t.status === 'working').length} found and working, ${tally.filter((t) => t.status === 'failing').length} found and failing, ${tally.filter((t) => t.status === 'untested').length} found but not exercised, ${tally.filter((t) => t.status === 'not-found').length} not found — ${tally.map((t) => `${t.feature}: ${t.status}${t.control ? ` (${t.control})` : ''}`).join('; ')}` : 'the brief names no action to tally'}; controls: ${working} responded, ${dead} dead, ${thrownBy.size} error(s) on use, ${tr.untested.length} untested (not counted)${quiet.length ? `; without effect but not dead: ${quiet.join(', ')}` : ''}`,
      ),
      defects: [],
      features: tally,
    },
    {
      verdict: verdict('13', d13.length ? 'fail' : exemptDead ? 'exempt' : acted.length ? 'pass' : 'not-assessed', m13, `${withEffect}/${acted.length} actions had a visible effect${exemptDead ? `; ${exemptDead} control(s) without effect not counted: ${f.cdnScriptsMissing[0]} could not be loaded offline` : ''}`),
      defects: d13,
    },
    { verdict: verdict('14', d14.length ? 'fail' : hang ? 'fail' : acted.length ? 'pass' : 'not-assessed', m14, d14.length ? d14.map((d) => d.title).join('; ') : hang ? 'the page froze' : 'no placeholder handlers or off-app navigation'), defects: d14 },
  ];
}
