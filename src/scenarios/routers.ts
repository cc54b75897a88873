import { stripReasoning } from './memory.js';
import { DirectionSyntaxError, type ArgValue, type NodeRef, type RouterCall } from './router.js';
import { closest } from '../core/config/zod-issues.js';

/*
 * The registered routers a direction may name. A router is a named factory with literal
 * arguments checked here; the config never holds code. Every router also takes `max_turns` and
 * `exceeded_to`: a per-loop turn cap.
 */

/** What a router may look at: the message just spoken and how many turns each agent has had. */
export interface RouteContext {
  /** The agent the edge leaves from. */
  source: string;
  /** Raw text of the message it just produced. */
  message: string;
  /** Turns taken so far by an agent, the one just finished included. */
  turnsOf(agent: string): number;
}

export interface RouteDecision {
  to: string;
  /** Why: `condition` (the router's own test) or `max_turns` (the loop's turn cap). */
  by: 'condition' | 'max_turns';
}

/** A router with its arguments checked: its possible targets and the routing function. */
export interface BoundRouter {
  name: string;
  targets: NodeRef[];
  route(ctx: RouteContext): RouteDecision;
}

type ParamKind = 'keywords' | 'target' | 'count' | 'bool';
interface ParamSpec { kind: ParamKind; required: boolean; default?: string | number | boolean }

interface RouterDefinition {
  name: string;
  aliases: string[];
  description: string;
  params: Record<string, ParamSpec>;
  decide(args: BoundArgs, ctx: RouteContext): string;
}

type BoundArgs = Record<string, string | number | boolean | string[] | undefined>;

/** Every router also takes these: a per-loop turn cap, counted on the agent the edge leaves from. */
const LOOP_PARAMS: Record<string, ParamSpec> = {
  max_turns: { kind: 'count', required: false },
  exceeded_to: { kind: 'target', required: false, default: 'END' },
};

function keywordRouter(name: string, test: 'some' | 'every'): RouterDefinition {
  return {
    name,
    aliases: [name.replace(/_route$/, '_router')],
    description: `goes to exists_to when ${test === 'some' ? 'any' : 'all'} of the keywords appear in the message (case-insensitive), else to else_to`,
    params: {
      keywords: { kind: 'keywords', required: true },
      exists_to: { kind: 'target', required: true },
      else_to: { kind: 'target', required: true },
      think_as_message: { kind: 'bool', required: false, default: false },
    },
    decide(args, ctx) {
      const text = (args.think_as_message ? ctx.message : stripReasoning(ctx.message)).toLowerCase();
      const keywords = args.keywords as string[];
      const hit = keywords[test](k => text.includes(k.toLowerCase()));
      return (hit ? args.exists_to : args.else_to) as string;
    },
  };
}

const ROUTERS: RouterDefinition[] = [
  keywordRouter('any_keyword_route', 'some'),
  keywordRouter('all_keyword_route', 'every'),
  {
    name: 'turn_limit_route',
    aliases: ['turn_limit_router'],
    description: 'goes to else_to until the agent the edge leaves from has spoken max_turns times, then to exceeded_to',
    params: {
      max_turns: { kind: 'count', required: true },
      exceeded_to: { kind: 'target', required: false, default: 'END' },
      else_to: { kind: 'target', required: true },
    },
    decide: (args) => args.else_to as string,
  },
];

export const ROUTER_NAMES: readonly string[] = ROUTERS.map(r => r.name);

/** Check a parsed router call against its definition and bind it. Throws with the column of the problem. */
export function bindRouter(call: RouterCall): BoundRouter {
  const def = ROUTERS.find(r => r.name === call.name || r.aliases.includes(call.name));
  if (!def) {
    const guess = closest(call.name, ROUTERS.flatMap(r => [r.name, ...r.aliases]));
    throw new DirectionSyntaxError(
      `unknown router "${call.name}"${guess ? ` (did you mean "${guess}"?)` : ''}; known routers: ${ROUTER_NAMES.join(', ')}`,
      call.column,
    );
  }
  const params = { ...LOOP_PARAMS, ...def.params };
  const args: BoundArgs = {};
  const targets: NodeRef[] = [];
  for (const [key, { value, column }] of call.args) {
    // Own keys only: `toString`, `constructor` or `__proto__` would find Object.prototype's.
    const spec = Object.hasOwn(params, key) ? params[key] : undefined;
    if (!spec) {
      const guess = closest(key, Object.keys(params));
      throw new DirectionSyntaxError(
        `${def.name} has no argument "${key}"${guess ? ` (did you mean "${guess}"?)` : ''}; it takes ${Object.keys(params).join(', ')}`,
        column,
      );
    }
    args[key] = checkArg(def.name, key, spec.kind, value);
    if (spec.kind === 'target') targets.push({ name: args[key] as string, column: value.column });
  }
  for (const [key, spec] of Object.entries(params)) {
    if (args[key] !== undefined) continue;
    if (spec.required) throw new DirectionSyntaxError(`${def.name} needs the argument "${key}"`, call.column);
    if (spec.default !== undefined) {
      // A default target counts as a target only when the loop cap that uses it is set.
      if (spec.kind === 'target' && key === 'exceeded_to' && args.max_turns === undefined) continue;
      args[key] = spec.default;
      if (spec.kind === 'target') targets.push({ name: spec.default as string, column: call.column });
    }
  }
  return {
    name: def.name,
    targets,
    route(ctx) {
      const cap = args.max_turns as number | undefined;
      if (cap !== undefined && ctx.turnsOf(ctx.source) >= cap) return { to: args.exceeded_to as string, by: 'max_turns' };
      return { to: def.decide(args, ctx), by: 'condition' };
    },
  };
}

function checkArg(router: string, key: string, kind: ParamKind, value: ArgValue): string | number | boolean | string[] {
  const fail = (what: string): never => {
    throw new DirectionSyntaxError(`${router}: argument "${key}" must be ${what}`, value.column);
  };
  switch (kind) {
    case 'keywords': {
      if (value.kind !== 'list') return fail('a list of strings, e.g. ["<end>"]');
      if (value.items.length === 0) return fail('a non-empty list of strings');
      return value.items.map(item => (item.kind === 'string' && item.value !== '' ? item.value : fail('a list of non-empty strings')));
    }
    case 'target':
      return value.kind === 'string' || value.kind === 'name' ? value.value : fail('a node name, e.g. END or "student"');
    case 'count':
      return value.kind === 'number' && Number.isInteger(value.value) && value.value >= 1 ? value.value : fail('a whole number >= 1');
    case 'bool':
      return value.kind === 'bool' ? value.value : fail('true or false');
  }
}
