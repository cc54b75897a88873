import { readFileSync } from 'node:fs';

/**
 * The shell block of a doc between `<!-- NAME:start -->` and `<!-- NAME:end -->`, exactly as the doc
 * shows it: the worked-example tests paste it through `sh`, so the doc cannot drift from what runs.
 */
export function docShellBlock(docPath: string, name: string): string {
  const doc = readFileSync(docPath, 'utf8');
  const block = new RegExp(`<!-- ${name}:start -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(doc);
  if (!block) throw new Error(`${docPath} has no ${name} block`);
  return block[1]!;
}
