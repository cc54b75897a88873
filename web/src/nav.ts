export const NAVIGATED = 'paideia:navigate';

/** Go to a page of the app (a deep link: the URL is the state); main.ts draws it. */
export function navigate(href: string, replace = false): void {
  if (replace) history.replaceState(null, '', href); else history.pushState(null, '', href);
  window.dispatchEvent(new Event(NAVIGATED));
}
