import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatFigure, type BenchModule } from './harness.js';

// Runs every bench/*.bench.ts (compiled), or only those whose name contains an argument. Some run
// only when named: the million-trial bench takes minutes and gigabytes of disk.
const BY_NAME_ONLY = new Set(['million.bench.js']);
const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter(f => f.endsWith('.bench.js'))
  .filter(f => (filters.length === 0 && !BY_NAME_ONLY.has(f)) || filters.some(x => f.includes(x)))
  .sort();
let missed = 0;
for (const file of files) {
  console.log(`\n== ${file.replace(/\.bench\.js$/, '')}`);
  const mod = (await import(pathToFileURL(`${here}/${file}`).href)) as BenchModule;
  for (const figure of await mod.default()) {
    console.log(formatFigure(figure));
    if (!figure.met) missed++;
  }
}
console.log(`\n${files.length} benchmark files; ${missed} figure(s) missed their target.`);
