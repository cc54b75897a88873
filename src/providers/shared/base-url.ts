import { ConfigError } from '../../core/errors.js';

// A host with a port, a dotted name or localhost, then a path or nothing: a URL without its scheme.
const HOST_FIRST = /^(?:[\w-]+(?:\.[\w-]+)+(?::\d+)?|localhost(?::\d+)?|[\w.-]+:\d+)(?:\/|$)/i;

/**
 * Why a base URL cannot be called, or undefined when it can. Only http(s) is: `localhost:8787`
 * parses as a URL with the scheme `localhost:`, and would fail every call, slowly, with retries.
 */
export function baseUrlProblem(baseURL: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    // host:port/path with no scheme: say the URL it most likely is.
    if (HOST_FIRST.test(baseURL) && URL.canParse(`http://${baseURL}`)) return `"${baseURL}" is not a URL; write the scheme, e.g. http://${baseURL}`;
    return `"${baseURL}" is not a URL; expected e.g. http://127.0.0.1:8080/v1`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `"${baseURL}" is not an http(s) URL; write the scheme, e.g. http://${baseURL.replace(/^[a-z+.-]*:\/\//i, '')}`;
  }
  return undefined;
}

/** The base URL as given, or a ConfigError (exit 2) naming where it came from. */
export function checkBaseUrl(baseURL: string, field: string): string {
  const problem = baseUrlProblem(baseURL);
  if (problem) throw new ConfigError([{ field, message: problem }]);
  return baseURL;
}
