import { api } from '../api.js';
import { h, usd } from '../dom.js';
import type { RunListEntry } from '../types.js';

interface Deleted { runId: string; trials: number; calls: number; scores: number; judgments: number; artifacts: number; blobs: number }

/**
 * Ask before deleting a run, in a modal dialog: it names the run and what goes with it; Cancel has
 * the focus (Escape cancels too), so nothing is deleted by a stray Enter. `done` gets what happened.
 */
export function confirmDelete(run: RunListEntry, done: (message: string) => void): void {
  const problem = h('p', { role: 'alert', class: 'error' });
  const cancel = h('button', { type: 'button', autofocus: true, onclick: () => dialog.close() }, 'Cancel');
  const confirm = h('button', {
    type: 'button', class: 'danger', onclick: async () => {
      confirm.disabled = true;
      try {
        const { deleted } = await api<{ deleted: Deleted }>(`/runs/${encodeURIComponent(run.id)}`, { method: 'DELETE', body: {} });
        dialog.close();
        done(`Deleted run ${deleted.runId}: ${deleted.trials} trials, ${deleted.calls} calls, ${deleted.scores} scores, ${deleted.judgments} judgments, ${deleted.artifacts} artefacts.`);
      } catch (error) {
        problem.textContent = (error as Error).message;
        confirm.disabled = false;
      }
    },
  }, 'Delete run');
  const dialog = h('dialog', { 'aria-labelledby': 'delete-title', 'aria-describedby': 'delete-what', class: 'confirm', onclose: () => dialog.remove() },
    h('h2', { id: 'delete-title' }, 'Delete this run?'),
    h('p', { id: 'delete-what' },
      'Run ', h('code', {}, run.id), ` (${run.kind}, ${run.status}; ${run.models.join(', ') || 'no models'}) and everything stored with it: `
      + `${run.trials} trials${run.failures ? ` (${run.failures} failed)` : ''}, their calls, scores, judgments and artefacts (${usd(run.costUsd)} of calls). This cannot be undone.`),
    problem,
    h('div', { class: 'actions' }, cancel, confirm));
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
}
