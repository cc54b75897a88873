import { ConfigError } from './errors.js';

/** Providers a model spec may name. */
export const PROVIDERS = ['openai', 'anthropic', 'ollama', 'baseline', 'replay'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** `provider:model`, e.g. `openai:gpt-4.1`, `baseline:gold`, `replay:run-abc`. */
export type ModelSpecString = `${ProviderName}:${string}`;

/** A parsed model spec, with the alias it goes by in a run. */
export interface ModelSpec {
  /** Name in tables and in scenario role bindings; defaults to the spec string. */
  alias: string;
  provider: ProviderName;
  model: string;
  /** The canonical `provider:model` string. */
  spec: ModelSpecString;
  /**
   * Declared by the binding (a run config's `images: true`), never by the spec string or the
   * model's name: the model accepts image parts. Not part of the model's identity.
   */
  images?: boolean;
}

const EXPECTED =
  'expected "provider:model" or "alias=provider:model", with provider one of ' +
  PROVIDERS.join(', ') +
  ' (e.g. openai:gpt-4.1, judge=anthropic:claude-sonnet-4, baseline:gold)';

/** The one place model specs are parsed. */
export function parseModelSpec(text: string, where: { field?: string; file?: string; line?: number } = {}): ModelSpec {
  const trimmed = text.trim();
  const eq = trimmed.indexOf('=');
  const colon = trimmed.indexOf(':');
  const hasAlias = eq > 0 && (colon < 0 || eq < colon);
  const alias = hasAlias ? trimmed.slice(0, eq).trim() : undefined;
  const rest = hasAlias ? trimmed.slice(eq + 1).trim() : trimmed;
  const sep = rest.indexOf(':');
  const fail = (why: string): never => {
    throw new ConfigError([{ ...where, field: where.field ?? 'model', message: `bad model spec "${text}": ${why}; ${EXPECTED}` }]);
  };
  if (sep <= 0) fail('no provider prefix');
  const provider = rest.slice(0, sep);
  const model = rest.slice(sep + 1);
  if (!(PROVIDERS as readonly string[]).includes(provider)) fail(`unknown provider "${provider}"`);
  if (!model) fail('empty model name');
  if (alias !== undefined && !/^[A-Za-z0-9_.-]+$/.test(alias)) fail(`alias "${alias}" may hold only letters, digits, _ . -`);
  const spec = `${provider}:${model}` as ModelSpecString;
  return { alias: alias ?? spec, provider: provider as ProviderName, model, spec };
}
