import { api } from '../api.js';
import { h, put } from '../dom.js';

interface Column { column: string; dimension: string; type: 'int' | 'float' | 'bool'; min: number; max: number; description?: string; scale: string }
interface Saved { values: Record<string, number | boolean>; comment?: string }
interface Task { rater: string; items: Array<{ id: string; task: string; transcript: string }>; columns: Column[]; scored: string[]; saved?: Record<string, Saved> }

/**
 * An expert's blind scoring task, opened from its share link: the dialogues in this task's own
 * shuffled order with no model named, one form per dialogue on the rubric's scales. Each save
 * stores the expert's scores in the run, where the agreement analyses read them.
 */
export async function scorePage(main: HTMLElement, [runId, secret]: string[]): Promise<void> {
  document.body.classList.add('expert');
  const base = `/score/${encodeURIComponent(runId!)}/${encodeURIComponent(secret!)}`;
  const task = await api<Task>(base);
  const done = new Set(task.scored);
  const counter = h('p', { role: 'status', id: 'scored-count' });
  const count = () => put(counter, `${done.size} of ${task.items.length} scored`);
  count();
  put(main,
    h('h1', {}, 'Blind scoring'),
    h('p', {}, `Scoring as ${task.rater}. The outputs below are in a random order and do not say which model wrote them. Score each on the rubric and save it; you can come back to this link.`),
    h('h2', {}, 'Rubric'),
    h('ul', {}, ...task.columns.map(c => h('li', {}, h('strong', {}, c.column), ` (${c.dimension}; ${c.scale})${c.description ? `: ${c.description}` : ''}`))),
    counter,
    ...task.items.map((item, n) => itemForm(item, n, task.columns, base, done, count, task.saved?.[item.id])));
}

/** A saved value as its control holds it (a yes/no select keeps 1 and 0). */
const shown = (v: number | boolean | undefined) => (v === undefined ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));

function itemForm(item: Task['items'][number], n: number, columns: Column[], base: string, done: Set<string>, count: () => void, saved: Saved | undefined): HTMLElement {
  const inputs = columns.map(c => {
    const id = `${item.id}-${c.column}`;
    const input = c.type === 'bool'
      ? h('select', { id, name: c.column }, h('option', { value: '' }, 'choose…'), h('option', { value: '1' }, 'yes'), h('option', { value: '0' }, 'no'))
      : h('input', { id, name: c.column, type: 'number', min: c.min, max: c.max, step: c.type === 'int' ? 1 : 'any', required: true });
    // What the expert saved before comes back, to be kept or revised.
    input.value = shown(saved?.values[c.column]);
    return { c, input, el: h('div', { class: 'field' }, h('label', { for: id }, `${c.column} (${c.scale})`), input) };
  });
  const comment = h('textarea', { id: `${item.id}-comment`, rows: 2 });
  comment.value = saved?.comment ?? '';
  const status = h('p', { role: 'status' }, done.has(item.id) ? 'saved; change it and save again to revise' : '');
  const form = h('form', {
    class: 'blind', onsubmit: async e => {
      e.preventDefault();
      const values = Object.fromEntries(inputs.map(({ c, input }) => [c.column, input.value]));
      try {
        await api(base, { method: 'POST', body: { id: item.id, values, ...(comment.value.trim() ? { comment: comment.value.trim() } : {}) } });
        done.add(item.id);
        count();
        put(status, 'saved');
      } catch (error) {
        put(status, h('span', { class: 'error' }, (error as Error).message));
      }
    },
  },
  h('div', { class: 'fields' }, ...inputs.map(i => i.el), h('div', { class: 'field' }, h('label', { for: `${item.id}-comment` }, 'Comment (optional)'), comment)),
  h('button', { type: 'submit', class: 'primary' }, `Save output ${n + 1}`), status);
  return h('article', { class: 'call', 'aria-labelledby': `${item.id}-h` },
    h('h2', { id: `${item.id}-h` }, `Output ${n + 1}`),
    h('h3', {}, 'Task'), h('pre', {}, item.task),
    h('h3', {}, 'Dialogue'), h('pre', {}, item.transcript),
    form);
}
