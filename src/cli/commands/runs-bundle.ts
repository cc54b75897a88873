import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { openStore } from '../../store/index.js';
import { renderRunBundle } from '../../web/bundle.js';
import { environmentRedactor } from '../../web/trial-detail.js';
import { commandHint } from '../hint.js';
import { writeOutFile } from '../report-out.js';

interface BundleFlags { store: string; out?: string }

/**
 * `paideia runs bundle ID --out FILE`: the run as one static HTML file, as the web app's
 * *Static bundle* downloads it (like Inspect's `view bundle`): opens from disk, runs no script.
 */
export function registerRunsBundle(runs: Command): void {
  runs.command('bundle <run-id>')
    .description('write a run as one static HTML file (results, figures, trials, raw calls; no script, no server) from the store (--store URL)')
    .option('--out <file>', 'where to write it (default <run-id>.html)')
    // --store is the `runs` command's own option (it takes it before or after `bundle`): an option
    // of the same name here would never be set, as commander gives the flag to `runs`.
    .action(async (runId: string, _f: BundleFlags, cmd: Command) => {
      const f = cmd.optsWithGlobals<BundleFlags>();
      const store = await openStore(f.store, { mustExist: true, readOnly: true });
      try {
        // Keys of this environment never reach the file, as they never reach the web app's pages.
        const html = await renderRunBundle(store, runId, environmentRedactor(process.env));
        if (html === undefined) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}` }]);
        const out = resolve(f.out ?? `${runId}.html`);
        writeOutFile(out, html, '--out');
        process.stderr.write(`bundle: ${out} (${html.length.toLocaleString('en')} characters; open it in a browser)\n`);
      } finally {
        await store.close();
      }
    });
}
