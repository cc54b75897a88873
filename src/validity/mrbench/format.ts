import { ConfigError, type ConfigIssue } from '../../core/index.js';

/**
 * The eight pedagogical dimensions of MRBench (Maurya et al. 2025, "Unifying AI Tutor Evaluation"),
 * four of which are the BEA 2025 shared-task tracks, with their label sets.
 */
export const DIMENSIONS = {
  Mistake_Identification: ['Yes', 'To some extent', 'No'],
  Mistake_Location: ['Yes', 'To some extent', 'No'],
  Revealing_of_the_Answer: ['Yes (correct)', 'Yes (incorrect)', 'No'],
  Providing_Guidance: ['Yes', 'To some extent', 'No'],
  Actionability: ['Yes', 'To some extent', 'No'],
  Coherence: ['Yes', 'To some extent', 'No'],
  Tutor_Tone: ['Encouraging', 'Neutral', 'Offensive'],
  Humanlikeness: ['Yes', 'To some extent', 'No'],
} as const;
export type Dimension = keyof typeof DIMENSIONS;
export const DIMENSION_NAMES = Object.keys(DIMENSIONS) as Dimension[];

/** One tutor response to one dialogue with its human labels. */
export interface TutorResponseLabels {
  conversationId: string;
  tutor: string;
  response: string;
  labels: Partial<Record<Dimension, string>>;
}

/** The dimension a key names, tolerant of case ("humanlikeness" appears in some releases). */
export function dimensionOf(key: string): Dimension | undefined {
  return DIMENSION_NAMES.find(d => d.toLowerCase() === key.trim().toLowerCase());
}

/**
 * A label in its canonical spelling, or undefined. Releases spell the answer-revealing labels
 * "Yes (and the revealed answer is correct)" or "Yes (and the answer is correct)"; both are one label.
 */
export function canonicalLabel(dimension: Dimension, raw: string): string | undefined {
  const v = raw.trim().toLowerCase();
  if (dimension === 'Revealing_of_the_Answer' && v.startsWith('yes')) {
    if (v.includes('incorrect')) return 'Yes (incorrect)';
    if (v.includes('correct')) return 'Yes (correct)';
    return undefined;
  }
  return DIMENSIONS[dimension].find(l => l.toLowerCase() === v);
}

/**
 * Reads MRBench (`anno_llm_responses`) or BEA 2025 shared-task (`tutor_responses`) JSON: an array of
 * dialogues, each with `conversation_id` and, per tutor, `{ response, annotation: { <dimension>: label } }`.
 * Unknown dimensions are ignored; a label outside a dimension's set is an error with its JSON path.
 */
export function readTutorAnnotations(text: string, file: string): TutorResponseLabels[] {
  let data: unknown;
  try { data = JSON.parse(text); } catch (error) {
    throw new ConfigError([{ file, message: `is not valid JSON (${(error as Error).message})` }]);
  }
  if (!Array.isArray(data)) throw new ConfigError([{ file, message: 'expected a JSON array of dialogues (MRBench or BEA 2025 format)' }]);
  const issues: ConfigIssue[] = [];
  const out: TutorResponseLabels[] = [];
  data.forEach((d: Record<string, unknown>, i) => {
    const id = d?.['conversation_id'];
    const responses = (d?.['anno_llm_responses'] ?? d?.['tutor_responses']) as Record<string, { response?: unknown; annotation?: Record<string, unknown> }> | undefined;
    if (typeof id !== 'string' && typeof id !== 'number') { issues.push({ file, field: `[${i}].conversation_id`, message: 'is missing' }); return; }
    if (!responses || typeof responses !== 'object') { issues.push({ file, field: `[${i}].anno_llm_responses`, message: 'is missing (or tutor_responses)' }); return; }
    for (const [tutor, r] of Object.entries(responses)) {
      const labels: Partial<Record<Dimension, string>> = {};
      for (const [key, raw] of Object.entries(r?.annotation ?? {})) {
        const dim = dimensionOf(key);
        if (!dim) continue;
        const label = typeof raw === 'string' ? canonicalLabel(dim, raw) : undefined;
        if (!label) issues.push({ file, field: `[${i}].${tutor}.annotation.${key}`, message: `label ${JSON.stringify(raw)} is not one of ${DIMENSIONS[dim].join(' / ')}` });
        else labels[dim] = label;
      }
      out.push({ conversationId: String(id), tutor, response: typeof r?.response === 'string' ? r.response : '', labels });
    }
  });
  if (issues.length) throw new ConfigError(issues.slice(0, 25));
  return out;
}
