/**
 * Text that came from a file, a server or a model and is about to reach a terminal, a report or
 * an error message. Escape sequences in it could rewrite the terminal (move the cursor, hide
 * text, set the window title), and a value of any length would be echoed whole.
 */

// ESC-introduced sequences (CSI, OSC up to BEL or ST, and two-byte ones), then any other C0 or C1
// control except tab and line feed.
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?|\u009b[0-?]*[ -/]*[@-~]/g;
const OTHER_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The text with terminal escape sequences removed and other control characters (but tab and newline) shown as `\u{..}`. */
export function stripControl(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(OTHER_CONTROL, c => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/** Longest part of a bad value an error message quotes. */
export const MAX_QUOTED_CHARS = 80;

/**
 * A value for an error message: JSON-quoted, cut to `max` characters with the full length said,
 * so a 760 KB value is named, not echoed.
 */
export function quoteValue(value: unknown, max = MAX_QUOTED_CHARS): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length <= max) return typeof value === 'string' ? JSON.stringify(text) : text;
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // never split a surrogate pair
  const head = text.slice(0, cut);
  return `${typeof value === 'string' ? JSON.stringify(head).slice(0, -1) : head}… (${text.length} characters)${typeof value === 'string' ? '"' : ''}`;
}
