import { parseModelSpec } from '../core/model-spec.js';

/**
 * Model families: a model's developer line, read from its name, because the provider says only
 * which protocol was spoken (`openai:` gateways serve Llama and Qwen too). Judges favour their own
 * family's writing, so the tutor benchmark never lets a judge mark its own family and the scenario
 * report measures self-preference by family. One table serves both.
 */
export interface FamilyRule {
  family: string;
  /** Tested against the model name without any `vendor/` folder, case-insensitively. */
  pattern: RegExp;
}

/** First match wins, so specific names come first: `deepseek-r1-distill-llama` is DeepSeek's. */
export const FAMILY_TABLE: ReadonlyArray<FamilyRule> = [
  { family: 'deepseek', pattern: /deepseek/i },
  { family: 'anthropic', pattern: /claude/i },
  { family: 'openai', pattern: /^(gpt|chatgpt|o[1-9](-|$)|text-davinci|davinci|babbage)/i },
  { family: 'google', pattern: /gemini|gemma|palm|bison/i },
  { family: 'meta', pattern: /llama/i },
  { family: 'mistral', pattern: /mistral|mixtral|ministral|codestral|pixtral|magistral/i },
  { family: 'alibaba', pattern: /qwen|qwq/i },
  { family: 'microsoft', pattern: /^phi(\d|-|:|$)/i },
  { family: 'xai', pattern: /grok/i },
  { family: 'zhipu', pattern: /^glm/i },
  { family: 'moonshot', pattern: /kimi|moonshot/i },
  { family: 'cohere', pattern: /^(command|aya)/i },
];

/** A vendor folder in an OpenRouter-style name (`x-ai/...`) names the family when the table does not. */
const VENDORS: Readonly<Record<string, string>> = {
  openai: 'openai', anthropic: 'anthropic', google: 'google', 'meta-llama': 'meta', meta: 'meta', mistralai: 'mistral',
  qwen: 'alibaba', deepseek: 'deepseek', 'deepseek-ai': 'deepseek', 'x-ai': 'xai', cohere: 'cohere', microsoft: 'microsoft',
};

/** Providers that serve only their own line (and Paideia's reference systems). */
const PROVIDER_FAMILY: Readonly<Record<string, string>> = { anthropic: 'anthropic', baseline: 'baseline', replay: 'replay' };

export interface ModelFamily {
  family: string;
  /** `config`: given by the user; `table`: FAMILY_TABLE; `vendor`/`provider`: from the name's folder or the provider; `model`: the fallback. */
  source: 'config' | 'table' | 'vendor' | 'provider' | 'model';
}

/**
 * The base model of an OpenAI fine-tune, `ft:<base>:<org>:<suffix>:<id>` (`ft:gpt-4o-mini-2024-07-18:org::id`
 * is `gpt-4o-mini-2024-07-18`): only the base is read, so neither the `ft` prefix nor an organisation
 * or suffix that happens to contain a family's name decides the family. Other names are returned as given.
 */
export function baseOfFineTune(name: string): string {
  const m = /^ft:([^:]+)/i.exec(name);
  return m ? m[1]! : name;
}

/**
 * The family of a `provider:model` spec (a fine-tune `ft:<base>:...` is read as its base model, see
 * baseOfFineTune): an explicit family wins; then the table; then a vendor
 * folder; then a provider that serves only its own models; else the first token of the model name
 * (letters and digits, lower-cased), so `olmo-2-13b` and `olmo-2-7b` are one family.
 */
export function modelFamily(spec: string, explicit?: string): ModelFamily {
  if (explicit) return { family: explicit, source: 'config' };
  const { provider, model } = parseModelSpec(spec);
  const slash = model.lastIndexOf('/');
  const bare = baseOfFineTune(model.slice(slash + 1));
  const rule = FAMILY_TABLE.find(r => r.pattern.test(bare));
  if (rule) return { family: rule.family, source: 'table' };
  const vendor = slash > 0 ? VENDORS[model.slice(0, model.indexOf('/')).toLowerCase()] : undefined;
  if (vendor) return { family: vendor, source: 'vendor' };
  if (PROVIDER_FAMILY[provider]) return { family: PROVIDER_FAMILY[provider]!, source: 'provider' };
  const lower = bare.toLowerCase();
  return { family: /[a-z0-9]+/.exec(lower)?.[0] ?? lower, source: 'model' };
}

/**
 * The family of a model in a run, for the rule that a judge never marks its own family: a family
 * given for its alias (`--judge-family alias=family`) wins over the table.
 */
export function familyOf(model: { alias: string; spec: string }, overrides: Readonly<Record<string, string>>): string {
  return modelFamily(model.spec, overrides[model.alias]).family;
}
