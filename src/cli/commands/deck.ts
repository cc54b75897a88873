import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import type { SanitisationEntry } from '../../learning/decks/index.js';
import { buildOutline, findUnit, loadUnits } from '../../learning/units/index.js';
import { packageRoot } from '../../core/package-root.js';
import { makeOutFolder, writeOutFile } from '../report-out.js';

// jsdom, DOMPurify and playwright are loaded only when a deck command runs: every other verb starts
// without paying for them.
const decks = () => import('../../learning/decks/index.js');

async function readDeck(file: string): Promise<{ html: string; removed: SanitisationEntry[] }> {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError([{ file, message: 'cannot read the deck; pass an HTML file with one <section class="slide"> per slide' }]);
  }
  const deck = (await decks()).sanitiseDeck(raw);
  if (!deck.ok) throw new ConfigError([{ file, message: `not a deck (${deck.reason}): ${deck.message}` }]);
  return { html: deck.html, removed: deck.report };
}

const describeRemoval = (e: SanitisationEntry) => `removed ${e.kind} <${e.element}>${e.detail ? ` ${e.detail}` : ''}`;

export function registerDeck(program: Command, out: (t: string) => void = t => process.stdout.write(t), err: (t: string) => void = t => process.stderr.write(t)): void {
  const deck = program.command('deck').description('sanitise, render and measure slide decks (headless Debian Chromium, offline)');
  deck.command('render')
    .description('write one 1280x720 PNG per <section class="slide"> (byte-identical across runs)')
    .argument('<deck>', 'HTML deck')
    .requiredOption('--out <dir>', 'folder for slide-01.png, slide-02.png, ...')
    .action(async (file: string, f: { out: string }) => {
      const { html, removed } = await readDeck(file);
      for (const e of removed) err(`${file}: ${describeRemoval(e)}\n`);
      // Before the browser starts: a folder that cannot be made fails at once, not after the render.
      makeOutFolder(f.out, '--out');
      const { launchBrowser, renderSlides } = await decks();
      const browser = await launchBrowser();
      try {
        const pngs = await renderSlides(browser, html, basename(file));
        pngs.forEach((png, i) => writeOutFile(join(f.out, `slide-${String(i + 1).padStart(2, '0')}.png`), png, '--out'));
        out(`${pngs.length} slides written to ${f.out}\n`);
      } finally {
        await browser.close();
      }
    });
  deck.command('metrics')
    .description('D3 visual metrics: slides, words, wordsPerSlide, tables, images, colours, exercises, overflowSlides, visualAids, contrastFailures')
    .argument('<deck>', 'HTML deck')
    .option('--unit <id>', 'the unit the deck teaches, so visualAids can count the aids its outline requested')
    .option('--units <paths...>', 'unit files or folders (default: the shipped data/units)')
    .option('--format <format>', 'json', 'json')
    .action(async (file: string, f: { unit?: string; units?: string[]; format: string }) => {
      if (f.format !== 'json') throw new ConfigError([{ field: '--format', message: `expected json, got "${f.format}"` }]);
      const outline = f.unit ? buildOutline(findUnit(loadUnits(f.units ?? [join(packageRoot(), 'data', 'units')]), f.unit).unit) : undefined;
      const { html, removed } = await readDeck(file);
      const { launchBrowser, measureDeck } = await decks();
      const browser = await launchBrowser();
      try {
        const metrics = await measureDeck(browser, html, outline);
        out(`${JSON.stringify({ ...metrics, sanitisation: removed }, null, 2)}\n`);
      } finally {
        await browser.close();
      }
    });
}
