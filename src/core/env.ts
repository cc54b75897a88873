/** Environment variables as a provider or loader reads them (process.env fits; tests pass their own). */
export type Env = Readonly<Record<string, string | undefined>>;
