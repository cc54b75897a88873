import { PaideiaError } from '../core/index.js';

/**
 * A metric was called with input it cannot score: a segment with no non-empty reference, reference
 * streams of a different length than the hypotheses, stored statistics of the wrong shape, or an
 * invalid option. The message names the segment or option and says what to change.
 */
export class MetricInputError extends PaideiaError {
  constructor(message: string) {
    super(message);
    this.name = 'MetricInputError';
  }
}
