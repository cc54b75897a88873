import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder holding Paideia's package.json, from src/ (tsx, vitest) and from dist/ alike. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'paideia') return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the paideia package root');
    dir = up;
  }
}
