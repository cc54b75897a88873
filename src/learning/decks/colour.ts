/** An sRGB colour with 0-255 channels, as getComputedStyle reports it. */
export interface Rgb { r: number; g: number; b: number }

/** Parse `rgb(...)`/`rgba(...)` from computed styles; other syntaxes come back undefined. */
export function parseRgb(css: string): Rgb | undefined {
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(css.trim());
  return m ? { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]) } : undefined;
}

const linear = (c8: number) => {
  const c = c8 / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** CIELAB (D65 white) of an sRGB colour, via linear RGB and XYZ (IEC 61966-2-1, CIE 15). */
export function toLab({ r, g, b }: Rgb): [number, number, number] {
  const [R, G, B] = [linear(r), linear(g), linear(b)];
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047;
  const y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883;
  const f = (t: number) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIE76 colour difference: Euclidean distance in CIELAB. */
export function deltaE76(a: Rgb, b: Rgb): number {
  const [l1, a1, b1] = toLab(a);
  const [l2, a2, b2] = toLab(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}

/**
 * Colours left after merging any closer than `threshold` Delta E: each colour, in the order given,
 * joins the first kept colour within the threshold, or is kept itself. Order-dependent by design
 * (a chain of near colours is not collapsed into one), and deterministic for a given deck.
 */
export function mergeColours(colours: ReadonlyArray<Rgb>, threshold = 2.0): Rgb[] {
  const kept: Rgb[] = [];
  for (const c of colours) if (!kept.some(k => deltaE76(k, c) < threshold)) kept.push(c);
  return kept;
}

/** WCAG 2.x relative luminance and contrast ratio. */
export function contrastRatio(fg: Rgb, bg: Rgb): number {
  const lum = ({ r, g, b }: Rgb) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
