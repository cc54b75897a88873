import { FILE_LIMITS, readUserFile } from '../../core/user-file.js';
import { z } from 'zod';
import type { ChatModel, ChatRequest, ChatResult } from '../../core/chat-model.js';
import { ConfigError, ProviderCallError } from '../../core/errors.js';
import { parseJsonlLines } from '../../core/jsonl.js';
import { baselineResult } from '../baseline/index.js';

/**
 * Scripted turns for `baseline:script`, e.g. a student who always answers the same way, so a
 * multi-turn scenario runs deterministically with no model.
 *
 * Which list: `byRole[context.role]` when the request names a role that has one, else `default`.
 * Which turn: `context.turn` when the caller sets it, else the number of assistant messages
 * already in the request (from the scripted speaker's side, its own earlier turns).
 * Past the end: `onEnd` says `error` (default), `repeat-last` or `cycle`.
 */
export interface ScriptTurns {
  default?: string[];
  byRole?: Record<string, string[]>;
  onEnd?: 'error' | 'repeat-last' | 'cycle';
}

const turnsSchema = z.strictObject({
  default: z.array(z.string()).optional(),
  byRole: z.record(z.string(), z.array(z.string())).optional(),
  onEnd: z.enum(['error', 'repeat-last', 'cycle']).optional(),
});

/** A plain list of strings is shorthand for `{ "default": [...] }`. */
const fileSchema = z.union([z.array(z.string()), turnsSchema]);

/** JSONL lines are turns in order: a string (default list) or `{ "role": ..., "text": ... }`. */
const lineSchema = z.union([z.string(), z.strictObject({ role: z.string().optional(), text: z.string() })]);

export function createScriptModel(settings: { turns: ScriptTurns; name?: string }): ChatModel {
  const { turns } = settings;
  const onEnd = turns.onEnd ?? 'error';
  return {
    specVersion: 'paideia.chat-model.v1',
    provider: 'baseline',
    modelId: settings.name ?? 'script',
    isBaseline: true,
    generate: async function generateScripted(request: ChatRequest): Promise<ChatResult> {
      const role = request.context?.role;
      const list = (role !== undefined ? turns.byRole?.[role] : undefined) ?? turns.default;
      const index = request.context?.turn ?? request.messages.filter(m => m.role === 'assistant').length;
      const who = role !== undefined && turns.byRole?.[role] ? `role "${role}"` : 'the default list';
      if (!list || list.length === 0) throw scriptError(`the script has no turns for ${role !== undefined ? `role "${role}" and no default list` : 'the default list'}`);
      let text = list[index];
      if (text === undefined) {
        if (onEnd === 'repeat-last') text = list[list.length - 1]!;
        else if (onEnd === 'cycle') text = list[index % list.length]!;
        else throw scriptError(`turn ${index} was asked for, but ${who} has ${list.length} turn(s); add turns or set "onEnd"`);
      }
      return baselineResult('script', text);
    },
  };
}

function scriptError(why: string): ProviderCallError {
  return new ProviderCallError({ message: `baseline:script: ${why}.`, kind: 'empty', isRetryable: false });
}

/** Reads a `.json` or `.jsonl` script; every problem is reported with the file, line and field. */
export function loadScriptFile(file: string): ScriptTurns {
  const text = readUserFile(file, 'script', FILE_LIMITS.config);
  return file.endsWith('.jsonl') ? parseJsonl(file, text) : parseJson(file, text);
}

function parseJson(file: string, text: string): ScriptTurns {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([{ file, message: `the script is not valid JSON: ${(error as Error).message}` }]);
  }
  const checked = fileSchema.safeParse(json);
  if (!checked.success) {
    // The union hides which branch the author meant; an object was meant to be ScriptTurns.
    const detail = Array.isArray(json) ? checked.error : (turnsSchema.safeParse(json).error ?? checked.error);
    throw new ConfigError(detail.issues.map(i => ({ file, field: i.path.map(String).join('.') || '(root)', message: i.message })));
  }
  return Array.isArray(checked.data) ? { default: checked.data } : checked.data;
}

function parseJsonl(file: string, text: string): ScriptTurns {
  const turns: ScriptTurns = {};
  const issues: ConfigError['issues'] = [];
  for (const { value, line: lineNo } of parseJsonlLines(text, file, issues)) {
    const checked = lineSchema.safeParse(value);
    if (!checked.success) {
      issues.push({ file, line: lineNo, message: 'expected a string or {"role": "...", "text": "..."}' });
      continue;
    }
    const line = checked.data;
    if (typeof line === 'string' || line.role === undefined) (turns.default ??= []).push(typeof line === 'string' ? line : line.text);
    else ((turns.byRole ??= {})[line.role] ??= []).push(line.text);
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return turns;
}
