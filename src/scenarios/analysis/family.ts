/**
 * Model families for the self-preference check: a judge may favour answers of its own lineage
 * (same developer, shared training data and preference tuning). A family is the developer's
 * line, read from the model name, because the provider says only which protocol was spoken
 * (`openai` serves Llama and Qwen through compatible gateways).
 */
export interface FamilyRule {
  family: string;
  /** Tested against the model name without any `vendor/` prefix, case-insensitively. */
  pattern: RegExp;
}

/**
 * First match wins, so the more specific names come first: a `deepseek-r1-distill-llama` is
 * DeepSeek's model, and `gpt-oss` is OpenAI's.
 */
export const FAMILY_TABLE: ReadonlyArray<FamilyRule> = [
  { family: 'deepseek', pattern: /deepseek/i },
  { family: 'anthropic', pattern: /claude/i },
  { family: 'openai', pattern: /^(gpt|chatgpt|o[1-9](-|$)|text-davinci|davinci|babbage)/i },
  { family: 'google', pattern: /gemini|gemma|palm|bison/i },
  { family: 'meta', pattern: /llama/i },
  { family: 'mistral', pattern: /mistral|mixtral|ministral|codestral|pixtral|magistral/i },
  { family: 'qwen', pattern: /qwen|qwq/i },
  { family: 'microsoft', pattern: /^phi/i },
  { family: 'xai', pattern: /grok/i },
  { family: 'zhipu', pattern: /glm/i },
  { family: 'moonshot', pattern: /kimi|moonshot/i },
  { family: 'cohere', pattern: /^(command|aya)/i },
];

export interface ModelFamily {
  family: string;
  /** `config`: the scenario's `family:` key; `table`: FAMILY_TABLE; `provider`/`model`: fallbacks. */
  source: 'config' | 'table' | 'provider' | 'model';
}

/**
 * The family of a `provider:model` spec. An explicit `family:` wins; then the table; then the
 * provider for the two that serve only their own models (`anthropic`, and `baseline` for the
 * reference systems); else the spec itself, so an unknown model is only its own family.
 */
export function familyOf(spec: string, explicit?: string): ModelFamily {
  if (explicit) return { family: explicit, source: 'config' };
  const colon = spec.indexOf(':');
  const provider = colon > 0 ? spec.slice(0, colon) : '';
  const model = colon > 0 ? spec.slice(colon + 1) : spec;
  const bare = model.slice(model.lastIndexOf('/') + 1);
  const rule = FAMILY_TABLE.find(r => r.pattern.test(bare));
  if (rule) return { family: rule.family, source: 'table' };
  if (provider === 'anthropic' || provider === 'baseline') return { family: provider, source: 'provider' };
  return { family: spec, source: 'model' };
}
