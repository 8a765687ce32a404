import type { Defect, Evidence, Judgement, RubricVerdict, Scores8, TraceStep } from '../../types.js';
import { RUBRIC, to100 } from '../rubric.js';
import { aestheticsBaseline } from './baseline.js';
import { invariantChecks } from './invariants.js';
import {
  brokenByError,
  CAPS,
  codeRenders,
  colour,
  consoleErrors,
  dataDisplay,
  errorKey,
  facts,
  images,
  intentAlignment,
  interactionChecks,
  isEnvironmentError,
  languageConsistency,
  layout,
  media,
  nothingInDom,
  refinementVerdict,
  regularity,
  responsive,
  smoothness,
  transitions,
  type CheckResult,
  type DraftDefect,
} from './checks.js';

/** Name of this judge in results. */
export const OFFLINE_JUDGE = 'offline-rubric';

/**
 * Apply cap groups and turn draft defects into defects with their actual deduction (0–8 scale).
 * Within a cap group, deductions are taken in order (most severe first) until the ceiling is reached;
 * defects past it stay listed with deduction 0.
 */
export function applyCaps(drafts: DraftDefect[]): Defect[] {
  const used = new Map<string, number>();
  const order = { critical: 0, major: 1, minor: 2 } as const;
  const sorted = [...drafts].sort((a, b) => order[a.severity] - order[b.severity] || b.points - a.points);
  return sorted.map(({ points, cap, ...d }) => {
    let deduction = points;
    if (cap && CAPS[cap] !== undefined) {
      const u = used.get(cap) ?? 0;
      deduction = Math.max(0, Math.min(points, CAPS[cap]! - u));
      used.set(cap, u + deduction);
    }
    return { ...d, deduction };
  });
}

function sum(defects: Defect[], dim: Defect['dimension'], phase?: Defect['phase']): number {
  return defects.filter((d) => d.dimension === dim && (!phase || d.phase === phase)).reduce((s, d) => s + d.deduction, 0);
}

const clamp = (x: number) => Math.max(0, Math.min(8, Math.round(x * 100) / 100));

/** The paper's ablation switches; all on = the full pipeline. */
export interface AblationSwitches {
  vision: boolean;
  video: boolean;
  staticScore: boolean;
  deferredScoring: boolean;
}
/** The full pipeline. */
export const FULL: AblationSwitches = { vision: true, video: true, staticScore: true, deferredScoring: true };

/** Evidence as an ablation lets the judge see it. */
function ablate(ev: Evidence, a: AblationSwitches): Evidence {
  let out = ev;
  if (!a.video) out = { ...out, interaction: null };
  if (!a.vision && out.static) {
    // source only: no screenshots and nothing measured from pixels
    const st = out.static;
    out = {
      ...out,
      static: {
        ...st,
        animatedShare: 0,
        viewports: st.viewports.map((v) => ({ ...v, blank: { ...v.blank, isBlank: false }, contentShare: 0.5, colour: undefined })),
      },
      interaction: out.interaction && {
        ...out.interaction,
        steps: out.interaction.steps.map((s): TraceStep => (s.effect ? { ...s, effect: { ...s.effect, pixelChange: 0, outsidePixelChange: 0, targetPixelChange: null, screenChanged: s.effect.domMutations > 0 || s.effect.scrolled || s.dialogs.length > 0 || s.navigations.length > 0 } } : s)),
      },
    };
  }
  return out;
}

/**
 * The offline rubric judge (Stage 1 provisional scores + Stage 3 dynamic scoring, paper §4.1; METHOD.md
 * §2.4, §4, §9). Reads only finished evidence — never a browser — so it can be re-run on stored evidence.
 *
 * Static (provisional) scores, 0–8: functionality starts at 8 (completeness against the brief cannot be
 * verified offline, so only measured defects lower it); aesthetics starts at the styling baseline 0/1/3/5
 * plus up to +3 bonus. Static defects are deducted (critical ≥ 2, major 1, minor 0.5; crash or blank
 * forces functionality ≤ 0.5 and aesthetics 0).
 * Dynamic adjustment: interaction defects are deducted from the static scores with the rules no double
 * penalty (an error counted at load is not counted again; a control that threw is not also "dead"),
 * untested ≠ broken (only exercised controls can be defects), a control is dead only after two tries,
 * final functionality = min(static, adjusted), and a rendered page keeps ≥ 1.0 on both dimensions.
 * Ablations (paper §5.2) change exactly the paper's variants: vision (DOM evidence only), video (no
 * interaction evidence), staticScore (no Stage-1 prior, no min rule), deferredScoring (the verdict after the
 * last step alone, with no second tries).
 * @param minTries silent tries before a control counts as dead (internal: 1 for reactive scoring)
 */
