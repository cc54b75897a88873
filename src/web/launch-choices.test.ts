import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchChoices } from './launch-choices.js';

describe('the launch page\'s choices', () => {
  it('offer no scenario file or suite folder that is a link out of the offered folders (a launch of it is refused)', () => {
    const base = mkdtempSync(join(tmpdir(), 'paideia-choices-'));
    const outside = mkdtempSync(join(tmpdir(), 'paideia-outside-'));
    writeFileSync(join(outside, 'x.yaml'), 'name: x\n');
    mkdirSync(join(outside, 'items'));
    writeFileSync(join(outside, 'items', 'a.jsonl'), '{}\n');
    mkdirSync(join(base, 'scenarios'));
    writeFileSync(join(base, 'scenarios', 'ok.yaml'), 'name: ok\n');
    symlinkSync(join(outside, 'x.yaml'), join(base, 'scenarios', 'out.yaml'));
    // A link that stays inside is offered.
    symlinkSync(join(base, 'scenarios', 'ok.yaml'), join(base, 'scenarios', 'alias.yaml'));
    mkdirSync(join(base, 'suites', 'mine'), { recursive: true });
    writeFileSync(join(base, 'suites', 'mine', 'a.jsonl'), '{}\n');
    symlinkSync(join(outside, 'items'), join(base, 'suites', 'linked'));
    const choices = launchChoices({}, { base, suites: [join(base, 'suites')], scenarios: [join(base, 'scenarios')] });
    expect(choices.scenarios.sort()).toEqual(['scenarios/alias.yaml', 'scenarios/ok.yaml']);
    expect(choices.suites).toEqual(['suites/mine']);
  });
});
