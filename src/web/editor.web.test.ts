import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../cli/testing/run-cli.js';
import { openAIChatBody } from '../providers/testing/fake-servers.js';
import { axeViolations, MAX_DIFF_SHARE, screenshotDiff } from './testing/page-checks.js';
import { problems, SECRET_KEY, startHarness, type Harness } from './testing/harness.js';

let H: Harness;
beforeAll(async () => { H = await startHarness(() => ({ body: openAIChatBody({ text: 'unused' }) })); }, 120_000);
afterAll(async () => { await H?.close(); });

const FILE = 'knowledge-explanation.yaml';
const OK = `ok: ${FILE} is a valid scenario`;

async function checkPage(page: Page, name: string): Promise<void> {
  expect(problems).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  expect(await page.content()).not.toContain(SECRET_KEY);
  expect(await screenshotDiff(H.browser, page, name)).toBeLessThanOrEqual(MAX_DIFF_SHARE);
}

/** What `paideia scenario validate` prints for a text, in the scenario's own file (restored after). */
async function validateWithCli(text: string): Promise<string> {
  const file = join(H.dir, 'scenarios', FILE);
  const before = readFileSync(file, 'utf8');
  writeFileSync(file, text);
  try {
    return (await startCli(['scenario', 'validate', file], { cwd: H.dir }).done).stderr;
  } finally {
    writeFileSync(file, before);
  }
}

async function open(page: Page): Promise<void> {
  await page.goto(`${H.server.url}/editor`);
  await page.getByRole('link', { name: FILE }).click();
  await page.getByText(OK).waitFor();
}