export function judgeOffline(input: Evidence, ablation: AblationSwitches = FULL, minTries = 2): Judgement {
  if (!ablation.deferredScoring && input.interaction && input.interaction.steps.length > 1) {
    // reactive scoring: a verdict after every step from the static evidence and that step alone; the last
    // stands (a control is "dead" after one silent try, since a reactive judge cannot wait for the second)
    const last = input.interaction.steps[input.interaction.steps.length - 1]!;
    const j = judgeOffline({ ...input, interaction: { ...input.interaction, steps: [last] } }, { ...ablation, deferredScoring: true }, 1);
    return { ...j, ablation, reasons: [...j.reasons, `Reactive scoring (ablation deferredScoring: false): the verdict after the last of ${input.interaction.steps.length} steps stands.`] };
  }
  const ev = ablate(input, ablation);
  const f = facts(ev);
  if (!ablation.vision) {
    f.blank = nothingInDom(ev.static?.inventory ?? null);
    f.rendered = f.rendered && !f.blank;
  }
  const reasons: string[] = [];
  const staticChecks: CheckResult[] = [
    codeRenders(f),
    intentAlignment(f),
    languageConsistency(f),
    dataDisplay(f),
    consoleErrors(f),
    responsive(f),
    layout(f),
    regularity(f),
    colour(f),
    smoothness(f),
    transitions(f),
    images(f),
    media(f),
    ...[brokenByError(f)].filter((c): c is CheckResult => !!c),
  ];
  const staticErrorKeys = new Set(
    [...ev.pageErrors, ...ev.consoleErrors].filter((e) => e.step === undefined && !isEnvironmentError(e, f)).map((e) => errorKey(e.text)),
  );
  const dynamicChecks = [...interactionChecks(f, staticErrorKeys, minTries), ...(f.rendered && ev.interaction ? [invariantChecks(ev)] : [])];
  const features = dynamicChecks.find((c) => c.features)?.features;
  const inj = ev.static?.inventory?.hiddenText?.injection;
  if (inj) reasons.push(`Injection attempt: the page hides text addressed to an evaluator ("${inj.text.slice(0, 120)}"); it is not part of the UI and was not read as such.`);

  const base = ev.static ? aestheticsBaseline(ev.static) : { tier: 0, bonus: 0, signals: 'no static perception', bonuses: [] };
  const defects = applyCaps([...staticChecks, ...dynamicChecks].flatMap((c) => c.defects));

  // ── Stage 1: provisional static scores ──
  let staticF: number;
  let staticA: number;
  if (!f.rendered) {
    staticF = f.blank && !f.unresponsiveAtLoad && !f.entryFailed ? 0.5 : 0;
    staticA = 0;
    reasons.push(`Does not render (${defects[0]?.title ?? 'no evidence'}): functionality ${staticF}, aesthetics 0 (blank-screen rule).`);
  } else {
    const fd = sum(defects, 'functionality', 'static');
    const ad = sum(defects, 'aesthetics', 'static');
    staticF = clamp(8 - fd);
    staticA = clamp(base.tier + base.bonus - ad);
    reasons.push(`Functionality baseline 8 (renders; completeness vs the brief not verifiable offline) − ${fd} static deductions = ${staticF}.`);
    reasons.push(`Aesthetics baseline ${base.tier} (${base.signals})${base.bonus ? ` + ${base.bonus} bonus (${base.bonuses.join(', ')})` : ''} − ${ad} static deductions = ${staticA}.`);
  }

  // ── Stage 3: adjustment by interaction evidence ──
  let finalF = staticF;
  let finalA = staticA;
  if (f.rendered) {
    const fdi = sum(defects, 'functionality', 'interaction');
    const adi = sum(defects, 'aesthetics', 'interaction');
    finalF = Math.min(staticF, clamp(staticF - fdi));
    finalA = clamp(staticA - adi);
    finalF = Math.max(1, finalF);
    finalA = Math.max(1, finalA);
    if (fdi || adi) reasons.push(`Interaction: −${fdi} functionality, −${adi} aesthetics from defects seen while using the app.`);
    else if (ev.interaction) reasons.push(`Interaction: ${ev.interaction.steps.length} steps found no new defect; static scores stand (interaction can only lower functionality).`);
    const cut = ev.stageErrors.find((e) => e.stage === 'interact');
    if (cut) reasons.push(`Interaction incomplete (${cut.message}): functionality rests on the static estimate for what was not tried.`);
    if (ev.interaction?.untested.length) reasons.push(`${ev.interaction.untested.length} control(s) untested: not counted as broken.`);
  }

  // one verdict per item: a failure anywhere fails the item (reasons joined)
  const byId = new Map<string, RubricVerdict>();
  for (const c of [...staticChecks, ...dynamicChecks]) {
    const prev = byId.get(c.verdict.id);
    if (!prev) byId.set(c.verdict.id, c.verdict);
    else if (c.verdict.verdict === 'fail' && prev.verdict !== 'fail') byId.set(c.verdict.id, { ...c.verdict, reason: `${c.verdict.reason}; ${prev.reason}` });
    else if (c.verdict.verdict === 'fail' && prev.verdict === 'fail') byId.set(c.verdict.id, { ...prev, method: `${prev.method}; ${c.verdict.method}`, reason: `${prev.reason}; ${c.verdict.reason}` });
  }
  byId.set('10', refinementVerdict(f.rendered ? base.tier : 0, base.signals));
  const rubric = RUBRIC.map((item) => byId.get(item.id)!).filter(Boolean);

  if (f.cdnStylesMissing.length) reasons.push(`Aesthetics may be understated: ${f.cdnStylesMissing.length} stylesheet(s)/font(s) from public CDNs could not be loaded offline (${f.cdnStylesMissing[0]}).`);
  if (f.cdnScriptsSubstituted.length) reasons.push(`Environment: ${f.cdnScriptsSubstituted.length} library script(s) were served offline in another version than the page asked for (${f.cdnScriptsSubstituted[0]}); errors a version mismatch raises are not blamed on the app.`);
  if (f.cdnScriptsMissing.length) reasons.push(`Environment: ${f.cdnScriptsMissing.length} library script(s) from public CDNs could not be loaded offline (${f.cdnScriptsMissing[0]}); effects that depend on them are not blamed on the app.`);
  // no view of the page was captured although it answered and nothing shows it blank (every capture of a page that
  // replaces its document under each call, on a loaded machine): whether it renders was not assessed, and a
  // score of 0 for "does not render" would blame the app for what Cookie could not see
  const unseen = !!ev.static && !f.vpDefault && !f.blank && !f.unresponsiveAtLoad && !f.entryFailed;
  const unscorable =
    !f.rendered && f.blank && f.cdnScriptsMissing.length
      ? `the page did not render without library script(s) that could not be loaded offline: ${f.cdnScriptsMissing.slice(0, 3).join(', ')}`
      : unseen
        ? `static perception captured no view of the page, so whether it renders was not assessed (${ev.static!.problems.slice(0, 3).join('; ') || 'no capture problem recorded'})`
        : null;

  if (!ablation.staticScore) {
    // no Stage-1 prior: one score from all the evidence; the min(static, adjusted) rule has nothing to hold
    finalF = f.rendered ? Math.max(1, clamp(8 - sum(defects, 'functionality'))) : finalF;
    reasons.push('Ablation staticScore: false — no Stage-1 prior: one score from all the evidence.');
  }
  if (!ablation.vision) reasons.push('Ablation vision: false — source and DOM only: nothing measured from pixels.');
  if (!ablation.video) reasons.push('Ablation video: false — one screenshot, no interaction evidence.');
  const final8: Scores8 = { functionality: clamp(finalF), aesthetics: clamp(finalA) };
  const F = to100(final8.functionality);
  const A = to100(final8.aesthetics);
  return {
    judge: OFFLINE_JUDGE,
    static8: { functionality: clamp(staticF), aesthetics: clamp(staticA) },
    final8,
    scores: { functionality: F, aesthetics: A, total: Math.round(((F + A) / 2) * 10) / 10 },
    defects,
    rubric,
    reasons,
    ...(features ? { features } : {}),
    unscorable,
    ablation,
  };
}
