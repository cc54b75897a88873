import type { ConfigIssue } from '../core/errors.js';
import { DirectionSyntaxError, parseDirection, type NodeRef } from './router.js';
import { bindRouter } from './routers.js';
import type { DialogueGraph, Edge } from './types.js';
import type { YamlSource } from '../core/config/yaml-source.js';
import { closest } from '../core/config/zod-issues.js';

export const START = 'START';
export const END = 'END';

/**
 * The dialogue graph from the `directions` lines. Every problem is reported with its line in the
 * scenario and its column in the direction. One outgoing edge per node: a conversation is a walk,
 * not a fan-out.
 */
export function buildGraph(directions: string[], agents: ReadonlySet<string>, source: YamlSource, issues: ConfigIssue[]): DialogueGraph | undefined {
  const edges = new Map<string, Edge>();
  let first: string | undefined;
  const before = issues.length;
  const at = (i: number, column: number, message: string): false => {
    issues.push(source.issue(['directions', i], `column ${column}: ${message}  (in "${directions[i]}")`));
    return false;
  };
  const checkNode = (i: number, ref: NodeRef, role: 'from' | 'to'): boolean => {
    if (role === 'from' && ref.name === END) return at(i, ref.column, 'END has no outgoing edges');
    if (role === 'to' && ref.name === START) return at(i, ref.column, 'no edge may lead to START');
    if (ref.name === START || ref.name === END || agents.has(ref.name)) return true;
    const guess = closest(ref.name, [...agents, START, END]);
    return at(i, ref.column, `unknown node "${ref.name}"${guess ? `; did you mean "${guess}"?` : ''}; nodes are START, END and the agents (${[...agents].join(', ')})`);
  };

  directions.forEach((line, i) => {
    try {
      const parsed = parseDirection(line);
      const fromOk = checkNode(i, parsed.from, 'from');
      let edge: Edge;
      if (parsed.to.kind === 'node') {
        if (!checkNode(i, parsed.to.node, 'to')) return;
        edge = { kind: 'node', to: parsed.to.node.name };
      } else {
        const router = bindRouter(parsed.to.call);
        if (!router.targets.every(t => checkNode(i, t, 'to'))) return;
        edge = { kind: 'router', router };
      }
      if (!fromOk) return;
      const from = parsed.from.name;
      if (from === START) {
        if (edge.kind !== 'node') return void at(i, parsed.from.column, 'START leads to one agent; put the router after it');
        if (edge.to === END) return void at(i, parsed.from.column, 'START -> END would be a dialogue with no turns');
        if (first !== undefined) return void at(i, parsed.from.column, `START already leads to "${first}"; a dialogue has one first speaker`);
        first = edge.to;
        return;
      }
      if (edges.has(from)) return void at(i, parsed.from.column, `"${from}" already has an outgoing edge; use a router to choose between targets`);
      edges.set(from, edge);
    } catch (error) {
      if (error instanceof DirectionSyntaxError) at(i, error.column, error.message);
      else throw error;
    }
  });
  if (issues.length > before) return undefined;
  if (first === undefined) {
    issues.push(source.issue(['directions'], 'no edge leaves START; add e.g. "START -> teacher"'));
    return undefined;
  }
  // Every agent the walk can reach must be able to go on, or the dialogue would stall.
  const seen = new Set<string>();
  const queue = [first];
  while (queue.length > 0) {
    const node = queue.pop()!;
    if (node === END || seen.has(node)) continue;
    seen.add(node);
    const edge = edges.get(node);
    if (!edge) {
      issues.push(source.issue(['directions'], `agent "${node}" is reached but has no outgoing edge; add "${node} -> END" or a router`));
      continue;
    }
    if (edge.kind === 'node') queue.push(edge.to);
    else queue.push(...edge.router.targets.map(t => t.name));
  }
  if (issues.length > before) return undefined;
  return { first, edges };
}

/** Agents no walk from START reaches (they can never speak). */
export function unreachableAgents(graph: DialogueGraph, agents: Iterable<string>): string[] {
  const seen = new Set<string>();
  const queue = [graph.first];
  while (queue.length > 0) {
    const node = queue.pop()!;
    if (node === END || seen.has(node)) continue;
    seen.add(node);
    const edge = graph.edges.get(node);
    if (edge?.kind === 'node') queue.push(edge.to);
    else if (edge) queue.push(...edge.router.targets.map(t => t.name));
  }
  return [...agents].filter(a => !seen.has(a));
}

/**
 * Whether some walk from START can reach END. When none can, every dialogue runs until the step
 * cap (`globals.recursion_limit`) and ends `capped`: allowed, but rarely meant.
 */
export function reachesEnd(graph: DialogueGraph): boolean {
  const seen = new Set<string>();
  const queue = [graph.first];
  while (queue.length > 0) {
    const node = queue.pop()!;
    if (node === END) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    const edge = graph.edges.get(node);
    if (edge?.kind === 'node') queue.push(edge.to);
    else if (edge) queue.push(...edge.router.targets.map(t => t.name));
  }
  return false;
}
