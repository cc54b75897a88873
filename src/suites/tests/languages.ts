/** English names of the languages the suites cover, for prompts. Unknown codes are shown as given. */
const NAMES: Record<string, string> = {
  ga: 'Irish', en: 'English', cy: 'Welsh', gd: 'Scottish Gaelic', gv: 'Manx', br: 'Breton', kw: 'Cornish',
  pt: 'Portuguese', es: 'Spanish', vi: 'Vietnamese', ja: 'Japanese',
};

export function languageName(code: string): string {
  return NAMES[code] ?? code;
}

/** A string field of an item's input, or a clear error naming the field. */
export function inputText(input: Record<string, unknown>, field: string, itemId: string): string {
  const v = input[field];
  if (typeof v !== 'string') throw new TypeError(`item ${itemId}: input.${field} must be a string`);
  return v;
}
