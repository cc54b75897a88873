import { h, put } from './dom.js';
import { NAVIGATED, navigate } from './nav.js';
import { comparePage } from './pages/compare.js';
import { editorPage } from './pages/editor.js';
import { launchPage } from './pages/launch.js';
import { runPage } from './pages/run.js';
import { runsPage } from './pages/runs.js';
import { scorePage } from './pages/score.js';
import { trialPage } from './pages/trial.js';

/** A page draws itself into main; what it returns is called when the reader leaves it (closing streams). */
export type Page = (main: HTMLElement, params: string[], query: URLSearchParams) => Promise<(() => void) | void>;

const ROUTES: Array<[RegExp, Page, string]> = [
  [/^\/(?:runs\/?)?$/, runsPage, 'Runs'],
  [/^\/runs\/([^/]+)$/, runPage, 'Run'],
  [/^\/runs\/([^/]+)\/trials\/([^/]+)$/, trialPage, 'Trial'],
  [/^\/launch$/, launchPage, 'Launch'],
  [/^\/compare$/, comparePage, 'Compare runs'],
  [/^\/editor(?:\/([^/]+))?$/, editorPage, 'Scenario editor'],
  [/^\/score\/([^/]+)\/([^/]+)$/, scorePage, 'Blind scoring'],
];

let leave: (() => void) | void;
// The page drawn now, as path and query: a move within it (the skip link's #main) draws nothing again.
let drawn = '';

async function render(): Promise<void> {
  drawn = location.pathname + location.search;
  const main = document.getElementById('main')!;
  leave?.();
  leave = undefined;
  const path = location.pathname;
  const route = ROUTES.find(([re]) => re.test(path));
  for (const a of document.querySelectorAll('nav a')) {
    const here = (a as HTMLAnchorElement).pathname === path || (path.startsWith('/runs') && (a as HTMLAnchorElement).pathname === '/runs');
    if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  if (!route) {
    document.title = 'Not found · Paideia';
    put(main, h('h1', {}, 'Not found'), h('p', {}, `No page at ${path}.`));
    return;
  }
  const [re, page, title] = route;
  document.title = `${title} · Paideia`;
  const params = (re.exec(path) ?? []).slice(1).map(p => (p === undefined ? '' : decodeURIComponent(p)));
  put(main, h('p', { class: 'muted', role: 'status' }, 'Loading…'));
  try {
    leave = await page(main, params, new URLSearchParams(location.search));
  } catch (error) {
    put(main, h('h1', {}, title), h('p', { class: 'error', role: 'alert' }, (error as Error).message));
  }
}


document.addEventListener('click', e => {
  const a = (e.target as Element | null)?.closest?.('a[data-link]') as HTMLAnchorElement | null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.origin !== location.origin) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
});
// Following the skip link is a history step too: redrawing the page then would take the focus it moved.
window.addEventListener('popstate', () => {
  if (location.pathname + location.search !== drawn) void render();
});
window.addEventListener(NAVIGATED, () => void render());
void render();
