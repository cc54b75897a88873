/**
 * The long fuzz run: `npx tsx test/fuzz/run.ts [--cases 2000] [--seed 1] [--timeout-ms 10000]`.
 * Cases run in a child process; a case that neither finishes nor fails within the timeout is a
 * hang, the child is replaced and the run goes on. Prints the counts and every crash and hang,
 * and exits 1 if there was any.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { itemCases, scenarioCases, type FuzzCase } from './mutate.js';
import { runCase } from './oracle.js';
import { SCENARIO_SEEDS, VALID_ITEM } from './seeds.js';

type Kind = 'items' | 'scenario';
const casesOf = (kind: Kind, seed: number, count: number): FuzzCase[] =>
  kind === 'items' ? itemCases(seed, count, VALID_ITEM) : scenarioCases(seed + 1, count, SCENARIO_SEEDS);

if (process.argv[2] === '--child') {
  const { kind, seed, count, from, dir } = JSON.parse(process.argv[3]!) as { kind: Kind; seed: number; count: number; from: number; dir: string };
  const cases = casesOf(kind, seed, count).slice(from);
  // Making the cases takes a while; the per-case clock starts after this.
  process.send!({ ready: true });
  for (const c of cases) {
    process.send!({ index: c.index, label: c.label.slice(0, 160), outcome: runCase(kind, c, dir) });
  }
  process.send!({ done: true }, () => process.exit(0));
} else {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const count = arg('cases', 2000);
  const seed = arg('seed', 1);
  const timeoutMs = arg('timeout-ms', 10_000);
  const dir = mkdtempSync(join(tmpdir(), 'paideia-fuzz-run-'));
  let failures = 0;
  for (const kind of ['items', 'scenario'] as const) {
    const counts = { loaded: 0, refused: 0, crashed: 0, hung: 0 };
    let next = 0;
    while (next < count) {
      next = await new Promise<number>(resolve => {
        const child = fork(new URL(import.meta.url).pathname, ['--child', JSON.stringify({ kind, seed, count, from: next, dir })], { execArgv: ['--import', 'tsx'] });
        let finished = false;
        let at = next;
        // Before the child is ready only a dead child counts (see 'exit').
        let timer: NodeJS.Timeout | undefined;
        function onHang() {
          counts.hung++;
          console.log(`${kind} case ${at}: no answer within ${timeoutMs} ms (hang)`);
          finished = true;
          child.kill('SIGKILL');
          resolve(at + 1);
        }
        child.on('message', (m: { ready?: boolean; done?: boolean; index: number; label: string; outcome: { kind: 'loaded' | 'refused' | 'crashed'; why?: string } }) => {
          clearTimeout(timer);
          if (m.ready) {
            timer = setTimeout(onHang, timeoutMs);
            return;
          }
          if (m.done) {
            finished = true;
            return resolve(count);
          }
          counts[m.outcome.kind]++;
          if (m.outcome.kind === 'crashed') console.log(`${kind} case ${m.index} (${m.label}): ${m.outcome.why}`);
          at = m.index + 1;
          timer = setTimeout(onHang, timeoutMs);
        });
        child.on('exit', code => {
          if (finished) return;
          clearTimeout(timer);
          counts.crashed++;
          console.log(`${kind} case ${at}: the process died (exit ${code}), e.g. out of memory`);
          resolve(at + 1);
        });
      });
    }
    console.log(`${kind}: ${count} cases (seed ${seed}): ${counts.loaded} loaded, ${counts.refused} refused with file and line, ${counts.crashed} crashed, ${counts.hung} hung`);
    failures += counts.crashed + counts.hung;
  }
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = failures > 0 ? 1 : 0;
}
