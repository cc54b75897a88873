/** The ablations of one learning run: learner capacity, puzzle context, all slides vs k frames. */
export const ABLATION_OPTIONS = ['learner', 'puzzleContext', 'frames'] as const;
export type AblationOption = (typeof ABLATION_OPTIONS)[number];

/** The ablation setting one result was produced under. */
export interface AblationSetting {
  /** The learner model's alias (capacity). */
  learner: string;
  /** Whether the learner saw the puzzle's own examples beside each test. */
  puzzleContext: boolean;
  /** Every slide, or a sample of k frames. */
  frames: 'all' | number;
}

/** The value of one option as a report shows it. */
export function ablationValue(option: AblationOption, setting: AblationSetting): string {
  switch (option) {
    case 'learner': return setting.learner;
    case 'puzzleContext': return setting.puzzleContext ? 'with context' : 'without context';
    case 'frames': return setting.frames === 'all' ? 'all slides' : `${setting.frames} frames`;
  }
}

/** A stable id of a setting, e.g. for naming a result's variant: `learner=small;context=on;frames=4`. */
export function ablationId(setting: AblationSetting): string {
  return `learner=${setting.learner};context=${setting.puzzleContext ? 'on' : 'off'};frames=${setting.frames}`;
}

export interface AblationGroups<T> {
  option: AblationOption;
  /** One entry per value the option takes, in order (learners by name; context off, on; frames by k, all last). */
  values: Array<{ value: string; rows: T[] }>;
}

const rank = (option: AblationOption, s: AblationSetting): [number, string] =>
  option === 'frames' ? [s.frames === 'all' ? Infinity : s.frames, ''] : option === 'puzzleContext' ? [s.puzzleContext ? 1 : 0, ''] : [0, s.learner];

/**
 * Results grouped by each ablation option that varies among them (an option with one value is no
 * ablation and is left out), for the report's ablation tables.
 */
export function groupByAblation<T>(rows: readonly T[], settingOf: (row: T) => AblationSetting): AblationGroups<T>[] {
  return ABLATION_OPTIONS.flatMap(option => {
    const groups = new Map<string, { order: [number, string]; rows: T[] }>();
    for (const row of rows) {
      const setting = settingOf(row);
      const value = ablationValue(option, setting);
      const group = groups.get(value) ?? { order: rank(option, setting), rows: [] };
      group.rows.push(row);
      groups.set(value, group);
    }
    if (groups.size < 2) return [];
    const values = [...groups.entries()]
      .sort(([, a], [, b]) => a.order[0] - b.order[0] || (a.order[1] < b.order[1] ? -1 : a.order[1] > b.order[1] ? 1 : 0))
      .map(([value, g]) => ({ value, rows: g.rows }));
    return [{ option, values }];
  });
}
