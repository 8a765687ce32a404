import type { StaticPerception } from '../../types.js';

/**
 * The aesthetics baseline and bonuses of the static anchors (METHOD.md §9): baseline 5 clean/professional,
 * 3 unpolished, 1 raw HTML, 0 blank; +1 each (at most +3) for an outstanding colour system, type
 * hierarchy and micro-interactions. Offline, "clean" is read from measured styling signals; a page drawn
 * on a canvas is read from the richness of its pixels instead ({@link canvasTier}: between 1 and 5).
 * @returns tier (0/1/3/4/5 for a DOM page, 1–5 for a canvas page), bonus (0–3; a canvas page's in tenths) and a description of the signals
 */
export function aestheticsBaseline(st: StaticPerception): { tier: number; bonus: number; signals: string; bonuses: string[] } {
  const inv = st.inventory;
  if (!inv) return { tier: 3, bonus: 0, signals: 'no DOM inventory', bonuses: [] };
  const s = inv.style;
  const canvasPage = inv.canvases.some((c) => c.areaShare >= 0.5);
  const vp = st.viewports.find((v) => v.width === 1280) ?? st.viewports[st.viewports.length - 1];
  if (canvasPage) {
    // a canvas is judged by its pixels: shading, gradients and anti-aliasing show as colour depth
    const colours = vp?.blank.colours ?? 0;
    const tier = canvasTier(colours);
    // the bonuses grow with what they measure, like the tier (a scene measured from single frames must not
    // gain or lose a point between two runs): colour richness beyond the polished tier, 400 → 1,600 colours on
    // a log scale; live motion from the smallest change a screenshot pair shows (0.001 of the viewport, a
    // cursor's blink) to 0.005 (planets crossing a scene)
    const weighted: [string, number][] = [
      ['rich colour system', (vp?.contentShare ?? 0) >= 0.05 ? logRamp(colours, 400, 1600) : 0],
      ['live animation', Math.min(1, Math.max(0, (st.animatedShare - 0.001) / 0.004))],
    ];
    const bonuses = weighted.filter(([, w]) => w > 0).map(([name, w]) => (w < 1 ? `${name} ×${w.toFixed(1)}` : name));
    const bonus = Math.round(weighted.reduce((a, [, w]) => a + w, 0) * 10) / 10;
    return { tier, bonus, signals: `canvas page with ${colours} distinct colours`, bonuses };
  }
  const signals = {
    'custom font': !s.defaultFont,
    backgrounds: s.distinctBackgrounds >= 2,
    'rounded corners': s.roundedElements >= 3,
    shadows: s.shadowedElements >= 1,
    gradients: s.gradientElements >= 1,
    transitions: s.transitionElements + s.animatedElements >= 1,
  };
  const on = Object.entries(signals).filter(([, v]) => v).map(([k]) => k);
  const raw = s.defaultFont && s.distinctBackgrounds <= 1 && s.roundedElements === 0 && s.shadowedElements === 0;
  // three signals of six sit between unpolished and clean (a flat dark dashboard: its own font, card
  // backgrounds, rounded corners, no shadow, gradient or transition): 4, not a two-point cliff from 3 to 5
  const tier = raw ? 1 : on.length >= 4 ? 5 : on.length === 3 ? 4 : 3;
  const bonuses: string[] = [];
  if (tier === 5) {
    if (s.distinctBackgrounds >= 3 && s.distinctBackgrounds <= 14 && s.distinctColors >= 3 && s.distinctColors <= 14) bonuses.push('coherent colour system');
    const sizes = s.fontSizes.filter((x) => x >= 10);
    if (sizes.length >= 4 && sizes.length <= 10 && inv.headings.length >= 2 && (sizes[sizes.length - 1]! / sizes[0]!) >= 2) bonuses.push('clear type hierarchy');
    if (s.transitionElements >= 3 && (s.shadowedElements >= 2 || s.gradientElements >= 1)) bonuses.push('micro-interactions');
  }
  return { tier, bonus: Math.min(3, bonuses.length), signals: on.length ? on.join(', ') : 'no styling signals', bonuses };
}

/**
 * The aesthetics baseline of a page drawn on a canvas, from the distinct colours of its 1280-px screenshot: 1 at
 * 100 colours or fewer (flat fills: raw), 5 at 400 or more (shading, gradients, anti-aliasing: polished),
 * and in between on a log scale, to one decimal (250 colours → 3.6). Continuous on purpose: an animated scene
 * is measured from one frame, and its colour count moves by tens between frames and runs; the tiers 1/3/5 of
 * METHOD.md §9 as steps at 100 and 400 colours flipped a solar system's score by two points between two runs
 * of the same page (384 vs 407 colours), and with it its rank against its neighbours.
 */
export function canvasTier(colours: number): number {
  return Math.round((1 + 4 * logRamp(colours, 100, 400)) * 10) / 10;
}

/** 0 at `lo` or below, 1 at `hi` or above, on a log scale in between. */
function logRamp(x: number, lo: number, hi: number): number {
  return x <= lo ? 0 : Math.min(1, Math.log(x / lo) / Math.log(hi / lo));
}
