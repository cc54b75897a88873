/**
 * Exit codes are part of the contract (design.md, README): 0 ok, 1 some trials failed, 2 bad input,
 * 3 stopped (resumable), 4 the store failed (disk full, read-only, damaged): what was stored is
 * kept and the run resumes once the store is fixed.
 */
export const EXIT_CODES = { ok: 0, trialsFailed: 1, badInput: 2, stopped: 3, storeFailed: 4 } as const;
