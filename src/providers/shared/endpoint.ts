import { ConfigError } from '../../core/errors.js';

/**
 * A base URL as it may be stored and shown: no user, password, query or fragment (keys sometimes
 * travel there), no trailing slash.
 */
export function publicEndpoint(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new ConfigError([{ field: '--base-url', message: `"${baseURL}" is not a URL; expected e.g. http://127.0.0.1:8080/v1` }]);
  }
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
}
