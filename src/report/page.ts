/**
 * The Content-Security-Policy of every HTML report: no script, no external resource; inline styles
 * and data: images only, so a report opened from disk can neither run nor fetch anything.
 */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * The opening of every HTML report after its doctype, up to and including its `<title>`: the
 * policy comes before any content. `title` must already be escaped.
 */
export function pageHead(title: string): string {
  return `<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>`;
}
