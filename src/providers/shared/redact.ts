/** Header names that carry credentials: the usual ones, and any custom one that says so (`X-Auth-Token`). */
const SECRET_HEADER = /authorization|api[-_]?key|token|secret|password|cookie|^x-auth/i;

/** Replaces every credential of one set of request headers in text. */
export type Redactor = (text: string) => string;

const cache = new WeakMap<Record<string, string>, Redactor>();

/**
 * The redactor for the credentials sent in `headers` (each value, and its bare token without
 * `Bearer`). Servers echo keys back, and not always literally: a JSON body may spell any character
 * as `\u0073`, a slash as `\/`, a URL or HTML page as `%73` or `&#115;`. The pattern matches every
 * such spelling, so the text is clean before it is decoded and after. Built once per header set.
 */
export function redactorFor(headers: Record<string, string>): Redactor {
  let redactor = cache.get(headers);
  if (!redactor) {
    redactor = buildRedactor(secretsIn(headers));
    cache.set(headers, redactor);
  }
  return redactor;
}

/** The text with every credential sent in the headers replaced by [redacted] (see redactorFor). */
export function redactSecrets(text: string, headers: Record<string, string>): string {
  return redactorFor(headers)(text);
}

function secretsIn(headers: Record<string, string>): string[] {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADER.test(name) || !value) continue;
    secrets.add(value);
    const token = value.replace(/^(Bearer|Basic|Token)\s+/i, '');
    // Short tokens would redact ordinary words; real keys are long.
    if (token.length >= 8) secrets.add(token);
  }
  return [...secrets].sort((a, b) => b.length - a.length);
}

function buildRedactor(secrets: string[]): Redactor {
  if (secrets.length === 0) return text => text;
  const pattern = new RegExp(secrets.map(spellings).join('|'), 'g');
  return text => text.replace(pattern, '[redacted]');
}

/** A pattern for one secret, each UTF-16 unit in any of the spellings a JSON, URL or HTML text may use. */
function spellings(secret: string): string {
  let out = '';
  for (let i = 0; i < secret.length; i++) {
    const code = secret.charCodeAt(i);
    const hex4 = code.toString(16).padStart(4, '0');
    const alternatives = [escapeRegExp(secret[i]!), `\\\\u${anyCase(hex4)}`];
    if (code < 0x80) {
      alternatives.push(`%${anyCase(code.toString(16).padStart(2, '0'))}`, `&#0*${code};`, `&#[xX]0*${anyCase(code.toString(16))};`);
    }
    if (secret[i] === '/') alternatives.push('\\\\/');
    if (secret[i] === '\\') alternatives.push('\\\\\\\\');
    if (secret[i] === '"') alternatives.push('\\\\"');
    out += `(?:${alternatives.join('|')})`;
  }
  return out;
}

function anyCase(hex: string): string {
  return [...hex].map(c => (/[a-f]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');
}

function escapeRegExp(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
