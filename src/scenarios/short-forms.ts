import type { ConfigIssue } from '../core/errors.js';
import type { YamlSource } from '../core/config/yaml-source.js';
import type { ModelConfigInput, PromptMessageInput, ScenarioFile } from './schema.js';

/** An agent with its model alias and prompt list spelled out. */
export type ExpandedAgent = Omit<ScenarioFile['agents'][string], 'model' | 'prompt' | 'role' | 'content'> & {
  model: string;
  prompt: PromptMessageInput[];
};

/** A scenario file with the Elmes+ short forms written out; what the loader resolves and the store keeps. */
export type ExpandedScenarioFile = Omit<ScenarioFile, 'models' | 'agents'> & {
  models: Record<string, ModelConfigInput | null>;
  agents: Record<string, ExpandedAgent>;
};

/**
 * The Elmes+ paper's short forms, written out with the meaning it gives them:
 * - an agent with `role`/`content` inline has that one prompt message (role default system);
 * - an agent with no model (null or absent) uses the model of its own name;
 * - a model given as null, an agent's model when the file has no `models`, and the model of an
 *   agent without one when `models` lacks it are models to bind on the command line (`--model <alias>=provider:model`); resolveModel says so when none is bound.
 */
export function expandShortForms(data: ScenarioFile, source: YamlSource, issues: ConfigIssue[]): ExpandedScenarioFile {
  const models: Record<string, ModelConfigInput | null> = { ...(data.models ?? {}) };
  const agents: Record<string, ExpandedAgent> = {};
  for (const [name, a] of Object.entries(data.agents)) {
    const { role, content, prompt, model, ...rest } = a;
    const alias = model ?? name;
    let messages: PromptMessageInput[] = prompt ?? [];
    if (prompt && content !== undefined) {
      issues.push(source.issue(['agents', name, 'content'], 'give either prompt (a list of messages) or role and content (one message), not both'));
    } else if (!prompt && content === undefined) {
      issues.push(source.issue(['agents', name], 'the agent has no prompt: add prompt: [{ role: system, content: "..." }], or role: system and content: "..."'));
    } else if (!prompt) {
      messages = [{ role: role ?? 'system', content: content! }];
    }
    if (prompt && role !== undefined && content === undefined) {
      issues.push(source.issue(['agents', name, 'role'], 'role without content: give content too, or put the role in the prompt list'));
    }
    // A model named explicitly but missing from a given `models` is more likely a typo: the loader says so.
    if ((model == null || data.models == null) && !Object.hasOwn(models, alias)) models[alias] = null;
    agents[name] = { ...rest, model: alias, prompt: messages };
  }
  return { ...data, models, agents };
}
