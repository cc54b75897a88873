import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/**
 * Script only from the app's own files, never inline or foreign; nothing framed, posted or
 * fetched elsewhere. Styles may be inline because the charts (SVG) carry their own; a style
 * cannot run code.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "connect-src 'self'", "font-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

export const TOKEN_COOKIE = 'paideia_token';

/** Security headers on every answer, pages and API alike. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cross-Origin-Opener-Policy', 'same-origin');
  c.header('X-Frame-Options', 'DENY');
};

/**
 * A server on loopback answers only requests addressed to loopback: a page elsewhere cannot
 * reach it by pointing its own host name at 127.0.0.1 (DNS rebinding).
 */
export function loopbackHostOnly(port: () => number): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host') ?? '';
    const allowed = ['127.0.0.1', 'localhost', '[::1]'].map(h => `${h}:${port()}`);
    if (!allowed.includes(host)) return c.text('this server answers only requests to 127.0.0.1', 421);
    return next();
  };
}

/** Writes must come from the app's own pages: JSON bodies, and no foreign Origin. */
export const sameOriginWrites: MiddlewareHandler = async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
  const origin = c.req.header('origin');
  const host = c.req.header('host');
  if (origin && host && new URL(origin).host !== host) return c.json({ error: 'cross-origin request refused' }, 403);
  if (!(c.req.header('content-type') ?? '').startsWith('application/json')) return c.json({ error: 'send JSON (content-type: application/json)' }, 415);
  return next();
};

/**
 * With a token, every request carries it: as `Authorization: Bearer T`, as the cookie a first
 * visit with `?token=T` sets (the event stream cannot send headers; the page is then loaded again
 * without it in its address), or as `?token=T` itself.
 */
export function requireToken(token: string): MiddlewareHandler {
  const expected = Buffer.from(token);
  const matches = (given: string | undefined) => {
    if (!given) return false;
    const b = Buffer.from(given);
    return b.length === expected.length && timingSafeEqual(b, expected);
  };
  return async (c, next) => {
    const bearer = c.req.header('authorization')?.replace(/^Bearer\s+/i, '');
    const query = c.req.query('token');
    if (matches(bearer) || matches(getCookie(c, TOKEN_COOKIE))) return next();
    if (matches(query)) {
      setCookie(c, TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      // A page opened with ?token= goes on without it: the secret leaves the address bar and history.
      if (c.req.method === 'GET' && !new URL(c.req.url).pathname.startsWith('/api/')) {
        const url = new URL(c.req.url);
        url.searchParams.delete('token');
        return c.redirect(`${url.pathname}${url.search}`, 303);
      }
      return next();
    }
    return c.json({ error: 'this server needs its token: open the address printed by paideia serve (it ends in ?token=...)' }, 401);
  };
}
