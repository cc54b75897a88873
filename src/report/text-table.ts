/**
 * A plain-text table for the terminal: a header, then rows, columns padded to their widest cell
 * and two spaces apart. Columns marked 'right' (numbers) are right-aligned.
 */
export function textTable(header: string[], rows: string[][], align: Array<'left' | 'right'> = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => (r[i] ?? '').length)));
  const pad = (c: string, i: number) => (align[i] === 'right' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!));
  const line = (cells: string[]) => cells.map(pad).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
