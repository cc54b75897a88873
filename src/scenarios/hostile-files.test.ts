import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { loadScenario, parseScenario } from './load.js';
import { MAX_TASKS } from './tasks.js';
import { LOOP_SCENARIO } from './testing/fixtures.js';

function issuesOf(load: () => unknown): ConfigError['issues'] {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

const withTasks = (tasks: string) => LOOP_SCENARIO.replace(/tasks:[\s\S]*?evaluation:/, `tasks:\n${tasks}\nevaluation:`);
const taskFile = (file: string) => withTasks(`  mode: iter\n  file: "${file}"`);

describe('scenario files that name hostile files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paideia-hostile-scenario-'));

  it('refuses a device, a folder and a pipe as the task file, by YAML line, without reading them', () => {
    const fifo = join(dir, 'tasks.jsonl');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(join(dir, 'folder.jsonl'));
    for (const [file, why] of [['/dev/zero.jsonl', /no such file/], ['/dev/zero', /task files are \.jsonl or \.csv/], [fifo, /is a pipe/], [join(dir, 'folder.jsonl'), /is a folder/]] as const) {
      const [issue] = issuesOf(() => parseScenario(join(dir, 's.yaml'), taskFile(file)));
      expect(issue).toMatchObject({ file: join(dir, 's.yaml'), field: 'tasks.file', line: expect.any(Number), message: expect.stringMatching(why) });
    }
  });

  it('refuses a task file over the size limit', () => {
    const big = join(dir, 'big.csv');
    writeFileSync(big, 'persona,problem\n' + 'Ana,x\n'.repeat(20));
    const yaml = join(dir, 'big.yaml');
    writeFileSync(yaml, taskFile(big));
    expect(() => loadScenario(yaml)).not.toThrow();
    writeFileSync(big, 'persona,problem\n' + `Ana,${'x'.repeat(1024 * 1024)}\n`.repeat(65));
    expect(issuesOf(() => loadScenario(yaml))[0]?.message).toMatch(/larger than the limit of 64 MB/);
  });

  it('refuses the scenario itself when it is a device or a folder', () => {
    expect(issuesOf(() => loadScenario('/dev/zero'))[0]).toEqual({ file: '/dev/zero', message: 'the scenario is a device, not a regular file; name a file' });
    expect(issuesOf(() => loadScenario(dir))[0]?.message).toMatch(/is a folder/);
  });

  it('refuses an empty or folder script of baseline:script by field', () => {
    const script = (value: string) => LOOP_SCENARIO.replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', `tutor: { type: baseline, model: script, script: ${JSON.stringify(value)} }`);
    expect(issuesOf(() => parseScenario(join(dir, 's.yaml'), script('')))[0]).toMatchObject({ field: 'models.tutor.script', message: expect.stringMatching(/script is empty/) });
    expect(issuesOf(() => parseScenario(join(dir, 's.yaml'), script('.')))[0]).toMatchObject({ field: 'models.tutor.script', message: expect.stringMatching(/is a folder, not a regular file/) });
    expect(issuesOf(() => parseScenario(join(dir, 's.yaml'), script('/dev/zero')))[0]).toMatchObject({ field: 'models.tutor.script', message: expect.stringMatching(/not a regular file/) });
  });
});

describe('scenario text that would exhaust memory or the stack', () => {
  it('reports an alias bomb with file and line instead of throwing', () => {
    const bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';
    const issues = issuesOf(() => parseScenario('/tmp/bomb.yaml', LOOP_SCENARIO + bomb));
    expect(issues).toEqual([{ file: '/tmp/bomb.yaml', line: LOOP_SCENARIO.split('\n').length + 1, message: expect.stringMatching(/YAML aliases expand too much/) }]);
  });

  it('names a 760 KB unknown key with a short prefix, at once (no quadratic "did you mean")', () => {
    const key = 'k'.repeat(760_000);
    const started = Date.now();
    const [issue] = issuesOf(() => parseScenario('/tmp/long.yaml', `${LOOP_SCENARIO}? ${key}\n: 1\n`));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(issue!.message).toMatch(/^unknown key "k{80}… \(760000 characters\)"; known keys:/);
  });

  it('reports YAML nested deeper than 64 levels', () => {
    const deep = LOOP_SCENARIO + `extra: ${'['.repeat(100)}${']'.repeat(100)}\n`;
    expect(issuesOf(() => parseScenario('/tmp/deep.yaml', deep))[0]).toMatchObject({ file: '/tmp/deep.yaml', line: 1, message: expect.stringMatching(/nests more than 64 levels/) });
  });

  it('refuses a union product above the limit with a message that names it', () => {
    const lists = Array.from({ length: 8 }, (_, i) => `    v${i}: [${Array.from({ length: 20 }, (_, j) => `"${j}"`).join(', ')}]`).join('\n');
    const text = withTasks(`  mode: union\n  content:\n${lists}`).replace(/\{persona\}|\{problem\}|\{task\.problem\}/g, '{v0}');
    const started = Date.now();
    const [issue] = issuesOf(() => parseScenario('/tmp/union.yaml', text));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(issue).toMatchObject({ field: 'tasks.content', line: expect.any(Number) });
    expect(issue!.message).toBe(`the union of v0 (20) x v1 (20) x v2 (20) x v3 (20) x v4 (20) x v5 (20) x v6 (20) x v7 (20) is 25,600,000,000 tasks, above the limit of ${MAX_TASKS.toLocaleString('en-US')}; use fewer values, or list the combinations you need with mode: iter`);
  });

  it('gives 100,000 union tasks 100,000 different ids', () => {
    // These values hold two pairs whose hashes share their first 32 bits (found by search): ids of
    // 8 hex digits collided here.
    const lists = `    a: [${Array.from({ length: 100 }, (_, i) => `"a${i}"`).join(', ')}]\n    b: [${Array.from({ length: 1000 }, (_, i) => `"b${i}-0"`).join(', ')}]`;
    const text = withTasks(`  mode: union\n  content:\n${lists}`).replace(/\{persona\}/g, '{a}').replace(/\{problem\}/g, '{b}').replace('{task.problem}', '{task.b}');
    const tasks = parseScenario('/tmp/wide.yaml', text).tasks;
    expect(tasks).toHaveLength(100_000);
    expect(new Set(tasks.map(t => t.id)).size).toBe(100_000);
  });
});
