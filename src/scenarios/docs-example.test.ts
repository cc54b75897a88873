import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScenario } from './load.js';

const doc = fileURLToPath(new URL('../../docs/scenarios.md', import.meta.url));
// Read as if it were a file in scenarios/, where its script lives.
const asShipped = fileURLToPath(new URL('../../scenarios/docs-example.yaml', import.meta.url));

describe('the scenario file docs/scenarios.md shows', () => {
  it('is a valid scenario as printed: every model it names is declared, its script exists', () => {
    const text = readFileSync(doc, 'utf8');
    const yaml = /## The file\n\n```yaml\n([\s\S]*?)```/.exec(text)?.[1];
    expect(yaml).toBeDefined();
    const scenario = parseScenario(asShipped, yaml!, { env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' } });
    expect(scenario.name).toBe('socratic_problem_solving');
    expect(scenario.evaluation?.judges).toEqual(['judge_a', 'judge_b']);
    expect(scenario.tasks).toHaveLength(4);
  });
});
