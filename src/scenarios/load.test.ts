import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModelSpec } from '../core/model-spec.js';
import { loadScenario, parseScenario } from './load.js';
import { scenarioJsonSchema } from './schema.js';
import { LOOP_SCENARIO, issuesOf, scenarioDir } from './testing/fixtures.js';

/** The ELMES README example, completed with the student agent it routes to; otherwise as published. */
const ELMES = `# Global configuration
globals:
  concurrency: 16
  recursion_limit: 50
  retry:
    attempt: 3
    interval: 3
  memory:
    path: ./logs/my_exp

models:
  gpt4o:
    type: openai
    api_key: \${OPENAI_KEY}
    api_base: https://api.openai.com/v1
    model: gpt-4o-mini
    kargs:
      temperature: 0.7
      frequency_penalty: 0.2
      response_format: { type: text }

agents:
  teacher:
    model: gpt4o
    prompt:
      - role: system
        content: "You are a math teacher, student profile: {image}"
      - role: user
        content: "{question}"
    memory:
      enable: true
      keep_turns: 3
  student:
    model: gpt4o
    prompt:
      - role: system
        content: "You are a student: {image}"

directions:
  - START -> teacher
  - teacher -> router:any_keyword_route(keywords=["<end>", "class dismissed"], exists_to=END, else_to="student")
  - student -> teacher

tasks:
  mode: union
  start_prompt:
    role: user
    content: "{question}"
  content:
    image:
      - "Strong logical thinking, loves science"
      - "Anxious about tests"
    question:
      - "A three-digit number..."
      - "A master and apprentice assemble a bicycle..."

evaluation:
  name: math_tutor_eval
  model: gpt4o
  format_mode: prompt
  prompt:
    - role: system
      content: "You are a professional evaluation expert..."
  format:
    - field: accuracy
      type: float
      description: "Accuracy"
    - field: guidance
      type: dict
      description: "Guidance"
      items:
        - field: score
          type: float
          description: "Score"
        - field: reason
          type: str
          description: "Reason"
`;

const env = { OPENAI_KEY: 'sk-test-elmes-0001' };
const load = (text: string, o: Parameters<typeof parseScenario>[2] = { env }) => parseScenario('/tmp/s.yaml', text, o);
const lineOf = (text: string, needle: string) => text.split('\n').findIndex(l => l.includes(needle)) + 1;

