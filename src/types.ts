/**
 * Cookie's public types, in one place.
 *
 * The pipeline (Cookie-Bench paper §4.1, Figure 3; ../shared/docs/METHOD.md §2):
 *   deploy → static perception → agent-driven interaction → dynamic scoring → report.
 * Evidence types (`Evidence`, `StaticPerception`, `InteractionTrace`) are produced by the first three
 * stages and never contain a verdict; `Judgement` is produced by the judge from finished evidence only.
 *
 * Units: times in ms, sizes in CSS px, scores on the 0–8 scale (suffix `8`) or 0–100 (no suffix).
 */

// ───────────────────────────── queries and candidates ─────────────────────────────

/** Page type of a query (paper §3, Table 4: L1 "Static web pages" | "Dynamic web pages"). */
export type QueryKind = 'static' | 'dynamic';

/**
 * A user's brief: what the candidate was asked to build. Reference-free: no expected output.
 * `language` is an ISO 639-1 code (`zh`, `en`, …), normalised from either a code or a Cookie-Bench
 * English name (`Chinese`); `languageLabel` keeps the label as written.
 */
export interface Query {
  id: string;
  prompt: string;
  language: string;
  languageLabel: string;
  kind: QueryKind;
  /** L2 domain (paper Table 4), e.g. "Browser Games". */
  category?: string;
  /** L3 leaf (paper Table 5), e.g. "Action & Reflex". */
  leaf?: string;
  /** Easy | Medium | Medium-Hard | Hard (paper §3.3). */
  difficulty?: string;
}

/** How a candidate is deployed: one HTML file / static folder, or a Vite/React project. */
export type CandidateMode = 'html' | 'react';

/** Pass thresholds on the 0–100 scale; an evaluation passes when every given score is ≥ its threshold. */
export interface Thresholds {
  functionality?: number;
  aesthetics?: number;
  total?: number;
}

/**
 * One model's answer to a query, as a spec declares it. `path` is a file or a folder, relative to the
 * spec file or absolute, and may contain `{data_id}` (replaced by the query id).
 */
export interface CandidateSpec {
  name: string;
  mode: CandidateMode;
  path: string;
  thresholds?: Thresholds;
  /** The status this candidate is expected to end with (default scored): e.g. `build-failed` for a known-broken project, so CI passes when it fails as expected. */
  expectStatus?: EvaluationStatus;
}

/**
 * A spec, as written in `*.cookie.yaml` or returned by `defineSpec` in `*.cookie.spec.ts`:
 * exactly one of `query` (inline) or `queries` (path of a Cookie-Bench JSONL file), plus candidates.
 */
export interface SpecInput {
  query?: {
    id: string;
    prompt: string;
    language: string;
    kind: QueryKind;
    category?: string;
    difficulty?: string;
  };
  queries?: string;
  /** Optional subset of query ids to evaluate from `queries`. */
  select?: string[];
  candidates: CandidateSpec[];
  thresholds?: Thresholds;
}

/** A spec after validation: its file, the queries it holds and its candidates. */
export interface Suite {
  file: string;
  queries: Query[];
  candidates: CandidateSpec[];
  thresholds: Thresholds;
}

/** One unit of work: a query × a candidate, with the candidate's artifact path resolved. */
export interface EvaluationTask {
  /** Stable id: `<queryId>/<candidate slug>`; also the evidence folder below `<outputDir>/evidence`. */
  id: string;
  suiteFile: string;
  query: Query;
  candidate: { name: string; mode: CandidateMode; artifactPath: string };
  thresholds: Thresholds;
  expectStatus?: EvaluationStatus;
}

// ───────────────────────────── evidence: deploy ─────────────────────────────

/** What the deploy stage produced: a URL on 127.0.0.1 and how it was served. */
export interface DeployEvidence {
  url: string;
  port: number;
  /** Folder served as the web root. */
  root: string;
  /** Path below the root that is the app's entry document. */
  entry: string;
  mode: CandidateMode;
  /** Install/build/serve steps of a project (command, ms, exit code). */
  steps?: { step: string; command: string; ms: number; code: number | null; sandbox?: string }[];
}

// ───────────────────────────── evidence: static perception ─────────────────────────────

/** A console message of type error, or an uncaught exception. `origin` says whose fault it can be. */
export interface ConsoleEntry {
  text: string;
  /** `app`: the page's own code; `environment`: caused by the harness (blocked network, favicon…). */
  origin: 'app' | 'environment';
  /** ms since the page was opened. */
  atMs: number;
  location?: string;
  /** Interaction step during which it happened (absent: during load / static perception). */
  step?: number;
}

