/** A few CSS named colours that decks use; others are left as they are and so counted by D3. */
const NAMED: Readonly<Record<string, [number, number, number]>> = {
  red: [255, 0, 0], green: [0, 128, 0], blue: [0, 0, 255], yellow: [255, 255, 0], orange: [255, 165, 0], purple: [128, 0, 128],
  navy: [0, 0, 128], teal: [0, 128, 128], maroon: [128, 0, 0], olive: [128, 128, 0], lime: [0, 255, 0], aqua: [0, 255, 255],
  cyan: [0, 255, 255], fuchsia: [255, 0, 255], magenta: [255, 0, 255], pink: [255, 192, 203], brown: [165, 42, 42],
  gold: [255, 215, 0], crimson: [220, 20, 60], darkblue: [0, 0, 139], darkgreen: [0, 100, 0], darkred: [139, 0, 0],
  steelblue: [70, 130, 180], royalblue: [65, 105, 225], coral: [255, 127, 80], tomato: [255, 99, 71], indigo: [75, 0, 130],
  violet: [238, 130, 238], salmon: [250, 128, 114], skyblue: [135, 206, 235], lightblue: [173, 216, 230], lightgreen: [144, 238, 144],
};

const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const encode = (y: number) => (y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055);

/** The grey with the same relative luminance (WCAG / sRGB) as the colour, so contrast stays as it was. */
export function greyOf([r, g, b]: [number, number, number]): string {
  const y = 0.2126 * linear(r / 255) + 0.7152 * linear(g / 255) + 0.0722 * linear(b / 255);
  const v = Math.round(encode(y) * 255).toString(16).padStart(2, '0');
  return `#${v}${v}${v}`;
}

const HEX = /#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})\b/gi;
const RGB = /rgba?\(\s*(\d+(?:\.\d+)?)[\s,]+(\d+(?:\.\d+)?)[\s,]+(\d+(?:\.\d+)?)(?:\s*[,/]\s*([\d.]+%?))?\s*\)/gi;
const NAMED_RE = new RegExp(`(?<![\\w-])(?:${Object.keys(NAMED).join('|')})(?![\\w-])`, 'gi');

function hexRgb(hex: string): { rgb: [number, number, number]; alpha?: string } {
  const h = hex.slice(1);
  const full = h.length <= 4 ? [...h].map(c => c + c).join('') : h;
  const rgb: [number, number, number] = [0, 2, 4].map(i => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  return full.length === 8 ? { rgb, alpha: full.slice(6, 8) } : { rgb };
}

/**
 * CSS text with every hex, rgb()/rgba() and listed named colour replaced by its grey (alpha
 * kept). `onChange` hears each replacement. Values that are already grey are left alone.
 */
export function greyCss(css: string, onChange: (before: string, after: string) => void): string {
  const swap = (before: string, after: string) => {
    if (before.toLowerCase() !== after.toLowerCase()) onChange(before, after);
    return after;
  };
  return css
    .replace(HEX, hex => {
      const { rgb, alpha } = hexRgb(hex);
      if (rgb[0] === rgb[1] && rgb[1] === rgb[2]) return hex;
      return swap(hex, greyOf(rgb) + (alpha ?? ''));
    })
    .replace(RGB, (whole, r: string, g: string, b: string, a: string | undefined) => {
      const rgb: [number, number, number] = [Number(r), Number(g), Number(b)];
      if (rgb[0] === rgb[1] && rgb[1] === rgb[2]) return whole;
      const grey = greyOf(rgb);
      return swap(whole, a === undefined ? grey : `rgba(${parseInt(grey.slice(1, 3), 16)}, ${parseInt(grey.slice(3, 5), 16)}, ${parseInt(grey.slice(5, 7), 16)}, ${a})`);
    })
    .replace(NAMED_RE, name => swap(name, greyOf(NAMED[name.toLowerCase()]!)));
}

/** greyCss on declaration values only (after a `:`), so selectors such as `.blue` or `#add` stay. */
export function greyDeclarations(css: string, onChange: (before: string, after: string) => void): string {
  return css.replace(/(:\s*)([^;{}]+)/g, (_whole, colon: string, value: string) => colon + greyCss(value, onChange));
}