describe('loadScenario: ELMES files', () => {
  it('validates an ELMES file unchanged, with ELMES defaults', () => {
    const s = load(ELMES);
    expect(s.name).toBe('s');
    expect(s.globals).toEqual({ concurrency: 16, recursionLimit: 50, retry: { attempt: 3, intervalSeconds: 3 }, repeats: 1, seed: 0 });
    const m = s.models.get('gpt4o')!;
    expect(m.spec.spec).toBe('openai:gpt-4o-mini');
    expect(m.apiBase).toBe('https://api.openai.com/v1');
    expect(m.apiKey).toBe('sk-test-elmes-0001');
    // kargs: known parameters mapped, the rest passed through unchecked.
    expect(m.params).toEqual({ temperature: 0.7, providerOptions: { openai: { frequency_penalty: 0.2, response_format: { type: 'text' } } } });
    expect(s.agents.get('student')!.memory).toEqual({ enable: true, keepTurns: 3 });
    expect(s.graph.first).toBe('teacher');
    expect(s.target).toBe('teacher');
    expect(s.startPrompt).toEqual({ role: 'user', content: '{question}' });
    expect(s.evaluation).toMatchObject({ name: 'math_tutor_eval', judges: ['gpt4o'], formatMode: 'prompt', repeats: 1, aggregation: 'mean' });
    expect(s.warnings).toEqual(expect.arrayContaining([expect.stringContaining('memory.path'), expect.stringContaining('a numeric field with no scale')]));
  });

  it('union is the Cartesian product in file order, first variable slowest; ids are stable hashes', () => {
    const s = load(ELMES);
    expect(s.tasks.map(t => [t.vars.image, t.vars.question])).toEqual([
      ['Strong logical thinking, loves science', 'A three-digit number...'],
      ['Strong logical thinking, loves science', 'A master and apprentice assemble a bicycle...'],
      ['Anxious about tests', 'A three-digit number...'],
      ['Anxious about tests', 'A master and apprentice assemble a bicycle...'],
    ]);
    expect(s.tasks.map(t => t.id)).toEqual(load(ELMES).tasks.map(t => t.id));
    expect(s.tasks[0]!.id).toMatch(/^task-[0-9a-f]{16}$/);
  });

  it('iter mode takes variable sets in order; an id variable names the task; duplicates collapse', () => {
    const text = LOOP_SCENARIO.replace(/tasks:[\s\S]*?evaluation:/, `tasks:
  mode: iter
  content:
    - { id: q1, persona: Ana, problem: "2x = 6" }
    - { id: q2, persona: Ben, problem: 7 }
    - { id: q1, persona: Ana, problem: "2x = 6" }
evaluation:`);
    const s = load(text);
    expect(s.tasks.map(t => [t.id, t.vars.problem])).toEqual([['q1', '2x = 6'], ['q2', '7']]);
  });

  it('the hash ignores keys, so rotating a key keeps the run', () => {
    expect(load(ELMES).hash).toBe(load(ELMES, { env: { OPENAI_KEY: 'sk-other' } }).hash);
    expect(load(ELMES).hash).not.toBe(load(ELMES.replace('loves science', 'loves art')).hash);
  });

  it('keeps no key in the stored (redacted) config', () => {
    const literal = ELMES.replace('${OPENAI_KEY}', 'sk-literal-key-42').replace('https://api.openai.com/v1', 'https://user:pw@gw.example/v1?key=abc');
    const s = load(literal);
    const stored = JSON.stringify(s.redacted);
    expect(stored).not.toContain('sk-literal-key-42');
    expect(stored).not.toContain('pw@');
    expect(stored).not.toContain('key=abc');
    expect(stored).toContain('[redacted]');
    expect(s.models.get('gpt4o')!.apiKey).toBe('sk-literal-key-42');
  });
});

