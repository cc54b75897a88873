/** Price of one model, USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** A dated price table. Keys are `provider:model` specs or bare model names. */
export interface PriceTable {
  /** Where the prices came from (a file path or "built-in"). */
  source: string;
  /** ISO date the prices were read from the vendor's page. */
  date: string;
  models: Record<string, ModelPrice>;
}
