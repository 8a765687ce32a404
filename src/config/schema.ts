import os from 'node:os';
import path from 'node:path';
import { z } from '../vendor/zod.js';
import { FLAG_LIMITS } from './limits.js';
import { defaultChromium } from '../util/chromium.js';
import { DEFAULT_HOST, hostProblem, isLoopbackHost, publicUrlProblem } from '../util/public-url.js';

/**
 * The zod schema of `cookie.config.ts` (Vitest style: an all-optional user config resolved once into
 * a complete `ResolvedConfig`). Every field has a default, so no config file is needed.
 * Units: ms for timeouts, px for viewports, 0–100 for thresholds.
 */

const viewport = z.object({
  width: z.number().int().min(200).max(4000),
  height: z.number().int().min(200).max(4000),
});

const thresholds = z
  .object({
    functionality: z.number().min(0).max(100).optional(),
    aesthetics: z.number().min(0).max(100).optional(),
    total: z.number().min(0).max(100).optional(),
  })
  .strict();

/**
 * A model endpoint: OpenAI-compatible chat completions (hosted, vLLM, Ollama, llama.cpp) or the Anthropic
 * Messages API. The key comes from `apiKey`, else the variable `apiKeyEnv`, else OPENAI_API_KEY /
 * ANTHROPIC_API_KEY / COOKIE_API_KEY; it is never written to results or logs.
 */
export const modelSchema = z
  .object({
    provider: z.enum(['openai', 'anthropic']),
    model: z.string().min(1),
    baseURL: z.string().url().optional(),
    apiKey: z.string().optional(),
    apiKeyEnv: z.string().optional(),
    temperature: z.number().min(0).max(2).default(0.2),
    maxTokens: z.number().int().positive().default(1024),
    timeoutMs: z.number().int().positive().default(120_000),
    /** Retries of 429/5xx/connection failures, with exponential back-off. */
    retries: z.number().int().min(0).max(10).default(5),
    /** First back-off, ms. */
    backoffMs: z.number().int().min(0).default(1000),
    /**
     * Agent only — how the agent talks to the model (README "Model agents"): `tools` (function calling, falls back
     * to `json` when the server rejects tools), `json` (strict JSON in text), `anthropic-computer-use`,
     * `openai-computer-use` (Responses API), `ui-tars` (Thought/Action text) or `qwen-vl` (`<tool_call>` text).
     * Unset: auto-detected from the provider and model name.
     */
    protocol: z.enum(['tools', 'json', 'anthropic-computer-use', 'openai-computer-use', 'ui-tars', 'qwen-vl']).optional(),
    /**
     * Agent only, screenshot-grounded protocols — the model's coordinate convention: `relative-1000` (0–1000 of the
     * screenshot; UI-TARS 1.0, Qwen3-VL), `pixels` (px of the screenshot as sent) or `smart-resize` (px of the
     * image as the Qwen2.5-VL / UI-TARS-1.5 processor resized it, 28-px grid). Default `relative-1000`.
     */
    coordinates: z.enum(['relative-1000', 'pixels', 'smart-resize']).optional(),
    /** Agent only — the computer tool's version: Anthropic `computer_20251124` (default) or `computer_20250124`; OpenAI `computer_use_preview` (default) or `computer`. */
    computerTool: z.enum(['computer_20251124', 'computer_20250124', 'computer_use_preview', 'computer']).optional(),
    /** Agent only, OpenAI computer use — Cookie's safety-check policy: `acknowledge` (default; the app is contained, see README) or `stop` the exploration. Every check is recorded in the trace. */
    safetyChecks: z.enum(['acknowledge', 'stop']).optional(),
  })
  .strict();

/** Prices in USD per million tokens, by model name. */
const priceTable = z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0), /** Optional price of input tokens read from the provider's prompt cache (else the input price). */ cachedInput: z.number().min(0).optional() }).strict());

/** A plugin object given inline in the config (a reporter, an agent plugin or a judge plugin). */
const pluginObject = z.custom<object>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'is not a name, [name, options], a module path or a plugin object' });
/** A plugin entry (src/plugins/api.ts `PluginEntry`): a built-in name or module path, `[name, options]`, or the object. */
const pluginEntry = z.union([z.string().min(1), z.tuple([z.string().min(1), z.record(z.string(), z.unknown())]), pluginObject]);
const reporterEntry = pluginEntry;

