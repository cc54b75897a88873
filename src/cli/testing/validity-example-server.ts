import { lastUserText, openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../../providers/testing/fake-servers.js';

/** The quality each explanation of examples/validity/explain.yaml gets from the scripted judges, by topic. */
export const TOPICS: Record<string, { id: string; clarity: number; accuracy: number }> = {
  'Why we have seasons': { id: 't01', clarity: 5, accuracy: 4 },
  'Equivalent fractions': { id: 't02', clarity: 2, accuracy: 3 },
  "Where a plant's mass comes from": { id: 't03', clarity: 4, accuracy: 4 },
  "Newton's third law": { id: 't04', clarity: 1, accuracy: 2 },
  'Why ice floats': { id: 't05', clarity: 3, accuracy: 3 },
  'What a percentage is': { id: 't06', clarity: 3, accuracy: 5 },
  'Why the sky is blue': { id: 't07', clarity: 2, accuracy: 2 },
  'How vaccines work': { id: 't08', clarity: 5, accuracy: 5 },
};

/** Judge b is harsher by one level on a few explanations. */
const JUDGE_B_SHIFT: Record<string, number> = { t02: -1, t05: 1, t07: 1 };

/** Scripted answers a rater gives that no parser may read: kept unscored with their text. */
export const UNREADABLE = [
  { rater: 'rater-b', family: 'base', task: 't04', item: 'clarity', text: 'It is hard to say; parts are clear.' },
  { rater: 'rater-a', family: 'cot', task: 't07', item: 'accuracy', text: 'Reasoning: mostly wrong.\nRating: 7' },
];

const clamp = (v: number) => Math.max(1, Math.min(5, v));

/** The score a scripted judge or rater gives one explanation on one item. */
export function scriptedScore(model: string, task: string, item: 'clarity' | 'accuracy'): number {
  const topic = Object.values(TOPICS).find(t => t.id === task)!;
  const shift = model === 'judge-b' ? JUDGE_B_SHIFT[task] ?? 0 : model === 'rater-b' && item === 'accuracy' ? (task < 't05' ? 1 : -1) : 0;
  return clamp(topic[item] + shift);
}

function topicIn(text: string): { id: string } | undefined {
  const name = Object.keys(TOPICS).find(t => text.includes(t));
  return name ? TOPICS[name] : undefined;
}

/**
 * A local OpenAI-compatible server playing every model of the worked example: the tutor explains
 * the topic it is asked, the judges score by topic in the scenario's <json> format, and the raters
 * answer in their prompt family's form (with the two unreadable answers above).
 */
export function startValidityExampleServer(): Promise<FakeServer> {
  return startOpenAICompatibleServer(req => {
    const body = req.body as { model: string; messages: Array<{ role: string; content: string }> };
    const text = lastUserText(req);
    const task = topicIn(text)?.id;
    const reply = (t: string) => ({ status: 200, body: openAIChatBody({ text: t, usage: { prompt_tokens: 50, completion_tokens: 10 } }) });
    if (!task) return { status: 400, body: { error: { message: `scripted server: no known topic in the request to ${body.model}` } } };
    if (body.model === 'tutor') return reply(`Here is the idea behind "${Object.keys(TOPICS).find(k => TOPICS[k]!.id === task)}", with an everyday example. What would you check first?`);
    if (body.model.startsWith('judge')) {
      return reply(`<json>{"clarity": ${scriptedScore(body.model, task, 'clarity')}, "accuracy": ${scriptedScore(body.model, task, 'accuracy')}}</json>`);
    }
    const item = /Rate the observation on "(\w+)"/.exec(text)?.[1] as 'clarity' | 'accuracy';
    const family = text.includes('Reasoning:') ? 'cot' : text.includes('level descriptions') ? 'rubric' : 'base';
    const odd = UNREADABLE.find(u => u.rater === body.model && u.family === family && u.task === task && u.item === item);
    if (odd) return reply(odd.text);
    const v = scriptedScore(body.model, task, item);
    return reply(family === 'base' ? `${v}` : family === 'cot' ? `Reasoning: the explanation of this topic is judged on ${item}.\nRating: ${v}` : `Rating: ${v}`);
  });
}
