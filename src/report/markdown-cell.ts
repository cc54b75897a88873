import { stripControl } from '../core/text-safety.js';

/**
 * Text for a Markdown table cell, in every report (suite and scenario). Model, judge, server and
 * file text can hold Markdown: a link `[x](javascript:…)`, an image `![i](http://evil/x.png)`,
 * code, emphasis, raw HTML, an entity or a pipe that ends the cell. Backslash, `[`, `]`, backticks,
 * `*` and `_` are backslash-escaped (an `_` between two letters or digits cannot start emphasis and
 * is left alone, so `tutor_accuracy` stays readable), `|` too; `&`, `<` and `>` become entities, and
 * line breaks become spaces. Parentheses and `!` stay as they are: with no bracket left to open a
 * link or an image they mean nothing, and a judge's reason reads "(1)", not "\(1\)".
 */
export function cellText(s: string): string {
  // Control characters first: an ANSI escape in a model's answer would rewrite a terminal showing the file.
  return stripControl(s)
    .replace(/\\/g, '\\\\')
    .replace(/[[\]`*|]/g, c => `\\${c}`)
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r?\n|\r/g, ' ');
}
