/**
 * The analysis input: everything `validity analyze` needs, whether it came from imported CSV files
 * or from stored Judgments (`validity run`). Both paths build this table; the analyses read only it.
 */
export interface AnalysisTable {
  /** One row per rating: observation x item x rater x prompt x repeat. */
  ratings: RatingRow[];
  /** One row per expert rating of an observation on an item. */
  experts: ExpertRow[];
  /** Outcome per unit (e.g. a teacher's value added); empty when there are none. */
  outcomes: ReadonlyMap<string, number>;
  /** Unit of each observation; an observation not listed is its own unit. */
  units: ReadonlyMap<string, string>;
  /** Scale of each rated item. Every item in `ratings` and `experts` has one. */
  scales: ReadonlyMap<string, Scale>;
  /** Real-world baselines set beside the raters (numeric extra columns of the observation or outcome files). */
  baselines: Baseline[];
  /** Expertise weight per rater (e.g. a pedagogy benchmark score), for the weighted ensemble. */
  raterWeights: ReadonlyMap<string, number>;
}

export interface RatingRow {
  observation: string;
  item: string;
  rater: string;
  prompt: string;
  /** Repeat label; '' when the study has one rating per cell. */
  repeat: string;
  /** The ordinal rating, or null when the answer was unscored. */
  score: number | null;
  /** Why the rating is unscored (from the ordinal parser or the import); absent when scored. */
  unscoredReason?: string;
  /** Columns beyond the contract, kept as read. */
  extra?: Readonly<Record<string, string>>;
}

export interface ExpertRow {
  observation: string;
  item: string;
  expert: string;
  score: number;
  extra?: Readonly<Record<string, string>>;
}

export interface Scale {
  min: number;
  max: number;
}

/** A baseline measured per observation (e.g. transcript length) or per unit (e.g. years of experience). */
export interface Baseline {
  name: string;
  level: 'observation' | 'unit';
  values: ReadonlyMap<string, number>;
}

/** The unit of an observation (itself when the observation file does not list it). */
export function unitOf(table: Pick<AnalysisTable, 'units'>, observation: string): string {
  return table.units.get(observation) ?? observation;
}
