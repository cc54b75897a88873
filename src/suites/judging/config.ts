import { z } from 'zod';
import { ConfigError, parseModelSpec, type ChatParams, type ModelSpec, type Store } from '../../core/index.js';
import { familyOf } from '../../providers/family.js';
import { RUBRIC_VERSION } from './rubric.js';

/** Artifact kind (and key) under which a run keeps its judging set-up, so report and rescore need no flags. */
export const JUDGING_ARTIFACT = { kind: 'explanation-judging', key: 'config' } as const;

/** One judge of the panel. */
export interface JudgeSetup {
  alias: string;
  /** Canonical `provider:model`. */
  spec: string;
  family: string;
}

/** How a run's explanations are judged; stored with the run as an artifact. */
export interface JudgingConfig {
  specVersion: 'paideia.explanation-judging.v1';
  /** Exactly two judges of different families. */
  judges: [JudgeSetup, JudgeSetup];
  /** `--judge-family alias=family`, applied to judges and models alike. */
  familyOverrides: Record<string, string>;
  rubric: string;
  /** Extra asks after an answer that does not fit `{pass, reason}`. */
  formatRetries: number;
  /** Attempts per judge call (retries on provider errors included) before the explanation is left unscored. */
  maxAttempts: number;
  params: ChatParams;
  /** Endpoint of each HTTP judge by alias, stored so a resumed run asks the same servers. */
  endpoints?: Record<string, string>;
}

const SetupSchema = z.object({ alias: z.string(), spec: z.string(), family: z.string() });
const ConfigSchema = z.object({
  specVersion: z.literal('paideia.explanation-judging.v1'),
  judges: z.tuple([SetupSchema, SetupSchema]),
  familyOverrides: z.record(z.string(), z.string()),
  rubric: z.string(),
  formatRetries: z.number().int().min(0),
  maxAttempts: z.number().int().min(1),
  params: z.looseObject({}),
  // Read back, not stripped: a resume calls each judge where the run called it.
  endpoints: z.record(z.string(), z.string()).optional(),
});

/**
 * Build the judging set-up from `--judge alias=spec` (exactly two) and `--judge-family alias=family`
 * flags. Two judges of one family, or a judge alias that is also a model's, is bad input (exit 2).
 */
export function judgingConfig(judgeFlags: string[], familyFlags: string[] = [], models: ModelSpec[] = []): JudgingConfig {
  const overrides: Record<string, string> = {};
  for (const f of familyFlags) {
    const eq = f.indexOf('=');
    const alias = f.slice(0, eq).trim();
    const family = f.slice(eq + 1).trim().toLowerCase();
    if (eq <= 0 || !alias || !family) throw new ConfigError([{ field: '--judge-family', message: `expected alias=family, e.g. judge-a=openai, got "${f}"` }]);
    overrides[alias] = family;
  }
  if (judgeFlags.length !== 2) {
    throw new ConfigError([{ field: '--judge', message: `explanations need exactly two judges of different families, got ${judgeFlags.length}; e.g. --judge a=openai:gpt-4.1 --judge b=anthropic:claude-sonnet-4` }]);
  }
  const specs = judgeFlags.map(j => parseModelSpec(j, { field: '--judge' }));
  const scripted = specs.find(s => s.provider === 'baseline' || s.provider === 'replay');
  if (scripted) throw new ConfigError([{ field: '--judge', message: `${scripted.spec} cannot judge: a judge must be a model (openai:, anthropic:, ollama:)` }]);
  const judges = specs.map(s => ({ alias: s.alias, spec: s.spec, family: familyOf(s, overrides) })) as [JudgeSetup, JudgeSetup];
  const [a, b] = judges;
  if (a.alias === b.alias) throw new ConfigError([{ field: '--judge', message: `judge alias "${a.alias}" is used twice; name them: a=${a.spec} b=${b.spec}` }]);
  if (a.family === b.family) {
    throw new ConfigError([{ field: '--judge', message: `both judges are of the family "${a.family}" (${a.spec}, ${b.spec}); pick judges of different families, or correct the family with --judge-family alias=family` }]);
  }
  const clash = judges.find(j => models.some(m => m.alias === j.alias));
  if (clash) throw new ConfigError([{ field: '--judge', message: `judge alias "${clash.alias}" is also a model's alias; give the judge another name: other=${clash.spec}` }]);
  for (const alias of Object.keys(overrides)) {
    if (!judges.some(j => j.alias === alias) && !models.some(m => m.alias === alias)) {
      throw new ConfigError([{ field: '--judge-family', message: `no judge or model has the alias "${alias}"` }]);
    }
  }
  return {
    specVersion: 'paideia.explanation-judging.v1', judges, familyOverrides: overrides, rubric: RUBRIC_VERSION,
    formatRetries: 2, maxAttempts: 3, params: { temperature: 0 },
  };
}

/** The judges as model specs, for building the models. */
export function judgeSpecs(config: JudgingConfig): ModelSpec[] {
  return config.judges.map(j => ({ ...parseModelSpec(j.spec), alias: j.alias }));
}

export async function saveJudgingConfig(store: Store, runId: string, config: JudgingConfig): Promise<void> {
  await store.putArtifact(runId, JUDGING_ARTIFACT.kind, JUDGING_ARTIFACT.key, JSON.parse(JSON.stringify(config)));
}

/** The run's stored judging set-up, or undefined when its explanations were never judged. */
export async function loadJudgingConfig(store: Store, runId: string): Promise<JudgingConfig | undefined> {
  const found = (await store.listArtifacts(runId, JUDGING_ARTIFACT.kind)).find(a => a.key === JUDGING_ARTIFACT.key);
  if (!found) return undefined;
  return ConfigSchema.parse(found.value) as JudgingConfig;
}