describe('loadScenario: every error path, with file, line and dot-path', () => {
  it('a YAML syntax error gives its line', () => {
    const text = 'models:\n  a: {type: openai\nagents: {}\n';
    const issues = issuesOf(() => load(text));
    expect(issues[0]).toMatchObject({ file: '/tmp/s.yaml', line: expect.any(Number) });
    expect(issues[0]!.message).toMatch(/^YAML syntax/);
    expect(issuesOf(() => load('a: 1\na: 2\n'))[0]).toMatchObject({ line: 2, message: expect.stringMatching(/unique/i) });
  });

  it('an unknown top-level key is an error with a "did you mean" hint and its line', () => {
    const text = ELMES.replace('evaluation:', 'evalution:');
    const issues = issuesOf(() => load(text));
    expect(issues).toContainEqual({ file: '/tmp/s.yaml', line: lineOf(text, 'evalution:'), field: 'evalution', message: 'unknown key "evalution"; did you mean "evaluation"?' });
  });

  it('typos in nested strict blocks get hints too; unrelated keys list the known ones', () => {
    const text = ELMES.replace('keep_turns: 3', 'keep_turn: 3').replace('    prompt:\n      - role: system\n        content: "You are a student', '    promt:\n      - role: system\n        content: "You are a student');
    const issues = issuesOf(() => load(text));
    expect(issues).toContainEqual(expect.objectContaining({ field: 'agents.teacher.memory.keep_turn', line: lineOf(text, 'keep_turn:'), message: expect.stringContaining('did you mean "keep_turns"') }));
    expect(issues).toContainEqual(expect.objectContaining({ field: 'agents.student.promt', message: expect.stringContaining('did you mean "prompt"') }));
    const zz = issuesOf(() => load(ELMES.replace('  concurrency: 16', '  zzzzzz: 16')));
    expect(zz[0]!.message).toMatch(/known keys: concurrency, recursion_limit/);
  });

  it('reports every wrong type at once, each with its dot-path and line', () => {
    const text = ELMES.replace('concurrency: 16', 'concurrency: many').replace('interval: 3', 'interval: -1').replace('type: float', 'type: double').replace('mode: union', 'mode: zip');
    const issues = issuesOf(() => load(text));
    expect(issues.map(i => [i.field, i.line])).toEqual(expect.arrayContaining([
      ['globals.concurrency', lineOf(text, 'concurrency: many')],
      ['globals.retry.interval', lineOf(text, 'interval: -1')],
      ['evaluation.format.0.type', lineOf(text, 'type: double')],
      ['tasks.mode', lineOf(text, 'mode: zip')],
    ]));
    expect(issues.find(i => i.field === 'globals.concurrency')!.message).toMatch(/expected number, received string/);
  });

  it('a missing required block points at its parent', () => {
    const text = ELMES.replace(/directions:[\s\S]*?tasks:/, 'tasks:');
    expect(issuesOf(() => load(text))).toContainEqual({ file: '/tmp/s.yaml', field: 'directions', line: lineOf(text, 'globals:'), message: 'missing required key "directions" (expected array)' });
  });

  it('a bad router expression gives the line in the file and the column in the direction', () => {
    const text = ELMES.replace('keywords=["<end>", "class dismissed"]', 'keywords="<end>"');
    const [issue] = issuesOf(() => load(text));
    const direction = 'teacher -> router:any_keyword_route(keywords="<end>", exists_to=END, else_to="student")';
    expect(issue).toMatchObject({ field: 'directions.1', line: lineOf(text, 'router:') });
    expect(issue!.message).toContain(`column ${direction.indexOf('"<end>"') + 1}: any_keyword_route: argument "keywords" must be a list`);
    const unknown = issuesOf(() => load(ELMES.replace('any_keyword_route', 'some_route')))[0]!;
    expect(unknown.message).toMatch(/unknown router "some_route"; known routers: any_keyword_route, all_keyword_route, turn_limit_route/);
  });

  it('graph problems: unknown nodes with hints, two edges from one node, dead ends, START', () => {
    const typo = issuesOf(() => load(ELMES.replace('else_to="student"', 'else_to="studnet"')))[0]!;
    expect(typo.message).toMatch(/unknown node "studnet"; did you mean "student"\?/);
    expect(issuesOf(() => load(ELMES.replace('  - student -> teacher', '  - student -> teacher\n  - student -> END')))[0]!.message).toMatch(/already has an outgoing edge/);
    expect(issuesOf(() => load(ELMES.replace('  - student -> teacher', '')))[0]!.message).toMatch(/"student" is reached but has no outgoing edge/);
    expect(issuesOf(() => load(ELMES.replace('  - START -> teacher', '')))[0]!.message).toMatch(/no edge leaves START/);
    expect(issuesOf(() => load(ELMES.replace('  - student -> teacher', '  - student -> START')))[0]!.message).toMatch(/no edge may lead to START/);
  });

  it('an unknown variable names the agent and the prompt index, with the line', () => {
    const text = ELMES.replace('student profile: {image}', 'student profile: {imagee}');
    const [issue] = issuesOf(() => load(text));
    expect(issue).toMatchObject({ field: 'agents.teacher.prompt.0.content', line: lineOf(text, '{imagee}') });
    expect(issue!.message).toBe('unknown variable {imagee} in prompt 0 of agent "teacher": the tasks have no variable "imagee"; did you mean {image}?; variables: image, question');
  });

  it('an unknown key is told with the problems found past it, not alone first', () => {
    const text = LOOP_SCENARIO.replace('recursion_limit: 20', 'recursion_limt: 20').replace('    model: tutor\n', '    model: tutr\n')
      .replace('You are {persona}.', 'You are {persona_x}.');
    expect(issuesOf(() => load(text)).map(i => [i.line, i.field, i.message])).toEqual([
      [lineOf(text, 'recursion_limt'), 'globals.recursion_limt', 'unknown key "recursion_limt"; did you mean "recursion_limit"?'],
      [lineOf(text, 'model: tutr'), 'agents.teacher.model', 'no model "tutr" under models; did you mean "tutor"?'],
      [lineOf(text, '{persona_x}'), 'agents.student.prompt.0.content', 'unknown variable {persona_x} in prompt 0 of agent "student": the tasks have no variable "persona_x"; did you mean {persona}?; variables: persona, problem'],
    ]);
  });

  it('a variable missing from some iter tasks names the task', () => {
    const text = LOOP_SCENARIO.replace(/tasks:[\s\S]*?evaluation:/, `tasks:
  mode: iter
  content:
    - { id: q1, persona: Ana, problem: "2x = 6" }
    - { id: q2, persona: Ben }
evaluation:`);
    const [issue] = issuesOf(() => load(text));
    expect(issue).toMatchObject({ line: lineOf(text, '{ id: q2, persona: Ben }'), field: 'problem' });
    expect(issue!.message).toBe('this task has no variable "problem", used by prompt 0 of agent "teacher" ({problem}); its variables: id, persona');
  });

  it('two tasks of a task file with one id are told at the second one\'s line, naming the first\'s', () => {
    const dir = scenarioDir({ 'tasks.jsonl': ['{"id": "a", "persona": "Ana", "problem": "2x = 6"}', '{"id": "a", "persona": "Ben", "problem": "x + 1 = 3"}', ''].join('\n') });
    const text = LOOP_SCENARIO.replace(/tasks:[\s\S]*?evaluation:/, 'tasks:\n  mode: iter\n  file: tasks.jsonl\nevaluation:');
    expect(issuesOf(() => parseScenario(join(dir, 's.yaml'), text, { env: {} }))).toContainEqual(
      { file: join(dir, 'tasks.jsonl'), line: 2, field: 'id', message: 'two different tasks have the id "a" (the other at line 1); task ids must be unique' });
  });

  it('a variable missing from some tasks of a task file is told at that file\'s line, with how many others lack it', () => {
    const dir = scenarioDir({
      'tasks.jsonl': ['{"persona": "Ana", "problem": "2x = 6"}', '{"persona": "Ben", "problm": "x + 1 = 3"}', '{"persona": "Cy"}', ''].join('\n'),
    });
    const text = (file: string) => LOOP_SCENARIO.replace(/tasks:[\s\S]*?evaluation:/, `tasks:\n  mode: iter\n  file: ${file}\n  start_prompt: "Help me with {problem}"\nevaluation:`);
    const [issue, ...rest] = issuesOf(() => parseScenario(join(dir, 's.yaml'), text('tasks.jsonl'), { env: {} }));
    expect(rest.filter(i => i.field === 'problem')).toEqual([]);
    expect(issue).toMatchObject({ file: join(dir, 'tasks.jsonl'), line: 2, field: 'problem' });
    expect(issue!.message).toBe('this task (and 1 other task(s)) has no variable "problem", used by prompt 0 of agent "teacher" ({problem}) and the start prompt ({problem}); it has "problm": a misspelling?; its variables: persona, problm');
  });

  it('evaluation placeholders must be task.<variable>, messages.as_dialog() or anchors', () => {
    const text = ELMES.replace('evaluation expert...', 'evaluation expert... {task.topic} {question} {messages.as_text()}');
    const issues = issuesOf(() => load(text)).map(i => i.message);
    expect(issues).toEqual([
      'unknown variable {task.topic} in the evaluation prompt; the tasks have: image, question',
      'unknown variable {question} in the evaluation prompt; write {task.question}',
      'unknown variable {messages.as_text()} in the evaluation prompt; use {task.<variable>}, {messages.as_dialog()} or {anchors}',
    ]);
  });

  it('a missing environment variable is an error naming the field; ${VAR:-default} is allowed', () => {
    const issues = issuesOf(() => load(ELMES, { env: {} }));
    expect(issues).toEqual([{ file: '/tmp/s.yaml', line: lineOf(ELMES, 'api_key'), field: 'models.gpt4o.api_key', message: expect.stringContaining('environment variable OPENAI_KEY is not set') }]);
    expect(load(ELMES.replace('${OPENAI_KEY}', '${OPENAI_KEY:-none}'), { env: {} }).models.get('gpt4o')!.apiKey).toBe('none');
    const base = load(ELMES.replace('https://api.openai.com/v1', '${GATEWAY}/v1'), { env: { ...env, GATEWAY: 'http://127.0.0.1:8080' } });
    expect(base.models.get('gpt4o')!.apiBase).toBe('http://127.0.0.1:8080/v1');
  });

  it('cross-references: unknown model aliases with hints, judges, targets, credential-like kargs', () => {
    const text = ELMES.replace('  teacher:\n    model: gpt4o', '  teacher:\n    model: gpt-4o');
    expect(issuesOf(() => load(text))).toContainEqual(expect.objectContaining({ field: 'agents.teacher.model', message: 'no model "gpt-4o" under models; did you mean "gpt4o"?' }));
    expect(issuesOf(() => load(ELMES.replace('  model: gpt4o\n  format_mode', '  model: judge\n  format_mode')))[0]).toMatchObject({ field: 'evaluation.model' });
    expect(issuesOf(() => load(ELMES.replace('  model: gpt4o\n  format_mode', '  model: gpt4o\n  target: tutor\n  format_mode')))[0]!.message).toMatch(/no agent "tutor"/);
    expect(issuesOf(() => load(ELMES.replace('  model: gpt4o\n  format_mode', '  model: gpt4o\n  judges: { models: [gpt4o] }\n  format_mode')))[0]!.message).toMatch(/either model .* or judges/);
    const secret = issuesOf(() => load(ELMES.replace('temperature: 0.7', 'temperature: 0.7\n      api_key: sk-x')))[0]!;
    expect(secret).toMatchObject({ field: 'models.gpt4o.kargs.api_key' });
    expect(secret.message).not.toContain('sk-x');
  });

  it('rubric checks: weights need a scale, dicts need items, anchors must fit the format', () => {
    const weighted = ELMES.replace('      description: "Accuracy"', '      description: "Accuracy"\n      weight: 0.5');
    expect(issuesOf(() => load(weighted))[0]).toMatchObject({ field: 'evaluation.format.0.weight', message: expect.stringMatching(/needs a scale/) });
    const strWeight = ELMES.replace('          type: str\n          description: "Reason"', '          type: str\n          description: "Reason"\n    - field: note\n      type: str\n      weight: 1');
    expect(issuesOf(() => load(strWeight))[0]!.message).toMatch(/must be int, float or bool/);
    const anchor = ELMES.replace('          description: "Reason"\n', '          description: "Reason"\n  anchors:\n    - dialogue: "teacher: hi"\n      scores: { accuracy: high }\n');
    const issues = issuesOf(() => load(anchor));
    expect(issues.map(i => i.field)).toEqual(['evaluation.anchors.0.scores', 'evaluation.anchors.0.scores']);
    expect(issues[0]!.message).toMatch(/accuracy must be a number/);
    expect(issues[1]!.message).toMatch(/guidance is missing/);
  });

  it('MCP tools are refused, not silently ignored', () => {
    const text = ELMES.replace('      keep_turns: 3\n  student', '      keep_turns: 3\n    tools: [calculator]\n  student');
    expect(issuesOf(() => load(text))[0]).toMatchObject({ field: 'agents.teacher.tools' });
  });

  it('a file that cannot be read, and a YAML file that is not a mapping', () => {
    expect(issuesOf(() => loadScenario('/nonexistent/s.yaml'))[0]!.message).toMatch(/cannot read the scenario/);
    expect(issuesOf(() => load('- a\n- b\n'))[0]!.message).toMatch(/a scenario is a YAML mapping/);
  });
});