/** Per-stage time limits in ms. */
const timeouts = z
  .object({
    /** Start serving the candidate (HTML). */
    deploy: z.number().int().positive().default(30_000),
    /** npm install of a project candidate. */
    install: z.number().int().positive().default(300_000),
    /** Its build script. */
    build: z.number().int().positive().default(180_000),
    /** Until a project's server answers over HTTP. */
    serve: z.number().int().positive().default(30_000),
    /** Navigation to the app (until `load`). Reference verifier: 15 s. */
    navigation: z.number().int().positive().default(15_000),
    /** Wait for the page to settle after load (network and DOM quiet). */
    settle: z.number().int().positive().default(8_000),
    /** Whole static-perception stage. */
    perceive: z.number().int().positive().default(90_000),
    /** One interaction step (action + effect capture). */
    step: z.number().int().positive().default(15_000),
    /** A page whose main thread does not answer within this is recorded as unresponsive. */
    unresponsive: z.number().int().positive().default(5_000),
    /** Whole interaction stage. */
    interact: z.number().int().positive().default(300_000),
    /** One deliberation of the agent (a model call; the app is frozen meanwhile). */
    think: z.number().int().positive().default(120_000),
    /** Judge stage. */
    judge: z.number().int().positive().default(60_000),
  })
  .strict();

/**
 * Where deployed apps listen and how the browser reaches them (issue 15 point 2; README "Where the browser runs").
 * Deploy and builds always stay on this machine; with a remote browser (`browser.wsEndpoint`/`cdpEndpoint`) on
 * another host or in a container, the app must be reachable from there.
 */
const deploySchema = z
  .object({
    /**
     * The interface the app's server binds — the static server, a project's build output server or the bridge to
     * its dev server — and the evaluation's fence proxy with it: an IP address. Default `127.0.0.1` (this machine
     * only). `0.0.0.0` (or `::`) binds every interface, e.g. for a browser in a container reaching this machine over
     * the container network: every candidate app, untrusted code, is then reachable by anything on that network
     * while it is evaluated (README "Security and containment"), so it is done only when configured, and only
     * together with `publicUrl`.
     */
    host: z.string().default(DEFAULT_HOST),
    /**
     * The origin the browser must use to reach a server of this machine, with `{port}` where its OS-assigned port
     * goes: `http://host.docker.internal:{port}` (a container), `http://192.168.1.20:{port}` (a LAN), or a tunnel
     * that routes by name, `https://{port}.tunnel.example`. The page is opened at this origin and the network
     * fence treats it — not the local URL — as the app's origin (everything else is refused and recorded); the
     * fence proxy is announced to the browser the same way with its own port. Evidence records both URLs
     * (`deploy.url` = the one opened, `deploy.localUrl`, `deploy.publicUrl`). Unset: the local URL
     * (`http://127.0.0.1:<port>`). Without a remote browser it is allowed (the local browser then goes through
     * that route, e.g. to test a tunnel), and the run says so.
     */
    publicUrl: z.string().optional(),
  })
  .strict()
  .superRefine((d, ctx) => {
    const h = hostProblem(d.host);
    if (h) ctx.addIssue({ code: 'custom', path: ['host'], message: h.problem, params: { fix: h.fix } });
    const p = d.publicUrl === undefined ? null : publicUrlProblem(d.publicUrl);
    if (p) ctx.addIssue({ code: 'custom', path: ['publicUrl'], message: p.problem, params: { fix: p.fix } });
    if (!h && !isLoopbackHost(d.host) && d.publicUrl === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['host'],
        message: `is ${d.host}, which exposes every candidate app on the network, but deploy.publicUrl is not set, so the browser opens the apps at 127.0.0.1 and nothing needs the exposure`,
        params: { fix: 'set deploy.publicUrl to the origin the browser reaches this machine by, e.g. http://host.docker.internal:{port}, or remove deploy.host (127.0.0.1 is enough for a browser on this machine)' },
      });
    }
  });

