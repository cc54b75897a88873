import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from './load.js';
import { LOOP_SCENARIO, issuesOf, scenarioDir } from './testing/fixtures.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('scenario files that are not UTF-8', () => {
  it('a scenario YAML in Latin-1 is bad input naming the file and the line (never caf\\uFFFD)', () => {
    const dir = scenarioDir({});
    const file = join(dir, 's.yaml');
    const text = LOOP_SCENARIO.replace('Tutor {persona} on', 'Tutor {persona} at the café on');
    writeFileSync(file, latin1(text));
    const line = text.split('\n').findIndex(l => l.includes('café')) + 1;
    expect(issuesOf(() => loadScenario(file))).toEqual([{ file, line, message: expect.stringMatching(new RegExp(`^the scenario is not valid UTF-8 at line ${line} \\(save it as UTF-8`)) }]);
  });

  it('CSV and JSONL task files in Latin-1 name their own file and line', () => {
    const base = LOOP_SCENARIO.replace(/tasks:\n  mode: union\n[\s\S]*?\nevaluation:/, 'tasks:\n  mode: iter\n  start_prompt: "Help me with {problem}"\n  file: FILE\nevaluation:');
    for (const [name, body] of [['t.csv', 'persona,problem\nAna,2x = 6\nBen,un café = x\n'], ['t.jsonl', '{"persona":"Ana","problem":"2x = 6"}\n{"persona":"Ben","problem":"un café"}\n']] as const) {
      const dir = scenarioDir({ 's.yaml': base.replace('FILE', name) });
      writeFileSync(join(dir, name), latin1(body));
      const issues = issuesOf(() => loadScenario(join(dir, 's.yaml'), { env: {} }));
      expect(issues).toContainEqual(expect.objectContaining({ file: join(dir, name), line: name === 't.csv' ? 3 : 2, message: expect.stringMatching(/not valid UTF-8/) }));
    }
  });
});
