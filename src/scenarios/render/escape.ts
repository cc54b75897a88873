import { stripControl } from '../../core/text-safety.js';

/** Text for HTML element content and quoted attribute values: every string a model or a file wrote passes here. */
export function escapeHtml(text: string): string {
  return stripControl(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