/** A request that failed: blocked (non-localhost), network error, or an HTTP status ≥ 400. */
export interface FailedRequest {
  url: string;
  resourceType: string;
  /** HTTP status, or absent when the request never got a response. */
  status?: number;
  errorText?: string;
  /** True when Cookie blocked it because it left localhost. */
  blocked: boolean;
  atMs: number;
  step?: number;
}

/** An interactive element found in the DOM (CSS px, relative to the viewport at scan time). */
export interface InteractiveElement {
  /** Index within this scan. */
  ref: number;
  /** Stable signature (tag, role, name, nearest id/class) used to group repeated elements. */
  signature: string;
  tag: string;
  role: string;
  name: string;
  type?: string;
  href?: string;
  box: { x: number; y: number; width: number; height: number };
  /** True when the element lies (at least partly) inside the current viewport. */
  inViewport: boolean;
  disabled: boolean;
  /** Group of repeated elements (same tag/role/class shape); used to sample 3–5 of a kind. */
  group: string;
  /** Inside a <form>: the form's index in document order. */
  form?: number;
  /** Event types the page listens to on this element itself (click, pointerdown, …; `onclick` for a property handler). */
  handlers?: string[];
}

/** An image in the DOM and whether it loaded and fits its slot. */
export interface ImageInfo {
  src: string;
  loaded: boolean;
  naturalWidth: number;
  naturalHeight: number;
  width: number;
  height: number;
  /** Rendered aspect ratio / natural aspect ratio (1 = undistorted); object-fit other than fill counts as 1. */
  distortion: number;
  /** Share of the viewport area the image occupies at 1280 px (0–1): large images are hero images. */
  areaShare: number;
}

/** Structural inventory of the rendered interface at the default viewport (paper §4.1 Stage 1). */
export interface DomInventory {
  title: string;
  htmlLang: string;
  visibleTextLength: number;
  /** First ~4,000 characters of visible text, for language detection and the report. */
  textSample: string;
  headings: { level: number; text: string }[];
  interactive: InteractiveElement[];
  images: ImageInfo[];
  canvases: { width: number; height: number; areaShare: number }[];
  svgCount: number;
  videoCount: number;
  audioCount: number;
  formCount: number;
  /** Event types the page registered listeners for on window/document/body/canvas (keydown, …). */
  listenedEvents: string[];
  /** Styling signals for design refinement: custom fonts, radii, shadows, transitions, gradients. */
  style: StyleSignals;
  /** Elements whose text is cut off or overlaps another text element. */
  textProblems: TextProblem[];
  /** Distinct strings drawn on canvases with fillText/strokeText (first ~4,000 characters). */
  canvasText?: string;
  /** Alignment and spacing of visible content boxes (interface regularity). */
  layout?: { boxes: number; alignedShare: number; spacingValues: number[] };
  scrollHeight: number;
  /**
   * Text in the DOM a user cannot read (transparent, zero opacity, off-screen, clipped to a pixel, smaller
   * than 6 px, same colour as its background): kept out of `textSample` and the language check, recorded
   * here (issue 19.5). `reasons` counts text nodes per reason; `injection` is hidden text addressed to an
   * evaluator (an injection attempt; a model judge is told it is not UI).
   */
  hiddenText?: { sample: string; length: number; reasons: Record<string, number>; injection: { text: string; matched: string } | null };
  /** Built-ins the probe measures with that the page replaced so they answer differently (sabotage; the evaluation is then an error). */
  tampered?: string[];
}

/** Measured styling signals (counts over visible elements). */
export interface StyleSignals {
  fontFamilies: string[];
  /** True when body text uses the browser default serif font (raw HTML look). */
  defaultFont: boolean;
  distinctColors: number;
  distinctBackgrounds: number;
  roundedElements: number;
  shadowedElements: number;
  gradientElements: number;
  transitionElements: number;
  animatedElements: number;
  /** Distinct font sizes in px. */
  fontSizes: number[];
  elementCount: number;
}

/** A text element whose content is truncated (clipped without ellipsis), overflows or overlaps. */
export interface TextProblem {
  kind: 'clipped' | 'overlap' | 'garbled';
  selector: string;
  text: string;
}

