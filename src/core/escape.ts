import { stripControl } from '../core/text-safety.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for HTML element content and quoted attribute values. Every string from a model goes through here. */
export function escapeHtml(text: unknown): string {
  return stripControl(String(text ?? '')).replace(/[&<>"']/g, c => ENTITIES[c]!);
}
