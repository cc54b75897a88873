const REASONING_BLOCK = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi;
const DANGLING_CLOSE = /^[\s\S]*?<\/(think|thinking|reasoning)>/i;
const UNCLOSED_OPEN = /^\s*<(think|thinking|reasoning)>[\s\S]*$/i;

/**
 * Text without reasoning blocks (`<think>...</think>`, `<thinking>`, `<reasoning>`). Some models
 * omit the opening tag and start straight with their reasoning, so text before a lone closing tag
 * goes too. What other agents and readers of a dialogue see.
 */
export function stripReasoning(text: string): string {
  const closed = text.replace(REASONING_BLOCK, '');
  return (DANGLING_CLOSE.test(closed) ? closed.replace(DANGLING_CLOSE, '') : closed).trim();
}

/**
 * The final answer of a reply, for marking: as stripReasoning, and a leading opening tag that is
 * never closed takes everything after it (the reasoning never ended, so there is no answer). A
 * draft inside the reasoning is never taken for the answer.
 */
export function finalAnswerText(text: string): string {
  const out = stripReasoning(text);
  return UNCLOSED_OPEN.test(out) ? '' : out;
}