/** Layout at one viewport width: screenshot, horizontal overflow, blank detection. */
export interface ViewportCheck {
  width: number;
  height: number;
  screenshot: string;
  /** document scrollWidth − viewport width, px (> 0: the page scrolls sideways). */
  overflowPx: number;
  /** Up to 5 elements sticking out past the right edge. */
  overflowingElements: { selector: string; right: number }[];
  blank: BlankCheck;
  /** Share (0–1) of the screenshot's pixels that differ from its dominant (background) colour. */
  contentShare: number;
  /** Text elements clipped or overlapping at this width. */
  clippedText?: number;
  /** Colour and composition of the screenshot. */
  colour?: { saturatedShare: number; hueFamilies: number; centroidX: number; centroidY: number; contentWidthShare: number };
}

/**
 * Blank-page test of the reference verifier (METHOD.md §9): luminance variance < 100, or fewer than
 * 10 colours with mean brightness > 240; Cookie also requires no visible text/canvas/image content.
 */
export interface BlankCheck {
  isBlank: boolean;
  variance: number;
  colours: number;
  meanBrightness: number;
}

/** Language of the visible text compared with the query's (rubric item 2a). */
export interface LanguageCheck {
  expected: string;
  /** ISO 639-1 of the detected language, or `und` when the text is too short to tell. */
  detected: string;
  /** Share (0–1) of visible letters written in the expected language's script(s). */
  expectedScriptShare: number;
  sampleLength: number;
  matches: boolean | null;
  method: string;
  /** `confident`: decided by enough text; `unsure`: franc could not tell (matches then rests on `<html lang>` or is null). */
  confidence?: 'confident' | 'unsure';
  /** Share (0–1) of the visible prose in another language or script than the query's (severity follows it). */
  affectedShare?: number;
  /** The page's `<html lang>` attribute, when present (a tie-breaker only). */
  htmlLang?: string;
}

/** A request to a public CDN answered from Cookie's offline copy of the library. */
export interface CdnRewrite {
  url: string;
  /** `package@version/file` that answered it. */
  servedFrom: string;
  /** True when the requested version was served. */
  exact: boolean;
  note?: string;
}

/** A dialog (alert/confirm/prompt/beforeunload) the page opened and how Cookie answered it. */
export interface DialogEvent {
  type: string;
  message: string;
  answer: 'accepted' | 'dismissed';
  atMs: number;
  step?: number;
}

/** The main document finished loading: ms since the session opened, and the interaction step in progress (undefined during load/perception). */
export interface DocumentLoad {
  atMs: number;
  step?: number;
}

/** A navigation of the main frame or a popup window. */
export interface NavigationEvent {
  kind: 'navigation' | 'popup';
  url: string;
  /** True when the target left the app's origin (Cookie returns to the app). */
  offApp: boolean;
  atMs: number;
  step?: number;
}

/** A colour-contrast or other accessibility violation found by axe-core. */
export interface AxeFinding {
  id: string;
  impact: string;
  nodes: number;
  help: string;
}

/** Everything Stage 1 saw without any user action. */
export interface StaticPerception {
  loadMs: number;
  /** True when the page reached load and then a quiet period within the settle limit. */
  settled: boolean;
  /** True when the main thread stopped answering during load (infinite loop). */
  unresponsive: boolean;
  /** Set when Cookie's in-page probe could not take the DOM inventory of a page that still answers (the cause). */
  probeError?: string;
  fullPageScreenshot: string | null;
  viewports: ViewportCheck[];
  inventory: DomInventory | null;
  language: LanguageCheck | null;
  axe: AxeFinding[] | null;
  /** Share (0–1) of the 1280-px viewport that changes between two shots 600 ms apart (animation). */
  animatedShare: number;
  /** DOM changes per second while nobody touches the page (clocks, tickers): the noise floor of DOM effects. */
  idleMutationsPerSec: number;
  /** Frames per second the page delivers while idle (a stalled main thread delivers few), and long (> 50 ms) frames. */
  frameTiming?: { fps: number; longFrames: number; longFrameMs: number; windowMs: number };
  /**
   * The machine's own frame capacity at this moment: frames per second of an empty page (a trivial
   * requestAnimationFrame loop before the app loads, same browser, same load on the machine). The judge
   * blames the app for slowness only beyond it.
   */
  machineFrameRate?: { fps: number; windowMs: number };
  /** What went wrong while perceiving, as evidence (time-outs, failed captures). */
  problems: string[];
}

// ───────────────────────────── evidence: interaction ─────────────────────────────

/** Kinds of action an agent may take (human-like input). */
export type ActionKind =
  | 'click'
  | 'fill'
  | 'select'
  | 'check'
  | 'press'
  | 'hold'
  | 'scroll'
  | 'hover'
  | 'wait'
  | 'back'
  | 'drag'
  | 'finish';

