import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { ConfigError, RunInUseError, type RunRecord, type Store } from '../../core/index.js';
import { countTrials } from '../../report/trial-counts.js';
import { openStore } from '../../store/index.js';
import { commandHint } from '../hint.js';

interface DeleteFlags { store: string; yes?: boolean; force?: boolean }

/** One line per run: what deleting it would remove. */
async function describe(store: Store, run: RunRecord): Promise<string> {
  const [counts, spent, kinds] = await Promise.all([countTrials(store, run.id), store.spentUsd(run.id), store.listArtifactKinds(run.id)]);
  const kindsText = counts.byKind.map(k => `${k.total} ${k.kind}`).join(', ');
  return `run ${run.id} (${run.kind}, ${run.status}, started ${run.createdAt.slice(0, 16).replace('T', ' ')}; models ${run.config.models.map(m => m.alias).join(', ') || 'none'}): `
    + `${counts.total} trial(s)${kindsText ? ` (${kindsText})` : ''}, ${counts.failed} failed, $${spent.toFixed(4)} of calls`
    + `${kinds.length ? `, artefacts: ${kinds.join(', ')}` : ''}`;
}

async function confirmed(count: number): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`delete ${count === 1 ? 'this run' : `these ${count} runs`} and everything stored with ${count === 1 ? 'it' : 'them'}? type yes to confirm: `);
    return answer.trim().toLowerCase() === 'yes';
  } finally {
    rl.close();
  }
}

/**
 * `paideia runs delete ID...`: names each run and what it holds, asks (or takes --yes), then
 * deletes them one by one, each in one transaction. Every id is checked before anything goes.
 */
export async function runsDeleteCommand(ids: string[], f: DeleteFlags): Promise<void> {
  const store = await openStore(f.store, { mustExist: true });
  try {
    const runs: RunRecord[] = [];
    for (const id of ids) {
      const run = await store.getRun(id);
      if (!run) throw new ConfigError([{ field: 'ID', message: `no run "${id}" in ${store.url}; list the run ids with: ${commandHint(['runs'], store.url)}` }]);
      runs.push(run);
    }
    for (const run of runs) process.stderr.write(`${await describe(store, run)}\n`);
    const again = commandHint(['runs', 'delete', ...ids, '--yes', ...(f.force ? ['--force'] : [])], store.url);
    if (!f.yes) {
      if (!process.stdin.isTTY) throw new ConfigError([{ field: '--yes', message: `nothing deleted: stdin is not a terminal, so there is no one to ask; add --yes to delete without asking: ${again}` }]);
      if (!(await confirmed(runs.length))) {
        process.stderr.write('nothing deleted\n');
        return;
      }
    }
    for (const run of runs) {
      try {
        const d = (await store.deleteRun(run.id, { force: f.force ?? false }))!;
        process.stderr.write(`deleted run ${d.runId}: ${d.trials} trial(s), ${d.calls} call(s), ${d.scores} score(s), ${d.judgments} judgment(s), ${d.artifacts} artefact(s), ${d.blobs} blob(s)\n`);
        process.stdout.write(`${d.runId}\n`);
      } catch (error) {
        if (!(error instanceof RunInUseError)) throw error;
        const forced = commandHint(['runs', 'delete', run.id, '--yes', '--force'], store.url);
        throw new ConfigError([{ field: 'ID', message: `run ${run.id} is in use: ${error.usage}. Stop its workers (or wait until their leases run out) and run this again; to delete it anyway (its workers can then store nothing more): ${forced}` }]);
      }
    }
  } finally {
    await store.close();
  }
}

export function registerRunsDelete(runs: Command): void {
  runs.command('delete')
    .description('delete runs with everything stored with them (trials, calls, scores, judgments, artefacts) from the store (--store URL); names each and asks first')
    .argument('<ids...>', 'run ids, as paideia runs lists them')
    .option('--yes', 'delete without asking (needed when stdin is not a terminal)')
    .option('--force', 'delete even while workers hold live claims on the run')
    // --store is the `runs` command's own option (it takes it before or after `delete`).
    .action(async (ids: string[], _f: DeleteFlags, cmd: Command) => runsDeleteCommand(ids, cmd.optsWithGlobals<DeleteFlags>()));
}
