import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * The dialogue flow as a drawing: nodes in the order the walk first meets them, left to right,
 * an arrow per direction (arrows back to an earlier node arc above). Also listed as text.
 */
export function flowGraph(edges: Array<[string, string]>): HTMLElement {
  const order: string[] = [];
  for (const [a, b] of edges) for (const n of [a, b]) if (!order.includes(n) && n !== 'END') order.push(n);
  if (edges.some(([, b]) => b === 'END')) order.push('END');
  const w = 120, gap = 50, y = 70;
  const x = (n: string) => 20 + order.indexOf(n) * (w + gap);
  const root = svg('svg', { width: 40 + order.length * (w + gap), height: 130, role: 'img', 'aria-label': `Dialogue flow: ${edges.map(([a, b]) => `${a} to ${b}`).join(', ')}` });
  const defs = svg('defs', {});
  const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#333' }));
  defs.append(marker);
  root.append(defs);
  for (const [a, b] of edges) {
    const forward = order.indexOf(b) > order.indexOf(a);
    const x1 = x(a) + (forward ? w : w / 2), x2 = forward ? x(b) : x(b) + w / 2;
    const d = forward ? `M ${x1} ${y} L ${x2} ${y}` : `M ${x1} ${y - 18} C ${x1} ${y - 70}, ${x2} ${y - 70}, ${x2} ${y - 18}`;
    root.append(svg('path', { d, fill: 'none', stroke: '#333', 'stroke-width': 1.5, 'marker-end': 'url(#arrow)' }));
  }
  for (const n of order) {
    root.append(svg('rect', { x: x(n), y: y - 18, width: w, height: 36, rx: 8, fill: n === 'START' || n === 'END' ? '#e8eef7' : '#fff', stroke: '#1f5fa8' }));
    root.append(svg('text', { x: x(n) + w / 2, y: y + 5, 'text-anchor': 'middle', 'font-size': 13, fill: '#111' }, n));
  }
  return h('figure', { class: 'flow', tabindex: 0 }, root as unknown as HTMLElement,
    h('figcaption', {}, 'Directions: ', edges.map(([a, b]) => `${a} → ${b}`).join('; ')));
}
