import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/index.js';
import { buildSuites } from './build.js';
import { loadBuildConfig } from './build-config.js';

const shipped = resolve('data/sources');

function config(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'paideia-build-config-')), 'suites.yaml');
  writeFileSync(file, text);
  return file;
}

describe('suites build config', () => {
  it('runs the morphology-and-sentences builders over other folders under another language, with its own credits', async () => {
    const file = config(`
suites:
  - builders: morphology-and-sentences
    suite: demo-gv
    language: gv
    morphology: ${shipped}/bunamo
    sentences: ${shipped}/irish-sentence-bank
    licence: ODbL-1.0
    morphologyDataset: Demo morphology
    sentenceDataset: Demo sentences
credits:
  - dataset: Demo morphology
    title: A demo morphology database
    url: https://example.org/morph
    licence: ODbL 1.0
    notice: Contains information from the demo morphology.
    obligations: Share derived databases alike.
`);
    const { builders, credits } = loadBuildConfig(file);
    expect(builders.map(b => `${b.suite}/${b.test}`)).toEqual(['demo-gv/grammar_forms', 'demo-gv/translation', 'demo-gv/round_trip', 'demo-gv/tutor_accuracy']);
    const out = mkdtempSync(join(tmpdir(), 'paideia-build-out-'));
    await buildSuites({ builders: builders.filter(b => b.test === 'grammar_forms'), credits, sourcesDir: shipped, privateDir: join(out, 'private'), samplesDir: join(out, 'samples'), targetPerTest: 40 });
    const lines = readFileSync(join(out, 'samples', 'demo-gv', 'grammar_forms.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
    expect(lines).toHaveLength(20);
    expect(lines.every(i => i.language === 'gv' && i.source.dataset === 'Demo morphology')).toBe(true);
    expect(readFileSync(join(out, 'samples', 'demo-gv', 'ATTRIBUTION.md'), 'utf8')).toContain('Contains information from the demo morphology.');
  });

  it('reports every problem with its line and field', () => {
    const file = config(`suites:
  - builders: morphology-and-sentences
    suite: Welsh!
    morphology: m
    sentences: s
  - builders: nothing-like-this
credits: []
`);
    let error: ConfigError | undefined;
    try {
      loadBuildConfig(file);
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const where = error!.issues.map(i => `${i.line}:${i.field}`);
    expect(where).toEqual(expect.arrayContaining(['3:suites.0.suite', '6:suites.1.builders']));
    expect(error!.issues.some(i => i.field === 'suites.0.language')).toBe(true);
  });

  it('names a YAML syntax error by line', () => {
    expect(() => loadBuildConfig(config('suites:\n  - builders: [unclosed\n'))).toThrow(ConfigError);
  });
});
