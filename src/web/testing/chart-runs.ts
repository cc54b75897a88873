import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Env, Store } from '../../core/index.js';
import { startValidityExampleServer, TOPICS } from '../../cli/testing/validity-example-server.js';
import { loadShippedUnit, startStudyServer } from '../../learning/testing/study-server.js';
import { startOpenAICompatibleServer, type FakeServer, type RecordedRequest } from '../../providers/testing/fake-servers.js';
import { startRun, type RunConfig } from '../../runs.js';

const ROOT = resolve(import.meta.dirname, '../../..');
/** Markup planted in model output (tutor answers, learner answers, judge reasons): every page must show it as text. */
export const XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><svg onload="window.__xss=3"></svg>';
export const UNITS = ['chickasaw-case-and-person', 'udihe-possession'];

type Rewrite = (model: string, request: RecordedRequest, text: string) => string;

/**
 * An OpenAI-compatible server in front of a scripted one: it renames a model on the way in and
 * rewrites the answer on the way out, so the scripted servers of other tests play new parts
 * (a second tutor, hostile markup) without a copy of their scripts.
 */
async function proxy(target: FakeServer, rename: Record<string, string>, rewrite: Rewrite): Promise<FakeServer> {
  return startOpenAICompatibleServer(async request => {
    const body = structuredClone(request.body) as { model: string };
    const model = body.model;
    body.model = rename[model] ?? model;
    const res = await fetch(`${target.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: JSON.stringify(body) });
    const json = await res.json() as { choices?: Array<{ message: { content: string } }> };
    const message = json.choices?.[0]?.message;
    if (message) message.content = rewrite(model, request, message.content);
    return { status: res.status, body: json };
  });
}

async function finish(config: RunConfig, store: Store, env: Env): Promise<string> {
  const handle = startRun(config, { store, env });
  const outcome = await handle.done;
  if (outcome.status !== 'completed') throw new Error(`${config.kind} run ${outcome.runId} ended ${outcome.status}`);
  return outcome.runId;
}

export interface ChartRuns {
  suite: string;
  /** Two tutors (a sweep) judged on three dimensions. */
  duo: string;
  /** The worked example's scenario run, and the rating study of its dialogues. */
  explain: string;
  study: string;
  learning: string;
  /** The files `validity analyze` takes beside the study's ratings. */
  files: { experts: string; outcomes: string; observations: string };
  /** Where the scenario runs' tutors and judges answer, and the duo's scenario file, for a test's own scenario runs. */
  scenario: { env: Env; file: string };
  close(): Promise<void>;
}

/** A suite, two scenario runs, a rating study and a learning run, all real runs against scripted servers on 127.0.0.1. */
export async function makeChartRuns(store: Store, dir: string, suiteEnv: Env): Promise<ChartRuns> {
  const suite = await finish({ kind: 'suite', suites: [join(dir, 'suites/mini')], models: ['a=openai:fake-a', 'b=openai:fake-b', 'copy=baseline:copy'], repeats: 1 } as RunConfig, store, suiteEnv);

  const example = await startValidityExampleServer();
  // The second tutor answers the same, shorter and with hostile markup; the judges also rate engagement, lower for it.
  const tutors = await proxy(example, { 'tutor-b': 'tutor' }, (model, request, text) => {
    if (model === 'tutor-b') return `${text} (short version) ${XSS}`;
    if (!model.startsWith('judge')) return text;
    const user = JSON.stringify(request.body);
    return text.replace('}</json>', `, "engagement": ${user.includes('short version') ? 2 : 4}}</json>`);
  });
  const env = { OPENAI_BASE_URL: tutors.baseURL, OPENAI_API_KEY: 'k' };
  const explainFile = join(dir, 'explain.yaml');
  copyFileSync(join(ROOT, 'examples/validity/explain.yaml'), explainFile);
  const duoFile = join(dir, 'duo.yaml');
  writeFileSync(duoFile, `${readFileSync(explainFile, 'utf8').replace('name: validity_explain', 'name: duo_explain').trimEnd()}
    - field: engagement
      type: int
      min: 1
      max: 5
      dimension: Engagement
      weight: 0.25
`);
  const explain = await finish({ kind: 'scenario', file: explainFile } as RunConfig, store, env);
  const duo = await finish({ kind: 'scenario', file: duoFile, models: ['tutor=openai:tutor', 'tutor=openai:tutor-b'] } as RunConfig, store, env);
  const study = await finish({ kind: 'validity', file: join(ROOT, 'examples/validity/study.yaml'), observationsRun: explain } as RunConfig, store, env);
  // One unit per topic; its outcome a scripted number that follows clarity (so tau with the outcome is defined).
  const files = { experts: join(ROOT, 'examples/validity/experts.csv'), outcomes: join(dir, 'outcomes.csv'), observations: join(dir, 'observations.csv') };
  writeFileSync(files.outcomes, `unit,outcome\n${Object.values(TOPICS).map(t => `${t.id},${t.clarity * 10 + t.accuracy}`).join('\n')}\n`);
  writeFileSync(files.observations, `observation,unit\n${Object.values(TOPICS).map(t => `${t.id}/tutor/0,${t.id}`).join('\n')}\n`);

  const units = await startStudyServer(UNITS.map(loadShippedUnit));
  // Learners' wrong answers and the judges' reasons for the poor deck carry the markup.
  const learning = await proxy(units, {}, (_model, _request, text) => text.replace('Answer: unknown', `Answer: ${XSS}`).replace('"rationale":"thin"', `"rationale":${JSON.stringify(`thin ${XSS}`)}`));
  const learningRun = await finish({
    kind: 'learning', units: UNITS, generators: ['good=openai:gen-good', 'poor=openai:gen-poor'], learners: ['strong=openai:learner-strong'], judges: ['ja=openai:judge-a'],
  } as RunConfig, store, { OPENAI_BASE_URL: learning.baseURL, OPENAI_API_KEY: 'k' });
  return {
    suite, duo, explain, study, learning: learningRun, files, scenario: { env, file: duoFile },
    async close() { await Promise.all([tutors, example, learning, units].map(s => s.close())); },
  };
}