describe('the scenario editor\'s form, in step with the YAML both ways', () => {
  it('edits the task grid, the rubric, agents and directions in the form; the YAML, the checks and the drawn flow follow', async () => {
    const page = await H.page();
    await open(page);
    const yaml = page.getByLabel('YAML');
    const grid = page.locator('table.task-grid');
    expect(await grid.locator('tbody tr').count()).toBe(4);
    expect(await grid.locator('thead th').count()).toBe(5);
    await page.getByText('4 persona × 4 knowledge_point = 16 tasks').waitFor();

    // Rows and columns of the personas x problems grid.
    await page.getByRole('button', { name: 'Add persona (row)' }).click();
    expect(await grid.locator('tbody tr').count()).toBe(5);
    await page.getByLabel('persona 5', { exact: true }).fill('Sam, 9, <b>loves</b> dinosaurs.');
    await page.getByRole('button', { name: 'Remove knowledge_point 4' }).click();
    await page.getByText('5 persona × 3 knowledge_point = 15 tasks').waitFor();
    let text = await yaml.inputValue();
    expect(text).toContain('- Sam, 9, <b>loves</b> dinosaurs.');
    expect(text).not.toContain("Newton's third law");
    // Comments away from the edit stay (the note in the page warns they may not always).
    expect(text).toContain('# the model under test');
    expect(await page.locator('#form-note').textContent()).toMatch(/comment .* may be lost/);

    // The rubric: a weight from the form lands in the YAML; a dimension typed in the YAML lands in the form.
    await page.getByLabel('Rubric field personalisation: weight').fill('0.5');
    await expect.poll(() => yaml.inputValue()).toMatch(/field: personalisation\n(?:.*\n){3}\s+dimension: Personalisation\n\s+weight: 0.5\n/);
    await yaml.fill((await yaml.inputValue()).replace('dimension: Creativity stimulation', 'dimension: Curiosity'));
    expect(await page.getByLabel('Rubric field creativity: dimension').inputValue()).toBe('Curiosity');
    await page.getByText(OK).waitFor();

    // A form edit that breaks the scenario: the problems are the lines scenario validate prints.
    await page.getByLabel('Rubric field accuracy: max').fill('0');
    await page.locator('#problems li').first().waitFor();
    const shown = await page.locator('#problems li').allTextContents();
    const cli = await validateWithCli(await yaml.inputValue());
    expect(shown.length).toBeGreaterThanOrEqual(1);
    for (const line of shown) expect(cli).toContain(line);
    await page.getByLabel('Rubric field accuracy: max').fill('5');
    await page.getByText(OK).waitFor();

    // A second agent and the directions through it: the drawn flow follows. It has the scripted
    // teacher model, whose script needs turns for it too (the working folder's copy gets them).
    const script = join(H.dir, 'scenarios', 'scripts', 'knowledge-explanation.json');
    const turns = JSON.parse(readFileSync(script, 'utf8')) as { byRole: Record<string, string[]> };
    writeFileSync(script, JSON.stringify({ ...turns, byRole: { ...turns.byRole, agent_2: ['No errors found.'] } }));
    await page.getByRole('button', { name: 'Add agent' }).click();
    await page.getByLabel('Agent agent_2, message 1: content').fill('You check the explanation for errors.');
    await page.getByLabel('Direction 2 (FROM -> TO)').fill('teacher -> agent_2');
    await page.getByRole('button', { name: 'Add direction' }).click();
    await page.getByLabel('Direction 3 (FROM -> TO)').fill('agent_2 -> END');
    await expect.poll(() => page.locator('figure.flow figcaption').textContent()).toBe('Directions: START → teacher; teacher → agent_2; agent_2 → END');
    text = await yaml.inputValue();
    expect(text).toMatch(/agent_2:\n\s+model: teacher\n\s+prompt:\n\s+- role: system\n\s+content: You check the explanation for errors\./);
    expect(await validateWithCli(text)).not.toMatch(/error/i);
    await page.evaluate('document.activeElement.blur(); window.scrollTo(0, 0)');
    await checkPage(page, 'editor-form');
    await page.context().close();
  });

  it('renames a model everywhere the scenario names it, keeping its comment, and the scenario stays valid', async () => {
    const page = await H.page();
    await open(page);
    const yaml = page.getByLabel('YAML');
    await page.getByLabel('Model teacher: alias').fill('tutor');
    await page.getByLabel('Model teacher: alias').press('Tab');
    await page.getByLabel('Model judge: alias').fill('grader');
    await page.getByLabel('Model judge: alias').press('Tab');
    await page.getByText(OK).waitFor();
    const text = await yaml.inputValue();
    expect(text).toMatch(/^ {2}tutor:\n +# the model under test$/m);
    expect(text).toMatch(/agents:\n {2}teacher:\n {4}model: tutor\n/);
    expect(text).toMatch(/evaluation:\n(?:.*\n)*? {2}model: grader\n/);
    expect(text).not.toMatch(/model: (teacher|judge)$/m);
    expect(await validateWithCli(text)).not.toMatch(/error/i);
    await page.context().close();
  });

  it('saves a form edit (the previous version kept) and runs it', async () => {
    const page = await H.page();
    await open(page);
    await page.getByLabel('Rubric field values: weight').fill('0.2');
    await page.getByText(OK).waitFor();
    const text = await page.getByLabel('YAML').inputValue();
    await page.getByRole('button', { name: 'Save and run' }).click();
    await page.waitForURL(/\/runs\/scn-/);
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 30_000 }).toBe('completed');
    const folder = join(H.dir, 'scenarios');
    expect(readFileSync(join(folder, FILE), 'utf8')).toBe(text);
    expect(text).toMatch(/field: values\n(?:.*\n){4}\s+weight: 0.2\n/);
    expect(readdirSync(folder).filter(f => f.startsWith(`${FILE}.v`))).toHaveLength(1);
    // The run reads the saved rubric: its judge panel is on the new weights' scores.
    await page.locator('table.radar-table').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says on the page why a saved scenario was not run (a model without a key), and keeps the save', async () => {
    const file = join(H.dir, 'scenarios', FILE);
    const before = readFileSync(file, 'utf8');
    const page = await H.page();
    try {
      await open(page);
      const text = (await page.getByLabel('YAML').inputValue())
        // The first model is the teacher's.
        .replace(/type: baseline\n( +)model: script\n +script: [^\n]+\n/, (_m, indent: string) => `type: anthropic\n${indent}model: claude-test\n`);
      expect(text).toContain('model: claude-test');
      await page.getByLabel('YAML').fill(text);
      await page.getByRole('button', { name: 'Save and run' }).click();
      const refused = page.locator('#run-refused');
      await refused.waitFor();
      expect(await refused.textContent()).toMatch(/^saved \S*scenarios\/knowledge-explanation\.yaml, but not run: .*no API key for https:\/\/api\.anthropic\.com/);
      expect(page.url()).toMatch(/\/editor\//);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    } finally {
      writeFileSync(file, before);
      await page.context().close();
    }
  });
});
