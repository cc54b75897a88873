const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML elements and quoted attributes. */
export function htmlText(s: string): string {
  return s.replace(/[&<>"']/g, c => ESCAPES[c]!);
}

const DECK_CSS = `body { margin: 0; font-family: "DejaVu Sans", sans-serif; background: #ffffff; color: #1a1a1a; }
section.slide { padding: 56px 72px; }
h1 { font-size: 48px; margin: 0 0 24px; } h2 { font-size: 36px; margin: 0 0 20px; }
li, p, td, th { font-size: 24px; line-height: 1.35; } table { border-collapse: collapse; }
td, th { border: 1px solid #555555; padding: 4px 12px; }`;

/** A whole deck document around slide bodies (each becomes a `<section class="slide">`). */
export function deckDocument(title: string, slides: ReadonlyArray<string>): string {
  return [
    '<!DOCTYPE html>',
    `<html lang="en"><head><title>${htmlText(title)}</title><style>${DECK_CSS}</style></head><body>`,
    ...slides.map(body => `<section class="slide">${body}</section>`),
    '</body></html>',
    '',
  ].join('\n');
}