describe('loadScenario: task files', () => {
  const base = LOOP_SCENARIO.replace(/tasks:[\s\S]*?evaluation:/, 'tasks:\n  mode: iter\n  file: TASKFILE\nevaluation:');

  it('reads JSONL and CSV task files relative to the scenario', () => {
    const dir = scenarioDir({
      'tasks/t.jsonl': '{"id": "a", "persona": "Ana", "problem": "2x = 6"}\n\n{"id": "b", "persona": "Ben", "problem": 12}\n',
      't.csv': 'id,persona,problem\nc,"Cara, 12","Solve ""x"" in 3x = 9\nthen check"\n',
    });
    writeScenario(dir, 'j.yaml', base.replace('TASKFILE', 'tasks/t.jsonl'));
    writeScenario(dir, 'c.yaml', base.replace('TASKFILE', 't.csv'));
    expect(loadScenario(join(dir, 'j.yaml')).tasks.map(t => t.vars)).toEqual([
      { id: 'a', persona: 'Ana', problem: '2x = 6' }, { id: 'b', persona: 'Ben', problem: '12' },
    ]);
    expect(loadScenario(join(dir, 'c.yaml')).tasks.map(t => t.vars)).toEqual([{ id: 'c', persona: 'Cara, 12', problem: 'Solve "x" in 3x = 9\nthen check' }]);
  });

  it('reads a JSONL task file that starts with a UTF-8 BOM (and one before any line)', () => {
    const dir = scenarioDir({ 'bom.jsonl': '\uFEFF{"persona": "Ana", "problem": "2x = 6"}\r\n\uFEFF{"persona": "Ben", "problem": "x + 1 = 3"}\r\nnot json\n' });
    writeScenario(dir, 'j.yaml', base.replace('TASKFILE', 'bom.jsonl'));
    expect(issuesOf(() => loadScenario(join(dir, 'j.yaml'))).map(i => [i.file, i.line])).toEqual([[join(dir, 'bom.jsonl'), 3]]);
    writeFileSync(join(dir, 'bom.jsonl'), '\uFEFF{"persona": "Ana", "problem": "2x = 6"}\r\n\uFEFF{"persona": "Ben", "problem": "x + 1 = 3"}\r\n');
    expect(loadScenario(join(dir, 'j.yaml')).tasks.map(t => t.vars)).toEqual([{ persona: 'Ana', problem: '2x = 6' }, { persona: 'Ben', problem: 'x + 1 = 3' }]);
  });

  it('reports bad task files by their own file and line', () => {
    const dir = scenarioDir({ 'bad.jsonl': '{"persona": "A", "problem": "p"}\nnot json\n[1]\n', 'bad.csv': 'persona,problem\nA\n', 'open.csv': 'persona,problem\n"A,p\n' });
    writeScenario(dir, 'j.yaml', base.replace('TASKFILE', 'bad.jsonl'));
    writeScenario(dir, 'c.yaml', base.replace('TASKFILE', 'bad.csv'));
    writeScenario(dir, 'o.yaml', base.replace('TASKFILE', 'open.csv'));
    writeScenario(dir, 'm.yaml', base.replace('TASKFILE', 'missing.csv'));
    writeScenario(dir, 'u.yaml', base.replace('TASKFILE', 'bad.csv').replace('mode: iter', 'mode: union'));
    expect(issuesOf(() => loadScenario(join(dir, 'j.yaml'))).map(i => [i.file, i.line])).toEqual([[join(dir, 'bad.jsonl'), 2], [join(dir, 'bad.jsonl'), 3]]);
    expect(issuesOf(() => loadScenario(join(dir, 'c.yaml')))[0]).toMatchObject({ file: join(dir, 'bad.csv'), line: 2, message: expect.stringMatching(/1 field\(s\), the header has 2/) });
    expect(issuesOf(() => loadScenario(join(dir, 'o.yaml')))[0]).toMatchObject({ line: 2, message: expect.stringMatching(/never closed/) });
    expect(issuesOf(() => loadScenario(join(dir, 'm.yaml')))[0]).toMatchObject({ field: 'tasks.file', message: expect.stringMatching(/cannot read the task file/) });
    expect(issuesOf(() => loadScenario(join(dir, 'u.yaml')))[0]).toMatchObject({ field: 'tasks.mode', message: expect.stringMatching(/use mode: iter/) });
  });

  it('iter needs a list and union needs lists per variable', () => {
    expect(issuesOf(() => load(LOOP_SCENARIO.replace('mode: union', 'mode: iter')))[0]).toMatchObject({ field: 'tasks.content', message: expect.stringMatching(/for lists of values per variable use mode: union/) });
    expect(issuesOf(() => load(LOOP_SCENARIO.replace('persona: [Ana, Ben]', 'persona: []')))[0]!.message).toMatch(/is empty/);
  });
});

