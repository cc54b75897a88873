/**
 * max_tokens sent with every request that sets none, unless the run says otherwise: the cost cap
 * reserves each call at its worst case, which needs a bound on what the model may generate.
 */
export const DEFAULT_MAX_TOKENS = 4096;
