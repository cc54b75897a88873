import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';

const COUNTED = fileURLToPath(new URL('../../learning/decks/__fixtures__/counted.html', import.meta.url));

describe('paideia deck', () => {
  it('render writes one PNG per slide; metrics prints the public keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deck-cli-'));
    const render = await runCli(['deck', 'render', COUNTED, '--out', join(dir, 'png')], { cwd: dir });
    expect(render).toMatchObject({ code: 0, stdout: `3 slides written to ${join(dir, 'png')}\n` });
    expect(['slide-01.png', 'slide-02.png', 'slide-03.png'].map(f => existsSync(join(dir, 'png', f)))).toEqual([true, true, true]);
    expect(readFileSync(join(dir, 'png', 'slide-01.png')).subarray(1, 4).toString()).toBe('PNG');
    const metrics = await runCli(['deck', 'metrics', COUNTED, '--format', 'json', '--unit', 'chickasaw-case-and-person'], { cwd: dir });
    expect(metrics.code).toBe(0);
    const m = JSON.parse(metrics.stdout) as Record<string, unknown>;
    expect(Object.keys(m)).toEqual(['slides', 'words', 'wordsPerSlide', 'tables', 'images', 'colours', 'exercises', 'overflowSlides', 'visualAids', 'contrastFailures', 'sanitisation']);
    expect(m).toMatchObject({ slides: 3, words: 15, visualAids: 1 });
  });

  it('render --out naming a file, or a folder under one, exits 2 naming --out before any browser starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deck-cli-'));
    const file = join(dir, 'out.file');
    writeFileSync(file, '');
    for (const out of [file, join(file, 'x')]) {
      const r = await runCli(['deck', 'render', COUNTED, '--out', out], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: field "--out": cannot write ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((it is a file, not a folder|a part of the path is a file, not a folder)\\): name a folder you can write`, 'm'));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a file that is not a deck exits 2 naming the file and the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deck-cli-'));
    writeFileSync(join(dir, 'answer.html'), 'Here are your slides!');
    const r = await runCli(['deck', 'metrics', join(dir, 'answer.html')], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${join(dir, 'answer.html')}: not a deck (not-html): the answer holds no HTML document (no <html>, <body> or <section>)\n`);
  });
});
