import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/index.js';
import { LearningRunConfigSchema } from '../learning/run/config.js';
import { startRun } from '../runs.js';
import { openStore } from '../store/index.js';
import { SuiteRunConfigSchema } from '../suites/run-kind.js';
import { fieldOfFlag, pageIssues } from './api-launch-issues.js';

const suiteFields = new Set(Object.keys(SuiteRunConfigSchema.shape));
const learningFields = new Set(Object.keys(LearningRunConfigSchema.shape));

describe('launch problems named as the page names its fields', () => {
  it('finds the config field of each flag the run kinds name', () => {
    expect(['--model', '--judge', '--judge-family', '--cost-cap', '--repeats'].map(f => fieldOfFlag(f, suiteFields))).toEqual(['models', 'judges', 'judgeFamilies', 'costCapUsd', 'repeats']);
    expect(['--generator', '--learner', '--images', '--units', '--inject'].map(f => fieldOfFlag(f, learningFields))).toEqual(['generators', 'learners', 'imageModels', 'units', 'inject']);
    expect(fieldOfFlag('--store', suiteFields)).toBeUndefined();
  });

  it('turns the real problems of a suite run started with no models into the page\'s field and words', async () => {
    const store = await openStore('sqlite::memory:');
    const error = await startRun({ kind: 'suite', suites: ['data/samples/english'], models: [] }, { store }).done.catch((e: unknown) => e);
    await store.close();
    expect(error).toBeInstanceOf(ConfigError);
    const raw = (error as ConfigError).issues;
    expect(raw.map(i => i.field)).toEqual(['--model']);
    expect(pageIssues(raw, suiteFields)).toEqual([{ field: 'models', message: 'name at least one model, e.g. baseline:gold openai:gpt-4.1-mini' }]);
  });

  it('keeps dot-paths to their field, fields it does not know as they are, and bare flags as field names', () => {
    expect(pageIssues([
      { field: 'models.1', message: 'bad model spec "x": no provider prefix' },
      { field: '(config)', message: 'Unrecognized key: "nope"' },
      { field: '--judge-family', message: 'only means something with two --judge flags' },
      { field: '--store', message: 'keep --store sqlite:x as it is' },
    ], suiteFields)).toEqual([
      { field: 'models', message: 'bad model spec "x": no provider prefix' },
      { field: '(config)', message: 'Unrecognized key: "nope"' },
      { field: 'judgeFamilies', message: 'only means something with two judges flags' },
      { field: '--store', message: 'keep --store sqlite:x as it is' },
    ]);
  });
});
