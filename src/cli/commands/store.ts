import type { Command } from 'commander';
import { copyRun } from '../../store/copy.js';
import { openStore } from '../../store/index.js';

/**
 * Copy runs between stores: one with --run (refused if TO holds it), else every run FROM holds
 * but TO does not: a run TO holds already is skipped and named, so copying a store again adds
 * its new runs (a copy never mixes two histories of one run).
 */
export async function storeCopyCommand(fromUrl: string, toUrl: string, f: { run?: string }): Promise<void> {
  const from = await openStore(fromUrl, { mustExist: true, readOnly: true });
  try {
    const to = await openStore(toUrl);
    try {
      const ids = f.run ? [f.run] : (await from.listRuns()).map(r => r.id);
      const skipped: string[] = [];
      for (const id of ids) {
        if (!f.run && (await to.getRun(id))) {
          skipped.push(id);
          continue;
        }
        const c = await copyRun(from, to, id);
        process.stderr.write(`copied run ${id}: ${c.trials} trial(s), ${c.calls} call(s), ${c.scores} score(s), ${c.judgments} judgment(s), ${c.artifacts} artefact(s), ${c.blobs} blob(s) to ${to.url}\n`);
        if (c.missingBlobs.length) process.stderr.write(`warning: run ${id} points at ${c.missingBlobs.length} blob(s) that ${from.url} does not hold (${c.missingBlobs.slice(0, 3).join(', ')}${c.missingBlobs.length > 3 ? ', ...' : ''}); the copy lacks them as the source does\n`);
        process.stdout.write(`${id}\n`);
      }
      if (skipped.length) process.stderr.write(`skipped ${skipped.length} run(s) ${to.url} holds already (left as they are there): ${skipped.join(', ')}\n`);
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}

export function registerStore(program: Command): void {
  const store = program.command('store').description('move runs between stores');
  store.command('copy')
    .description('copy runs, with everything stored with them, from one store to another (sqlite:<path> <-> postgres://...)')
    .argument('<from>', 'store URL to read, e.g. sqlite:.paideia/paideia.db')
    .argument('<to>', 'store URL to write, e.g. postgres://paideia@db.lab:5432/paideia')
    .option('--run <run-id>', 'only this run (default: every run, skipping those TO holds already)')
    .action(async (from: string, to: string, f: { run?: string }) => storeCopyCommand(from, to, f));
}
