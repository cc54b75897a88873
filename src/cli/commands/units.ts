import { join } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/index.js';
import { buildOutline, checkUnits, findUnit, loadUnits, outlineMarkdown } from '../../learning/units/index.js';
import { packageRoot } from '../../core/package-root.js';

type Format = 'json' | 'md';

export function formatFlag(value: string): Format {
  if (value === 'json' || value === 'md') return value;
  throw new ConfigError([{ field: '--format', message: `expected json or md, got "${value}"` }]);
}

const defaultUnits = () => [join(packageRoot(), 'data', 'units')];

export function registerUnits(program: Command, out: (text: string) => void = t => process.stdout.write(t)): void {
  const units = program.command('units').description('instructional units: list, validate, and the course outline a deck generator gets');
  units.command('list')
    .description('list units (default: the shipped data/units)')
    .argument('[paths...]', 'unit files or folders')
    .option('--format <format>', 'json or md', 'md')
    .action((paths: string[], f: { format: string }) => {
      const format = formatFlag(f.format);
      const rows = loadUnits(paths.length ? paths : defaultUnits()).map(({ file, unit: u }) => ({
        id: u.id, title: u.title, language: u.language, taskType: u.task_type, difficulty: u.difficulty.band, file,
        items: { source: u.source_items.length, near: u.near_transfer.length, far: u.far_transfer.length },
      }));
      if (format === 'json') out(`${JSON.stringify(rows, null, 2)}\n`);
      else out(['| id | language | task type | difficulty | source/near/far |', '|---|---|---|---|---|',
        ...rows.map(r => `| ${r.id} | ${r.language} | ${r.taskType} | ${r.difficulty} | ${r.items.source}/${r.items.near}/${r.items.far} |`), ''].join('\n'));
    });
  units.command('validate')
    .description('check unit files and print every problem with file, line and field (exit 2 if any)')
    .argument('[paths...]', 'unit files or folders')
    .action((paths: string[]) => {
      const { units: ok, issues } = checkUnits(paths.length ? paths : defaultUnits());
      // ConfigError prints one `file:line, field "x": message` line per problem, so an editor can jump to each.
      if (issues.length) throw new ConfigError(issues);
      out(`ok: ${ok.length} unit${ok.length === 1 ? '' : 's'} valid\n`);
    });
  units.command('outline')
    .description('the course outline of one unit: objectives, required and prohibited content, visual aids, transfer design (never an item or answer)')
    .argument('<id>', 'unit id')
    .option('--units <paths...>', 'unit files or folders to look in (default: the shipped data/units)')
    .option('--format <format>', 'json or md', 'md')
    .action((id: string, f: { units?: string[]; format: string }) => {
      const format = formatFlag(f.format);
      const outline = buildOutline(findUnit(loadUnits(f.units ?? defaultUnits()), id).unit);
      out(format === 'json' ? `${JSON.stringify(outline, null, 2)}\n` : outlineMarkdown(outline));
    });
}
