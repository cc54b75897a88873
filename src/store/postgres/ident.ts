/**
 * A role or database name as SQL to paste: bare when PostgreSQL would read it unchanged (lower
 * case, letters, digits, _ and $), else double-quoted with its quotes doubled.
 */
export function sqlIdent(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}
