import { createRequire } from 'node:module';
import type { JSDOM } from 'jsdom';

const require = createRequire(import.meta.url);
let Dom: typeof JSDOM | undefined;

/**
 * An HTML document parsed by jsdom, which is loaded at the first parse, not when this module is:
 * loading jsdom takes a second or two, and every CLI command (`paideia --version` too) imported
 * it through the learning commands.
 */
export function parseHtml(html: string): JSDOM {
  Dom ??= (require('jsdom') as typeof import('jsdom')).JSDOM;
  return new Dom(html);
}