describe('model overrides (--model alias=spec)', () => {
  it('replaces the whole model: spec, endpoint and key (never the file\'s key at a host the command line chose)', () => {
    const s = load(ELMES, { env: {}, models: [parseModelSpec('gpt4o=baseline:gold')] });
    expect(s.models.get('gpt4o')).toEqual({ alias: 'gpt4o', spec: { alias: 'gpt4o', provider: 'baseline', model: 'gold', spec: 'baseline:gold' }, params: {} });
    const same = load(ELMES, { env, models: [parseModelSpec('gpt4o=openai:gpt-4.1')] });
    expect(same.models.get('gpt4o')).toMatchObject({ spec: { spec: 'openai:gpt-4.1' } });
    expect(same.models.get('gpt4o')!.apiBase).toBeUndefined();
    expect(same.models.get('gpt4o')!.apiKey).toBeUndefined();
    const local = load(ELMES, { env: { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' }, models: [parseModelSpec('gpt4o=openai:gpt-4.1')] });
    expect(local.models.get('gpt4o')).toMatchObject({ apiBase: 'http://127.0.0.1:8080/v1' });
    expect(local.models.get('gpt4o')!.apiKey).toBeUndefined();
    const flag = load(ELMES, { env, baseUrl: 'http://127.0.0.1:9999/v1' });
    expect(flag.models.get('gpt4o')).toMatchObject({ apiBase: 'http://127.0.0.1:9999/v1', spec: { spec: 'openai:gpt-4o-mini' } });
    expect(flag.models.get('gpt4o')!.apiKey).toBeUndefined();
    expect(issuesOf(() => load(ELMES, { env, baseUrl: '127.0.0.1:9999/v1' }))).toContainEqual(expect.objectContaining({ field: '--base-url', message: '"127.0.0.1:9999/v1" is not a URL; write the scheme, e.g. http://127.0.0.1:9999/v1' }));
  });

  it('an unknown alias is an error naming --model; an alias given twice sweeps it', () => {
    expect(issuesOf(() => load(LOOP_SCENARIO, { models: [parseModelSpec('tutr=openai:x')] }))[0]).toMatchObject({ field: '--model', message: expect.stringContaining('did you mean "tutor"') });
    const s = load(LOOP_SCENARIO, { models: [parseModelSpec('tutor=openai:a'), parseModelSpec('tutor=openai:b')] });
    expect(s.variants.map(v => v.label)).toEqual(['openai:a', 'openai:b']);
    const other = load(LOOP_SCENARIO, { models: [parseModelSpec('learner=openai:a'), parseModelSpec('learner=openai:b')] });
    expect(other.variants.map(v => v.label)).toEqual(['tutor[learner=openai:a]', 'tutor[learner=openai:b]']);
  });

  it('baseline:script needs a script that exists, and whose turns read as the run would read them', () => {
    const dir = scenarioDir({ 'script.json': '["hi"]', 'wrong.json': '{"not":"a script"}' });
    const text = LOOP_SCENARIO.replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', 'tutor: { type: baseline, model: script, script: script.json }');
    writeScenario(dir, 'ok.yaml', text);
    writeScenario(dir, 'missing.yaml', text.replace('script: script.json', 'script: nope.json'));
    writeScenario(dir, 'none.yaml', text.replace(', script: script.json', ''));
    expect(loadScenario(join(dir, 'ok.yaml')).models.get('tutor')!.scriptFile).toBe(join(dir, 'script.json'));
    expect(issuesOf(() => loadScenario(join(dir, 'missing.yaml')))[0]).toMatchObject({ field: 'models.tutor.script', message: expect.stringMatching(/not found/) });
    expect(issuesOf(() => loadScenario(join(dir, 'none.yaml')))[0]!.message).toMatch(/baseline:script needs a script/);
    writeScenario(dir, 'wrong.yaml', text.replace('script: script.json', 'script: wrong.json'));
    // Told at the scenario's own field and line (where the editor points), with the script's place in the message.
    expect(issuesOf(() => loadScenario(join(dir, 'wrong.yaml')))).toContainEqual(expect.objectContaining({
      file: join(dir, 'wrong.yaml'), line: expect.any(Number), field: 'models.tutor.script', message: expect.stringMatching(new RegExp(`^${join(dir, 'wrong.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, field "\\(root\\)": .*not`)),
    }));
  });

  it('baseline:script must have turns for every agent that has it (its own list, else the default list), as the run reads them', () => {
    const dir = scenarioDir({
      'none.json': '{}', 'empty.json': '[]', 'others.json': '{"byRole":{"student":["a"]}}',
      // The agent's own list wins over the default, as the scripted model reads it: an empty one is no turns.
      'own-empty.json': '{"byRole":{"teacher":[]},"default":["a"]}',
      'ok.json': '{"byRole":{"teacher":["a"]}}', 'default.json': '["a"]',
    });
    const text = LOOP_SCENARIO.replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', 'tutor: { type: baseline, model: script, script: SCRIPT }');
    const load = (script: string) => {
      writeScenario(dir, `${script}.yaml`, text.replace('SCRIPT', script));
      try {
        loadScenario(join(dir, `${script}.yaml`));
        return [];
      } catch {
        return issuesOf(() => loadScenario(join(dir, `${script}.yaml`)));
      }
    };
    for (const bad of ['none.json', 'empty.json', 'others.json', 'own-empty.json']) {
      expect(load(bad), bad).toEqual([expect.objectContaining({
        field: 'agents.teacher.model', line: expect.any(Number),
        message: `the script ${join(dir, bad)} of model "tutor" has no turns for agent "teacher": add a "byRole": {"teacher": [...]} list or a "default" list`,
      })]);
    }
    expect(load('ok.json')).toEqual([]);
    expect(load('default.json')).toEqual([]);
  });
});

describe('scenarioJsonSchema', () => {
  it('publishes the whole format, Paideia extensions included', () => {
    const schema = scenarioJsonSchema() as { properties: Record<string, { properties?: Record<string, unknown> }>; required: string[]; additionalProperties: boolean };
    expect(schema.required).toEqual(['models', 'agents', 'directions', 'tasks']);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties.evaluation!.properties!)).toEqual(expect.arrayContaining(['judges', 'anchors', 'repeats', 'format_mode', 'format']));
    expect(JSON.stringify(schema)).toContain('"weight"');
    expect(JSON.stringify(schema)).toContain('"keep_turns"');
  });
});

function writeScenario(dir: string, name: string, text: string): void {
  writeFileSync(join(dir, name), text);
}
