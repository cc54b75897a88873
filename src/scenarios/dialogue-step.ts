import { extend, type ChatMessage, type ChatRequest, type ChatResult, type StepKind, type StepOutcome, type Trial } from '../core/index.js';
import { DIALOGUE_KIND, metaToJson, type DialogueMeta } from './dialogue.js';
import { END } from './graph.js';
import { memoryWindow, type DialogueMessage } from './memory.js';
import { renderTemplate, taskLookup } from './template.js';
import type { Scenario, ScenarioAgent, ScenarioTask, ScenarioVariant } from './types.js';

/** Step kind of a dialogue trial: one step per turn. */
export const DIALOGUE_STEP = 'dialogue';

/** The engine's name of a scenario model: its alias, prefixed by the variant when the file sweeps several. */
export function variantAlias(scenario: Scenario, variant: ScenarioVariant, alias: string): string {
  return scenario.variants.length > 1 ? `${variant.label}/${alias}` : alias;
}

/** Where a walk of the graph stands after the turns given: the next turn to ask, or the dialogue's end. */
export type DialogueWalk =
  | { type: 'turn'; agent: string; model: string; request: ChatRequest; meta: DialogueMeta }
  | { type: 'end'; meta: DialogueMeta; transcript: DialogueMessage[] };

/**
 * Walk a dialogue's graph from START over the answers it has so far: a pure function of the
 * stored turns, so a resumed run replays them and asks only for the next one.
 */
export function walkDialogue(scenario: Scenario, trial: Trial, task: ScenarioTask, variant: ScenarioVariant, results: ReadonlyArray<ChatResult>): DialogueWalk {
  const rendered = renderedFor(scenario, task);
  const start = rendered.start;
  const meta: DialogueMeta = { trialId: trial.id, taskId: task.id, variant: variant.label, repeat: trial.repeat, status: 'running', ...(start ? { start } : {}), turns: [] };
  const transcript: DialogueMessage[] = start ? [{ speaker: 'START', role: start.role, content: start.content }] : [];
  const turnsOf = new Map<string, number>();
  let node = scenario.graph.first;
  let endedBy: DialogueMeta['endedBy'] = 'end';
  for (let step = 0; ; step++) {
    if (node === END) return { type: 'end', meta: extend(meta, { status: 'ended' as const, endedBy }), transcript };
    if (step >= scenario.globals.recursionLimit) return { type: 'end', meta: extend(meta, { status: 'capped' as const, endedBy: 'recursion_limit' as const }), transcript };
    const agent = scenario.agents.get(node)!;
    const entry = variant.models.get(agent.model)!;
    const result = results[step];
    if (!result) {
      const prompt = rendered.prompt(agent);
      return {
        type: 'turn', agent: agent.name, model: agent.model, meta,
        request: {
          messages: [...prompt, ...memoryWindow(agent.name, transcript, agent.memory)],
          params: entry.params,
          context: { trialId: trial.id, itemId: task.id, repeat: trial.repeat, turn: turnsOf.get(agent.name) ?? 0, role: agent.name },
        },
      };
    }
    transcript.push({ speaker: agent.name, content: result.text });
    turnsOf.set(agent.name, (turnsOf.get(agent.name) ?? 0) + 1);
    meta.turns.push({ step, agent: agent.name, model: agent.model });
    const edge = scenario.graph.edges.get(node)!;
    if (edge.kind === 'node') {
      node = edge.to;
      endedBy = 'end';
    } else {
      const decision = edge.router.route({ source: agent.name, message: result.text, turnsOf: a => turnsOf.get(a) ?? 0 });
      node = decision.to;
      endedBy = decision.by === 'max_turns' ? 'max_turns' : 'end';
    }
  }
}

/** A task's start prompt and agent prompts, as rendered once for it. */
interface RenderedTask {
  scenario: Scenario;
  start: { role: ChatMessage['role']; content: string } | undefined;
  prompt(agent: ScenarioAgent): ChatMessage[];
}

// Every turn walks its dialogue from the start: the task's prompts are rendered once, not per turn.
const renderedTasks = new WeakMap<ScenarioTask, RenderedTask>();

function renderedFor(scenario: Scenario, task: ScenarioTask): RenderedTask {
  const known = renderedTasks.get(task);
  if (known?.scenario === scenario) return known;
  const lookup = taskLookup(task.vars);
  const prompts = new Map<string, ChatMessage[]>();
  const rendered: RenderedTask = {
    scenario,
    start: scenario.startPrompt
      ? { role: scenario.startPrompt.role, content: renderTemplate(scenario.startPrompt.content, lookup, 'tasks.start_prompt') }
      : undefined,
    prompt(agent) {
      let messages = prompts.get(agent.name);
      if (!messages) {
        messages = agent.prompt.map((p, i) => ({ role: p.role, content: renderTemplate(p.content, lookup, `prompt ${i} of agent "${agent.name}"`) }));
        prompts.set(agent.name, messages);
      }
      return messages;
    },
  };
  renderedTasks.set(task, rendered);
  return rendered;
}

/**
 * A dialogue as a step: each turn asks the agent the graph reaches next, with the memory window
 * it may see; the dialogue ends at END or at the step cap (partial transcript kept and judged).
 * Its outcome is the dialogue's metadata (turns, end); a failed turn keeps what came before.
 */
export function dialogueStep(scenario: Scenario): StepKind {
  const variants = new Map(scenario.variants.map(v => [v.label, v]));
  const tasks = new Map(scenario.tasks.map(t => [t.hash, t]));
  const walk = (trial: Trial, results: ReadonlyArray<ChatResult>) => walkDialogue(scenario, trial, tasks.get(trial.itemHash)!, variants.get(trial.modelAlias)!, results);
  const artifact = (meta: DialogueMeta): NonNullable<StepOutcome['artifacts']>[number] => ({ kind: DIALOGUE_KIND, key: meta.trialId, value: metaToJson(meta) });
  return {
    specVersion: 'paideia.step.v1',
    name: DIALOGUE_STEP,
    version: '1',
    judgesTarget: false,
    next({ trial, results }) {
      const w = walk(trial, results);
      if (w.type === 'end') return { type: 'done', artifacts: [artifact(w.meta)] };
      const variant = variants.get(trial.modelAlias)!;
      // Every turn of every dialogue is its own sample: two dialogues (or two turns) that ask the same
      // never share an answer; only the same turn of the same dialogue is answered from the cache.
      return { type: 'call', model: variantAlias(scenario, variant, w.model), request: w.request, distinct: { dialogue: trial.id, turn: results.length } };
    },
    failed({ trial, results }, error) {
      const w = walk(trial, results);
      const meta: DialogueMeta = {
        ...w.meta, status: 'failed', endedBy: 'error',
        error: `turn ${error.step} (${w.type === 'turn' ? w.agent : '?'}): ${error.message}`,
        turns: [...w.meta.turns, ...(w.type === 'turn' ? [{ step: error.step, agent: w.agent, model: w.model }] : [])],
      };
      return { artifacts: [artifact(meta)] };
    },
  };
}
