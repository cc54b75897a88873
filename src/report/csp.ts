/**
 * The Content-Security-Policy of every HTML report: no script, no external resource; inline styles
 * and data: images only, so a report opened from disk can neither run nor fetch anything.
 */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
