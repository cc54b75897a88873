const NS = 'http://www.w3.org/2000/svg';

/** An SVG element; text only ever as textContent, so a label from a model is shown, never parsed. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Colour-blind-safe palette (Okabe & Ito), as the reports use; series past the eighth reuse it. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8a7a00', '#000000'];