/** One action with its arguments. */
export interface Action {
  kind: ActionKind;
  /** Target element (from the scan at the step's start). */
  target?: { signature: string; name: string; role: string; tag: string; group: string; box: InteractiveElement['box'] };
  value?: string;
  key?: string;
  durationMs?: number;
  x?: number;
  y?: number;
  /** Drag destination, px. */
  toX?: number;
  toY?: number;
  deltaY?: number;
}

/** The visible effect of one action. */
export interface StepEffect {
  /** Share (0–1) of viewport pixels that differ after vs before. */
  pixelChange: number;
  /** Pixel change inside the target's box (0–1), when there is a target. */
  targetPixelChange: number | null;
  /** Pixel change outside the target and the previously focused field (0–1): what the action changed elsewhere. */
  outsidePixelChange?: number;
  /** DOM mutations observed during the step. */
  domMutations: number;
  scrolled: boolean;
  /** Visible: pixels outside the control changed beyond the page's own animation, the DOM changed beyond its idle churn, it scrolled, or a dialog/navigation/popup happened. */
  screenChanged: boolean;
}

/** One step of the interaction trace (paper §4.1 Stage 2: tool call, arguments, reasoning, timing). */
export interface TraceStep {
  index: number;
  action: Action;
  reasoning: string;
  /** Wall clock: when the action started and ended (ISO 8601); durationMs = end − start. */
  startedAt: string;
  endedAt?: string;
  durationMs: number;
  /** Where the action is in video.mp4 (ms from its start); null without video. */
  video?: { startMs: number; endMs: number } | null;
  /** How long the agent deliberated before this step (the app frozen meanwhile), ms. */
  thinkMs?: number;
  /** Tokens and cost of the deliberation (model-backed agents). */
  usage?: Usage;
  /** Frames per second while the action ran and its effects showed, and long frames meanwhile. */
  frameTiming?: { fps: number; longFrames: number; longFrameMs: number };
  screenshotBefore: string | null;
  screenshotAfter: string | null;
  effect: StepEffect | null;
  consoleErrors: ConsoleEntry[];
  pageErrors: ConsoleEntry[];
  dialogs: DialogEvent[];
  navigations: NavigationEvent[];
  outcome: 'ok' | 'failed' | 'timeout' | 'unresponsive';
  error?: string;
  /** Elements and text characters (non-space) in the body before and after the step: a page that destroys itself shows here. */
  content?: { before: { elements: number; textChars: number }; after: { elements: number; textChars: number } };
  /**
   * Set by the agent when an action without visible effect was expected to have none: `nothing-to-do`
   * (clear on an empty canvas, delete with nothing selected) or `off-page` (download, print, clipboard,
   * new tab). Such a step is never evidence of a dead control.
   */
  quietExpected?: { kind: 'nothing-to-do' | 'off-page'; reason: string };
}

/** The audio track of an interaction. */
export interface AudioEvidence {
  captured: boolean;
  /** Relative to the evidence folder. */
  file?: string;
  /** Where the audio starts in the video, ms. */
  offsetMs?: number;
  durationMs?: number;
  meanVolumeDb?: number | null;
  maxVolumeDb?: number | null;
  /** True when the audio is also muxed into video.mp4. */
  muxed?: boolean;
  /** What happened, in words (e.g. "the page played no audio"). */
  note: string;
}

/** Video and audio of the interaction (paper §4.1 "multi-modal capture"). */
export interface RecordingEvidence {
  /** video.mp4 in the evidence folder, or null with `videoNote` saying why. */
  video: { file: string; durationMs: number; fps: number; frames: number; width: number; height: number; repaints: number } | null;
  videoNote: string | null;
  audio: AudioEvidence | null;
  /** Whether the environment freeze was on. */
  freeze: boolean;
}

/** Tokens and cost of model calls (cost in USD from the configured price table; 0 when unpriced). */
export interface Usage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** The agent's neutral report: it documents, never scores (paper §4.1; METHOD.md §9). */
export interface AgentReport {
  actionsPerformed: string[];
  issuesFound: { feature: string; action: string; expected: string; actual: string }[];
  featuresTested: string[];
  featuresNotTested: string[];
  consoleErrors: string[];
  observation: string;
}

