/** What the browser reports about one slide; computed after layout, so styles and overflow are real. */
export interface SlideFacts {
  exercise: boolean;
  text: string;
  tables: number;
  images: number;
  overflow: boolean;
}

/** One element that renders text, with the colours a reader sees it in. */
export interface TextRun {
  slide: number;
  colour: string;
  background: string;
  fontSizePx: number;
  bold: boolean;
  sample: string;
}

export interface DomFacts {
  slides: SlideFacts[];
  textColours: string[];
  backgrounds: string[];
  svgPaints: string[];
  textRuns: TextRun[];
}

/**
 * The collector runs inside the page, so it is kept as source text: a bundler's helpers
 * (tsx adds `__name`) would not exist there. It reads computed styles only, never page scripts.
 */
export const COLLECT_DOM_FACTS = String.raw`(() => {
  const transparent = c => c === 'transparent' || /rgba\([^)]*,\s*0\)$/.test(c);
  const inSvg = el => el.closest('svg') !== null;
  const visible = el => typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) : true;
  const backgroundOf = el => {
    for (let e = el; e; e = e.parentElement) {
      const bg = getComputedStyle(e).backgroundColor;
      if (!transparent(bg)) return bg;
    }
    return 'rgb(255, 255, 255)';
  };
  const slides = [...document.querySelectorAll('section.slide')];
  const facts = { slides: [], textColours: [], backgrounds: [], svgPaints: [], textRuns: [] };
  // The page behind the slides shows through transparent slides, so its colour is part of the deck.
  for (const el of [document.documentElement, document.body]) {
    const bg = el && getComputedStyle(el).backgroundColor;
    if (bg && !transparent(bg)) facts.backgrounds.push(bg);
  }
  const shapes = new Set(['rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'path', 'text', 'tspan']);
  slides.forEach((slide, index) => {
    const all = [slide, ...slide.querySelectorAll('*')];
    facts.slides.push({
      exercise: slide.getAttribute('data-role') === 'exercise',
      text: slide.innerText,
      tables: slide.querySelectorAll('table').length,
      images: [...slide.querySelectorAll('img')].filter(i => /^data:/i.test(i.getAttribute('src') || '') && !i.closest('picture')).length
        + [...slide.querySelectorAll('svg')].filter(s => !s.parentElement.closest('svg')).length
        + slide.querySelectorAll('canvas').length + slide.querySelectorAll('picture').length,
      overflow: slide.scrollWidth > slide.clientWidth || slide.scrollHeight > slide.clientHeight,
    });
    for (const el of all) {
      if (!visible(el)) continue;
      const style = getComputedStyle(el);
      if (!transparent(style.backgroundColor)) facts.backgrounds.push(style.backgroundColor);
      if (inSvg(el)) {
        if (!shapes.has(el.localName)) continue;
        for (const paint of [style.fill, style.stroke]) if (paint && paint !== 'none' && /^rgba?\(/.test(paint) && !transparent(paint)) facts.svgPaints.push(paint);
        continue;
      }
      const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('').trim();
      if (!own) continue;
      facts.textColours.push(style.color);
      facts.textRuns.push({ slide: index + 1, colour: style.color, background: backgroundOf(el), fontSizePx: parseFloat(style.fontSize),
        bold: Number(style.fontWeight) >= 700, sample: own.slice(0, 40) });
    }
  });
  return facts;
})()`;
