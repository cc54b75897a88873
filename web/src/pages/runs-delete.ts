import { api, ApiError } from '../api.js';
import { h, put, usd } from '../dom.js';
import type { DeleteAnswer, RunInUseAnswer, RunListEntry } from '../types.js';

const holdersText = (holders: RunInUseAnswer['inUse']['holders']) => holders.map(x =>
  `worker ${x.workerId} (pid ${x.pid} on ${x.host}) holds ${x.trials} trial${x.trials === 1 ? '' : 's'} until ${x.expiresAt.slice(0, 19).replace('T', ' ')} UTC`).join('; ');

/** The 409 of a run workers hold live claims on (the other 409, a run running here, cannot be forced). */
const inUse = (error: unknown): RunInUseAnswer | undefined => {
  const body = error instanceof ApiError && error.status === 409 ? (error.body as Partial<RunInUseAnswer>) : undefined;
  return body?.inUse ? (body as RunInUseAnswer) : undefined;
};

/**
 * Ask before deleting a run, in a modal dialog: it names the run and what goes with it; Cancel has
 * the focus (Escape cancels too), so nothing is deleted by a stray Enter. When workers hold the
 * run, it says who until when and offers *Delete anyway* (`?force=1`). `done` gets what happened.
 */
export function confirmDelete(run: RunListEntry, done: (message: string) => void): void {
  const problem = h('div', { role: 'alert', class: 'error' });
  const cancel = h('button', { type: 'button', autofocus: true, onclick: () => dialog.close() }, 'Cancel');
  const remove = async (button: HTMLButtonElement, force: boolean) => {
    button.disabled = true;
    try {
      const { deleted } = await api<DeleteAnswer>(`/runs/${encodeURIComponent(run.id)}${force ? '?force=1' : ''}`, { method: 'DELETE', body: {} });
      dialog.close();
      done(`Deleted run ${deleted.runId}: ${deleted.trials} trials, ${deleted.calls} calls, ${deleted.scores} scores, ${deleted.judgments} judgments, ${deleted.artifacts} artefacts.`);
    } catch (error) {
      button.disabled = false;
      const held = force ? undefined : inUse(error);
      if (!held) {
        put(problem, h('p', {}, (error as Error).message));
        return;
      }
      put(problem, h('p', {}, `Workers hold this run: ${holdersText(held.inUse.holders)}. Stop them (or wait until then) and delete it, or delete it anyway: its workers can then store nothing more.`));
      confirm.replaceWith(anyway);
      cancel.focus();
    }
  };
  const confirm = h('button', { type: 'button', class: 'danger', onclick: () => void remove(confirm, false) }, 'Delete run');
  const anyway = h('button', { type: 'button', class: 'danger', onclick: () => void remove(anyway, true) }, 'Delete anyway');
  const kinds = run.counts.byKind.length > 1 ? ` (${run.counts.byKind.map(k => `${k.total} ${k.kind}`).join(', ')})` : '';
  const dialog = h('dialog', { 'aria-labelledby': 'delete-title', 'aria-describedby': 'delete-what', class: 'confirm', onclose: () => dialog.remove() },
    h('h2', { id: 'delete-title' }, 'Delete this run?'),
    h('p', { id: 'delete-what' },
      'Run ', h('code', {}, run.id), ` (${run.kind}, ${run.interrupted ? 'stopped (interrupted)' : run.status}; ${run.models.join(', ') || 'no models'}) and everything stored with it: `
      + `${run.trials} trials${kinds}${run.failures ? ` (${run.failures} failed)` : ''}, their calls, scores, judgments and artefacts (${usd(run.costUsd)}${run.costIncomplete ? ' + unknown' : ''} of calls). This cannot be undone.`),
    problem,
    h('div', { class: 'actions' }, cancel, confirm));
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
}
