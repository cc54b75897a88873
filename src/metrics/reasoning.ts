const REASONING_BLOCK = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi;
const DANGLING_CLOSE = /^[\s\S]*?<\/(think|thinking|reasoning)>/i;

/**
 * Text without reasoning blocks (`<think>...</think>`, `<thinking>`, `<reasoning>`). Some models
 * omit the opening tag and start straight with their reasoning, so text before a lone closing tag
 * goes too. Marking reads the final answer, never a draft inside the reasoning.
 */
export function stripReasoning(text: string): string {
  const closed = text.replace(REASONING_BLOCK, '');
  return (DANGLING_CLOSE.test(closed) ? closed.replace(DANGLING_CLOSE, '') : closed).trim();
}