/** The behavioural trace of Stage 2 plus the agent's neutral summary (it documents, never scores). */
export interface InteractionTrace {
  agent: string;
  stepBudget: number;
  steps: TraceStep[];
  /** Why exploration ended: budget | exhausted | unresponsive | crashed | timeout | error. */
  endedBecause: string;
  /** Controls the agent saw but did not exercise (untested ≠ broken). */
  untested: string[];
  /** Groups of repeated elements and how many of each were sampled. */
  coverage: { group: string; seen: number; tried: number }[];
  /** True when the page treated keys (keydown listeners or canvas game). */
  gameLike: boolean;
  durationMs: number;
  recording?: RecordingEvidence;
  report?: AgentReport;
  usage?: Usage;
}

/** Facts about the environment of a run, so a result can be reproduced and harness faults told apart. */
export interface EnvironmentInfo {
  cookieVersion: string;
  browserVersion: string;
  webglRenderer: string | null;
  platform: string;
  node: string;
}

/**
 * All evidence of one evaluation, written to `<evidenceDir>/evidence.json` before any judging.
 * Screenshot paths are relative to the evidence folder.
 */
export interface Evidence {
  schemaVersion: 1;
  task: EvaluationTask;
  environment: EnvironmentInfo;
  deploy: DeployEvidence | null;
  static: StaticPerception | null;
  interaction: InteractionTrace | null;
  consoleErrors: ConsoleEntry[];
  pageErrors: ConsoleEntry[];
  failedRequests: FailedRequest[];
  dialogs: DialogEvent[];
  navigations: NavigationEvent[];
  /** Loads of the main document (ms since the session opened; step undefined during load/perception). */
  documentLoads?: DocumentLoad[];
  /** Entries not kept because a list was full (a page flooding the console), by kind. */
  dropped?: Record<string, number>;
  /** Offline CDN: requests answered from local copies, and CDN requests left unresolved (blocked). */
  cdn?: { rewrites: CdnRewrite[]; unresolved: string[] };
  /** Stages that could not run to completion and why (time-outs, crashes of the harness). */
  stageErrors: { stage: Stage; message: string }[];
}

// ───────────────────────────── judgement ─────────────────────────────

/** Defect severity (paper §4.1 Stage 3; deduction sizes METHOD.md §9). */
export type Severity = 'critical' | 'major' | 'minor';
/** The two scored dimensions (paper §4.2). */
export type Dimension = 'functionality' | 'aesthetics';

/** A defect: what failed, where it showed, why it is a defect, with evidence (failure attribution). */
export interface Defect {
  /**
   * Stable machine-readable kind of defect (kebab-case, e.g. `dead-control`, `language-mismatch`,
   * `page-error`): tests and reporters match this, never the title. Model-judge defects carry
   * `model-<dimension>` unless mapped to a known code.
   */
  code: string;
  severity: Severity;
  dimension: Dimension;
  title: string;
  detail: string;
  /** Rubric item id (METHOD.md §4) this defect falls under. */
  rubricItem: string;
  /** Points deducted on the 0–8 scale (0 when absorbed by the no-double-penalty rule or a cap). */
  deduction: number;
  /** Where it showed: `static` (Stage 1) or `interaction` (Stage 2). */
  phase: 'static' | 'interaction';
  evidence: { step?: number; screenshot?: string; viewport?: number; excerpt?: string };
}

/** Verdict on one rubric item (METHOD.md §4): decided by a named method, or not assessed with reason. */
export interface RubricVerdict {
  id: string;
  name: string;
  dimension: Dimension;
  verdict: 'pass' | 'fail' | 'not-assessed' | 'exempt';
  method: string;
  reason: string;
}

/** Scores on 0–100; total is the mean of functionality and aesthetics. */
export interface Scores {
  functionality: number;
  aesthetics: number;
  total: number;
}

/** Scores on the paper's 0–8 scale. */
export interface Scores8 {
  functionality: number;
  aesthetics: number;
}

/** What the judge concluded from finished evidence. */
export interface Judgement {
  judge: string;
  /** Provisional Stage-1 scores (0–8) from static perception alone. */
  static8: Scores8;
  /** Final scores (0–8) after the dynamic adjustment. */
  final8: Scores8;
  scores: Scores;
  defects: Defect[];
  rubric: RubricVerdict[];
  /** How the static scores were adjusted, in words (baseline, bonuses, deductions). */
  reasons: string[];
  /**
   * Rubric item 3a (offline judge): the brief's core features read from the query, and for each the
   * control taken for it and whether it worked (`working` | `failing` | `untested` | `not-found`).
   */
  features?: { feature: string; status: 'working' | 'failing' | 'untested' | 'not-found'; control?: string }[];
  /**
   * Set when the evidence cannot be fairly scored because of the environment, not the app (e.g. the page
   * stays blank because a CDN library could not be loaded offline). The result is then status `error`.
   */
  unscorable?: string | null;
  /** Model-backed judges: each stage's prompt hash, model and token usage/cost. */
  stages?: JudgeStage[];
  /** Tokens and cost of all judge stages. */
  usage?: Usage;
  /** The ablation switches in force (paper §5.2). */
  ablation?: { vision: boolean; video: boolean; staticScore: boolean; deferredScoring: boolean };
}

