import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseModelSpec } from '../core/index.js';
import { loadScenario } from './load.js';
import { scenarioRunId } from './run.js';

const file = fileURLToPath(new URL('../../scenarios/socratic-problem-solving.yaml', import.meta.url));
const models = ['teacher=openai:tutor'].map(m => parseModelSpec(m));

describe('scenario run identity and endpoints', () => {
  it('a model served from another endpoint (here OPENAI_BASE_URL) is another run', () => {
    const id = (env: Record<string, string>) => scenarioRunId(loadScenario(file, { models, env }), 1);
    const a = id({ OPENAI_BASE_URL: 'http://127.0.0.1:8001/v1' });
    expect(id({ OPENAI_BASE_URL: 'http://127.0.0.1:8001/v1' })).toBe(a);
    expect(id({ OPENAI_BASE_URL: 'http://127.0.0.1:8002/v1' })).not.toBe(a);
    expect(id({})).not.toBe(a);
  });
});
