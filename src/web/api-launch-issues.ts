import type { ConfigIssue } from '../core/index.js';

/** CLI flags whose config field is not found from their name alone. */
const FLAG_FIELDS: Readonly<Record<string, string>> = { '--images': 'imageModels', '-m': 'models' };

const camel = (flag: string) => flag.replace(/^-+/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The config field a CLI flag sets, among the fields the page draws: `--model` is `models`, `--cost-cap` is `costCapUsd`. */
export function fieldOfFlag(flag: string, fields: ReadonlySet<string>): string | undefined {
  const explicit = FLAG_FIELDS[flag];
  if (explicit && fields.has(explicit)) return explicit;
  const name = camel(flag);
  return [name, `${name}s`, name.replace(/y$/, 'ies'), `${name}Usd`].find(f => fields.has(f));
}

/** A flag given with a value, as the CLI's examples write it (`--model baseline:gold`); or alone. */
const FLAG_MENTION = /(?<![\w-])(--?[a-z][a-z-]*)(?:\s+([\w.@/-]+[:=][^\s,;]+|\d[\d.]*))?/g;

/**
 * A run kind's problems as the launch page shows them. The kinds are shared with the CLI, so some
 * name a flag (`--model`); here each names the config field the page sent (`models`, a dot-path
 * such as `models.1` by its field), and a message's `--flag value` examples become the value alone
 * (the page has no flags), a bare flag its field.
 */
export function pageIssues(issues: ReadonlyArray<ConfigIssue>, fields: ReadonlySet<string>): ConfigIssue[] {
  const message = (text: string) => text.replace(FLAG_MENTION, (whole, flag: string, value: string | undefined) => {
    const field = fieldOfFlag(flag, fields);
    if (!field) return whole;
    return value ?? field;
  });
  return issues.map(i => {
    const raw = i.field ?? '';
    const head = raw.split('.')[0]!;
    const field = raw.startsWith('-') ? fieldOfFlag(raw, fields) : fields.has(head) ? head : undefined;
    return { ...i, ...(field ? { field } : {}), message: message(i.message) };
  });
}
