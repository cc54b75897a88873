/**
 * The one way pages make DOM: elements with attributes and children, text always as text nodes.
 * Nothing here parses HTML, so whatever a model wrote is shown, never run.
 */
export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (/^on/i.test(name)) throw new Error(`event handlers are functions, not strings: ${name}`);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replace an element's content. */
export function put(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A link inside the app: followed without a page load, still a real link for keyboard and new tabs. */
export function link(href: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href, 'data-link': true }, ...children);
}

export function table(caption: string, head: string[], rows: Child[][], attrs: Attrs = {}): HTMLTableElement {
  return h('table', attrs,
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...head.map(c => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows.map(r => h('tr', {}, ...r.map(c => h('td', {}, c))))));
}

export const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)}%`);
export const num = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? '–' : v.toFixed(digits));
export const usd = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `$${v.toFixed(4)}`);
export const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');
