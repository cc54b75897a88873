import { checkBaseUrl } from './base-url.js';

/**
 * A base URL as it may be stored and shown: no user, password, query or fragment (keys sometimes
 * travel there), no trailing slash. A URL that is not http(s) is a ConfigError naming `field`.
 */
export function publicEndpoint(baseURL: string, field = '--base-url'): string {
  const url = new URL(checkBaseUrl(baseURL, field));
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
}
