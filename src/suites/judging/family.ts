/**
 * Model families, so a judge never marks a model of its own family (judges favour their own
 * family's writing). Documented in docs/tutor-benchmark.md; `--judge-family alias=family` overrides
 * the table for any alias.
 */

/** A vendor folder in an OpenRouter-style model name (`meta-llama/llama-3.1-70b`) names the family. */
const VENDORS: Record<string, string> = {
  openai: 'openai', anthropic: 'anthropic', google: 'google', 'meta-llama': 'meta', meta: 'meta',
  mistralai: 'mistral', qwen: 'alibaba', deepseek: 'deepseek', 'deepseek-ai': 'deepseek', 'x-ai': 'xai',
  cohere: 'cohere', microsoft: 'microsoft',
};

/** Name prefixes (of the model name after any vendor folder), matched when no letter follows. */
const PREFIXES: Array<[prefix: string, family: string]> = [
  ['gpt', 'openai'], ['chatgpt', 'openai'], ['o1', 'openai'], ['o3', 'openai'], ['o4', 'openai'],
  ['claude', 'anthropic'],
  ['gemini', 'google'], ['gemma', 'google'],
  ['meta-llama', 'meta'], ['llama', 'meta'],
  ['mistral', 'mistral'], ['mixtral', 'mistral'], ['ministral', 'mistral'], ['codestral', 'mistral'],
  ['qwen', 'alibaba'], ['qwq', 'alibaba'],
  ['deepseek', 'deepseek'],
  ['grok', 'xai'],
  ['command', 'cohere'],
  ['phi', 'microsoft'],
];

/** Providers whose name alone fixes the family. */
const PROVIDER_FAMILY: Record<string, string> = { anthropic: 'anthropic', baseline: 'baseline', replay: 'replay' };

/**
 * The family of a `provider:model` spec: the provider when it fixes one (anthropic, baseline,
 * replay), else a vendor folder in the name, else the table of name prefixes, else the first
 * token of the model name (letters and digits), lower-cased.
 */
export function modelFamily(spec: string): string {
  const sep = spec.indexOf(':');
  const provider = sep > 0 ? spec.slice(0, sep) : '';
  const name = (sep > 0 ? spec.slice(sep + 1) : spec).toLowerCase();
  if (PROVIDER_FAMILY[provider]) return PROVIDER_FAMILY[provider];
  const slash = name.lastIndexOf('/');
  if (slash > 0) {
    const vendor = VENDORS[name.slice(0, name.indexOf('/'))];
    if (vendor) return vendor;
  }
  const last = name.slice(slash + 1);
  for (const [prefix, family] of PREFIXES) {
    if (last.startsWith(prefix) && !/[a-z]/.test(last.charAt(prefix.length))) return family;
  }
  return /[a-z0-9]+/.exec(last)?.[0] ?? last;
}

/** The family of a model in a run: an override by alias wins over the table. */
export function familyOf(model: { alias: string; spec: string }, overrides: Readonly<Record<string, string>>): string {
  return overrides[model.alias] ?? modelFamily(model.spec);
}
