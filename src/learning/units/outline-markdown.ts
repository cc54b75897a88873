import type { CourseOutline } from './outline.js';

const list = (xs: ReadonlyArray<string>) => xs.map(x => `- ${x}`).join('\n');

/** The outline as Markdown, the form a generator prompt carries. */
export function outlineMarkdown(o: CourseOutline): string {
  const c = o.requiredContent;
  const t = o.transferDesign;
  return [
    `# ${o.title}`,
    `Unit \`${o.unit}\` · ${o.language} · ${o.taskType.replace(/_/g, ' ')} · ${o.difficulty}`,
    `## Knowledge point\n${o.knowledgePoint}`,
    `## Objectives\n${list(o.objectives)}`,
    `## Required content\n### Rules\n${c.rules.map((r, i) => `${i + 1}. ${r}`).join('\n')}`,
    ...(c.terms.length ? [`### Terms\n${list(c.terms.map(x => `**${x.term}**: ${x.definition}`))}`] : []),
    ...(c.exceptions.length ? [`### Exceptions\n${list(c.exceptions)}`] : []),
    `### Examples\n| ${o.language} | English | Note |\n|---|---|---|\n${c.examples.map(e => `| ${e.source} | ${e.target} | ${e.note ?? ''} |`).join('\n')}`,
    `## Prohibited content\n${list(o.prohibitedContent)}`,
    `## Requested visual aids\n${list(o.visualAids.map(a => `${a.kind}: ${a.description}`))}`,
    `## How learning will be tested\n${list([
      `${t.sourceItems} items like the examples (before and after studying)`,
      `${t.near.items} near-transfer items: ${t.near.description}`,
      `${t.far.items} far-transfer items: ${t.far.description}`,
    ])}`,
    `## Deck format\n${list(o.deckFormat)}`,
    '',
  ].join('\n\n');
}
