/** Exit codes are part of the contract (design.md): 0 ok, 1 some trials failed, 2 bad input, 3 stopped (resumable). */
export const EXIT_CODES = { ok: 0, trialsFailed: 1, badInput: 2, stopped: 3 } as const;
