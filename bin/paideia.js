#!/usr/bin/env node
// The package's command, a file that exists before any build. npm links a bin only if its file is
// there when it installs, and `npx paideia` in a fresh checkout installs (and caches) the checkout
// itself: a bin pointing into dist/ before the first build stayed "paideia: not found" for good,
// even after building. This launcher is always linked and runs the built CLI, or says how to build it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.stderr.write(`paideia is not built yet: run "npm ci && npm run build" in ${root}, then the same command again\n`);
  process.exit(2);
}
await import(entry.href);
