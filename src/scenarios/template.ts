/**
 * `{name}` placeholders. Only a brace around a name (letters, digits, _, dots, an optional `()`)
 * is a placeholder, so JSON examples such as `{"score": 5}` in a prompt stay as written;
 * `{{` and `}}` write literal braces.
 */
const PLACEHOLDER = /\{\{|\}\}|\{([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*(?:\(\))?)\}/gu;

/** Names of the placeholders in a text, in order, duplicates kept. */
export function placeholders(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (m[1] !== undefined) names.push(m[1]);
  return names;
}

export class UnknownVariableError extends Error {
  constructor(readonly variable: string, message: string) {
    super(message);
    this.name = 'UnknownVariableError';
  }
}

/** Fill placeholders; `lookup` returns undefined for a name it does not know, which is an error. */
export function renderTemplate(text: string, lookup: (name: string) => string | undefined, where = 'the prompt'): string {
  return text.replace(PLACEHOLDER, (whole, name: string | undefined) => {
    if (name === undefined) return whole === '{{' ? '{' : '}';
    const value = lookup(name);
    if (value === undefined) throw new UnknownVariableError(name, `unknown variable {${name}} in ${where}`);
    return value;
  });
}

/** Lookup for agent prompts: task variables by name, also as `task.<name>`. */
export function taskLookup(vars: Readonly<Record<string, string>>): (name: string) => string | undefined {
  return name => {
    const key = name.startsWith('task.') ? name.slice(5) : name;
    return Object.hasOwn(vars, key) ? vars[key] : undefined;
  };
}