/** Schema of the user config (all optional). */
export const userConfigSchema = z
  .object({
    include: z.array(z.string()).default(['**/*.cookie.{yaml,yml}', '**/*.cookie.spec.ts']),
    exclude: z.array(z.string()).default(['**/node_modules/**', '**/.git/**', '**/cookie-results/**']),
    outputDir: z.string().default('cookie-results'),
    viewports: z
      .array(viewport)
      .min(1)
      .default([
        { width: 375, height: 812 },
        { width: 768, height: 1024 },
        { width: 1280, height: 800 },
      ]),
    agent: z
      .object({
        /** `offline`: the deterministic explorer; `model`: the model-backed computer-use agent (needs `model`). */
        kind: z.enum(['offline', 'model']).default('offline'),
        /** Another agent (overrides `kind`): a built-in name, `[name, options]`, an AgentPlugin object, or a module path resolved from the config file (src/plugins/api.ts). */
        use: pluginEntry.optional(),
        model: modelSchema.optional(),
        /** Step budget (reference verifier: 25). The offline explorer keeps 3 steps in reserve, so it acts at most `steps − 3` times. */
        steps: z.number().int().min(1).max(FLAG_LIMITS.steps).default(25),
        /** Seed for every random choice, so runs are reproducible. */
        seed: z.number().int().default(1),
        /** How long a game key is held, ms (reference verifier: 500–1000). */
        holdMs: z.number().int().min(50).max(5000).default(600),
        /** Environment freeze: pause the app while the agent observes and deliberates. */
        freeze: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    recording: z
      .object({
        /** Continuous H.264 video of the interaction (video.mp4). */
        video: z.boolean().default(true),
        /** Capture what the app plays (Web Audio, <audio>/<video>) and mux it into the video. */
        audio: z.boolean().default(true),
        /** Video frame rate (reference verifier: 15). */
        fps: z.number().int().min(5).max(60).default(15),
      })
      .strict()
      .prefault({}),
    judge: z
      .object({
        /** `offline`: the rubric judge on measured evidence; `model`: the three-stage model-backed judge (needs `model`). */
        kind: z.enum(['offline', 'model']).default('offline'),
        /** Another judge (overrides `kind`): a built-in name, `[name, options]`, a JudgePlugin object, or a module path resolved from the config file (src/plugins/api.ts). */
        use: pluginEntry.optional(),
        model: modelSchema.optional(),
        /** Final functionality: `min` = min(static, adjusted) (the reference verifier: interaction can only lower it), or `adjusted`. */
        finalFunctionality: z.enum(['min', 'adjusted']).default('min'),
        /** Most keyframes sampled from the video for the model judge (where the screen changed). */
        keyframes: z.number().int().min(0).max(32).default(8),
        /** Most characters of source sent to the model judge. */
        sourceChars: z.number().int().min(1000).max(400_000).default(60_000),
      })
      .strict()
      .prefault({}),
    /**
     * Ablations of the paper's §5.2 (Table 3), each changing exactly what the paper's variant changes:
     * vision false = source only (no screenshots or pixel evidence); video false = one screenshot, no
     * interaction evidence (the agent does not run); staticScore false = no Stage-1 prior; deferredScoring
     * false = score after every step, the last verdict stands.
     */
    ablation: z
      .object({
        vision: z.boolean().default(true),
        video: z.boolean().default(true),
        staticScore: z.boolean().default(true),
        deferredScoring: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    /**
     * Determinism of the page (issue 15 point 4): its `Math.random`/`crypto.getRandomValues` seeded per
     * evaluation (from agent.seed and the task id) and its `Date` starting at a fixed origin. Viewport,
     * DPR 1, locale en-US and timezone UTC are always pinned. Set either to false to give the page the
     * real randomness or the real time.
     */
    determinism: z
      .object({
        random: z.boolean().default(true),
        date: z.boolean().default(true),
        /** Where the page's clock starts (ISO 8601). */
        dateOrigin: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'is not an ISO 8601 date').default('2026-01-15T09:00:00Z'),
      })
      .strict()
      .prefault({}),
    /** Repeated trials (issue 15 point 3): each evaluation run `repeatEach` times with different seeds; trials whose totals differ by more than `unstableMargin` (0–100) are flagged unstable. */
    trials: z
      .object({
        repeatEach: z.number().int().min(1).max(FLAG_LIMITS.repeatEach).default(1),
        unstableMargin: z.number().min(0).max(100).default(10),
      })
      .strict()
      .prefault({}),
    timeouts: timeouts.prefault({}),
    pricing: priceTable.default({}),
    /** The model of the data tools (`cookie bench filter|classify|translate`). */
    data: z.object({ model: modelSchema.optional() }).strict().prefault({}),
    /** Serve common libraries requested from public CDNs from local copies (the offline CDN). */
    offlineCdn: z.boolean().default(true),
    /** npm cache shared by every project candidate (installs stay offline-friendly and fast). */
    npmCache: z.string().default(path.join(os.homedir(), '.cache', 'cookie', 'npm')),
    concurrency: z.number().int().min(1).max(FLAG_LIMITS.concurrency).default(1),
    thresholds: thresholds.default({}),
    reporters: z.array(reporterEntry).default(['console']),
    browser: z
      .object({
        /** Default: COOKIE_CHROMIUM, else Debian's chromium-headless-shell, else /usr/bin/chromium (src/util/chromium.ts). */
        executablePath: z.string().default(() => defaultChromium()),
        args: z.array(z.string()).default([]),
        /** A remote Playwright server (`npx playwright run-server`), e.g. ws://grid:3000/ — Playwright `connect`. */
        wsEndpoint: z.string().url().optional(),
        /** A running Chromium's DevTools endpoint, e.g. http://127.0.0.1:9222 — Playwright `connectOverCDP`. */
        cdpEndpoint: z.string().url().optional(),
        /** Headers sent to the remote endpoint (e.g. an access token). */
        headers: z.record(z.string(), z.string()).optional(),
      })
      .strict()
      .prefault({}),
    deploy: deploySchema.prefault({}),
  })
  .strict();

/** The fix for a model-backed agent or judge without a model: the field and environment variables of that role. */
function modelFix(role: 'agent' | 'judge'): string {
  const env = role === 'agent' ? 'COOKIE_AGENT' : 'COOKIE_JUDGE';
  return `give ${role}.model: { provider: "openai" | "anthropic", model: "<name>", baseURL?: "<url>" }, set ${env}_PROVIDER and ${env}_MODEL, or use ${role}.kind "offline"`;
}

/** The user config schema with cross-field checks (a model agent needs a model). */
export const configSchema = userConfigSchema.superRefine((c, ctx) => {
  if (c.agent.kind === 'model' && !c.agent.model) {
    ctx.addIssue({ code: 'custom', path: ['agent', 'model'], message: 'is missing (agent.kind is "model")', params: { fix: modelFix('agent') } });
  }
  const proto = c.agent.model?.protocol;
  if (proto && c.agent.model) {
    const needs = proto === 'anthropic-computer-use' ? 'anthropic' : proto === 'tools' || proto === 'json' ? null : 'openai';
    if (needs && c.agent.model.provider !== needs) ctx.addIssue({ code: 'custom', path: ['agent', 'model', 'protocol'], message: `"${proto}" needs provider "${needs}" (it is "${c.agent.model.provider}"): change agent.model.provider or the protocol` });
  }
  if (c.judge.kind === 'model' && !c.judge.model) {
    ctx.addIssue({ code: 'custom', path: ['judge', 'model'], message: 'is missing (judge.kind is "model")', params: { fix: modelFix('judge') } });
  }
});

/** What a user may write in `cookie.config.ts` (every field optional). */
export type UserConfig = z.input<typeof userConfigSchema>;
/** The config after defaults are applied. */
export type ResolvedConfig = z.output<typeof userConfigSchema>;
/** Ablation switches (paper §5.2). */
export type Ablation = z.output<typeof userConfigSchema>['ablation'];
/** A model endpoint's config. */
export type ModelConfig = z.output<typeof modelSchema>;
/** Prices in USD per million tokens, by model. */
export type PriceTable = z.output<typeof priceTable>;
/** Where deployed apps listen and how the browser reaches them (`deploy`). */
export type DeployConfig = z.output<typeof deploySchema>;
/** One reporter entry: a name or module path, `[name, options]`, or a reporter object. */
export type ReporterEntry = z.output<typeof reporterEntry>;