/** One stage of a model-backed judge, for reproducibility and cost accounting. */
export interface JudgeStage {
  name: 'static' | 'problems' | 'adjust' | 'reactive';
  prompt: string;
  promptHash: string;
  model: string;
  usage: Usage;
  /** Malformed replies retried before a valid one (or the failure). */
  retries: number;
}

// ───────────────────────────── results ─────────────────────────────

/** Pipeline stages, for timings and error attribution. */
export type Stage = 'load' | 'deploy' | 'perceive' | 'interact' | 'judge' | 'report';

/** Outcome of one evaluation. `build-failed` is the candidate's fault; `error` is a stage that failed. */
export type EvaluationStatus = 'scored' | 'build-failed' | 'error';

/** One query × candidate result, as stored in results.json. */
export interface EvaluationResult {
  id: string;
  queryId: string;
  candidate: string;
  mode: CandidateMode;
  suiteFile: string;
  artifactPath: string;
  status: EvaluationStatus;
  error?: { stage: Stage; message: string };
  /** 0–100, null when not scored. */
  scores: Scores | null;
  static8: Scores8 | null;
  final8: Scores8 | null;
  defects: Defect[];
  rubric: RubricVerdict[];
  reasons: string[];
  thresholds: Thresholds;
  /** Expected status when it is not `scored` (see CandidateSpec.expectStatus). */
  expectStatus?: EvaluationStatus;
  /** Scored and every threshold met — or ended with the expected status. */
  passed: boolean;
  /** Per-stage wall time, ms. */
  timings: Partial<Record<Stage | 'total', number>>;
  /** Tokens and cost of model calls (model-backed agent), summed over the evaluation. */
  usage?: Usage;
  /** For status build-failed: the failing step, the recognised cause and the tail of its log. */
  build?: { step: string; cause: string; summary: string; logTail: string };
  /** Tokens and cost of the model-backed judge, per stage (with each prompt's hash). */
  judgeStages?: JudgeStage[];
  /** The ablation switches in force (paper §5.2). */
  ablation?: { vision: boolean; video: boolean; staticScore: boolean; deferredScoring: boolean };
  /** Evidence folder relative to the output dir (screenshots, evidence.json, trace.json). */
  evidenceDir: string;
  query: { prompt: string; language: string; kind: QueryKind; category?: string; difficulty?: string };
  finishedAt: string;
  /** True when this result was reused from the cache (its files unchanged), not evaluated again. */
  cached?: boolean;
  /** Cache key: a hash of the artifact's files, the query, the agent/judge settings and the prompt versions. */
  cacheKey?: string;
}

/** The whole results file (`<outputDir>/results.json`), rewritten atomically after each evaluation. */
export interface RunResults {
  schemaVersion: 1;
  cookieVersion: string;
  browserVersion: string;
  startedAt: string;
  finishedAt: string | null;
  config: unknown;
  environment: EnvironmentInfo | null;
  evaluations: EvaluationResult[];
}

// ───────────────────────────── reporters ─────────────────────────────

/** What a reporter is told when a run starts. */
export interface RunStartInfo {
  tasks: EvaluationTask[];
  outputDir: string;
  config: unknown;
}

/**
 * A pluggable reporter (Vitest/Playwright style): every hook is optional and may be async.
 * Reporters are created by name from the registry in `reporters/index.ts`.
 */
export interface Reporter {
  onRunStart?(info: RunStartInfo): void | Promise<void>;
  onEvaluationStart?(task: EvaluationTask): void | Promise<void>;
  onStageStart?(task: EvaluationTask, stage: Stage): void | Promise<void>;
  onEvaluationEnd?(result: EvaluationResult): void | Promise<void>;
  onRunEnd?(run: RunResults, outputDir: string): void | Promise<void>;
  /** A spec or config problem that stopped part of the run (one line). */
  onError?(message: string): void | Promise<void>;
}
