import type { StaticPerception } from '../../types.js';

/**
 * The aesthetics baseline and bonuses of the static anchors (METHOD.md §9): baseline 5 clean/professional,
 * 3 unpolished, 1 raw HTML, 0 blank; +1 each (at most +3) for an outstanding colour system, type
 * hierarchy and micro-interactions. Offline, "clean" is read from measured styling signals; a page drawn
 * on a canvas is read from the richness of its pixels instead.
 * @returns tier (0/1/3/5), bonus (0–3) and a description of the signals
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
    const tier = colours >= 400 ? 5 : colours >= 100 ? 3 : 1;
    const bonuses: string[] = [];
    if (colours >= 400 && (vp?.contentShare ?? 0) >= 0.05) bonuses.push('rich colour system');
    if (st.animatedShare > 0.002) bonuses.push('live animation');
    return { tier, bonus: bonuses.length, signals: `canvas page with ${colours} distinct colours`, bonuses };
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
  const tier = raw ? 1 : on.length >= 4 ? 5 : 3;
  const bonuses: string[] = [];
  if (tier === 5) {
    if (s.distinctBackgrounds >= 3 && s.distinctBackgrounds <= 14 && s.distinctColors >= 3 && s.distinctColors <= 14) bonuses.push('coherent colour system');
    const sizes = s.fontSizes.filter((x) => x >= 10);
    if (sizes.length >= 4 && sizes.length <= 10 && inv.headings.length >= 2 && (sizes[sizes.length - 1]! / sizes[0]!) >= 2) bonuses.push('clear type hierarchy');
    if (s.transitionElements >= 3 && (s.shadowedElements >= 2 || s.gradientElements >= 1)) bonuses.push('micro-interactions');
  }
  return { tier, bonus: Math.min(3, bonuses.length), signals: on.length ? on.join(', ') : 'no styling signals', bonuses };
}
