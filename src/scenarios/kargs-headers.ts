import type { Env } from '../core/env.js';
import type { ConfigIssue } from '../core/errors.js';
import { quoteValue } from '../core/text-safety.js';
import type { YamlSource } from '../core/config/yaml-source.js';

/**
 * kargs keys that hold HTTP headers for the client (LangChain `default_headers`, the OpenAI SDK's
 * `extra_headers`, plain `headers`), at the top of kargs or inside `model_kwargs`. They are sent
 * as headers and never in a request body, since bodies are stored; their values never reach the
 * store either (see redactHeaderValues).
 */
export const HEADER_KEYS = new Set(['headers', 'default_headers', 'extra_headers']);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The headers of a model's kargs, `${VAR}` substituted, each bad name or value an issue naming its field. */
export function headersFromKargs(
  kargs: Record<string, unknown> | null | undefined,
  o: { alias: string; env: Env; source: YamlSource; issues: ConfigIssue[]; substitute: (text: string, path: Array<string | number>) => string },
): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  const nested = kargs?.model_kwargs;
  const places: Array<[Array<string>, Record<string, unknown>]> = [[[], kargs ?? {}]];
  if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) places.push([['model_kwargs'], nested as Record<string, unknown>]);
  for (const [prefix, holder] of places) {
    for (const key of HEADER_KEYS) {
      if (!Object.hasOwn(holder, key) || holder[key] === null || holder[key] === undefined) continue;
      const path = ['models', o.alias, 'kargs', ...prefix, key];
      const value = holder[key];
      if (typeof value !== 'object' || Array.isArray(value)) {
        o.issues.push(o.source.issue(path, `${key} must be a mapping of header names to values, e.g. ${key}: { HTTP-Referer: https://example.org }`));
        continue;
      }
      for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
        if (!TOKEN.test(name)) {
          o.issues.push(o.source.issue([...path, name], `${quoteValue(name)} is not a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~-)`, { keyOnly: true }));
        } else if (typeof v !== 'string' && typeof v !== 'number') {
          o.issues.push(o.source.issue([...path, name], 'a header value must be a string'));
        } else {
          const text = o.substitute(String(v), [...path, name]);
          if (/[\r\n\0]/.test(text)) o.issues.push(o.source.issue([...path, name], 'a header value may not hold line breaks or NUL'));
          else out[name.toLowerCase()] = text;
        }
      }
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** True for a value that is only `${VAR}` references, with an optional auth scheme: it names a secret but holds none. */
const onlyReferences = (v: string) => /\$\{/.test(v) && v.replace(/\$\{[^}]*\}/g, '').replace(/^\s*(Bearer|Basic|Token)\b/i, '').trim() === '';

/** A copy of kargs with every header value replaced by "[redacted]" (a `${VAR}` reference is kept: it is no secret). */
export function redactHeaderValues(kargs: Record<string, unknown>): Record<string, unknown> {
  const hide = (holder: Record<string, unknown>) => {
    const copy = { ...holder };
    for (const key of HEADER_KEYS) {
      const value = copy[key];
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
      copy[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>)
        .map(([name, v]) => [name, typeof v === 'string' && onlyReferences(v) ? v : '[redacted]']));
    }
    return copy;
  };
  const out = hide(kargs);
  const nested = out.model_kwargs;
  if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) out.model_kwargs = hide(nested as Record<string, unknown>);
  return out;
}
