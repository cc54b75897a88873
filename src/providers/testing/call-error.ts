import { ProviderCallError } from '../../core/errors.js';

/** The ProviderCallError a call fails with; fails the test if it succeeds or throws something else. */
export async function callError(promise: Promise<unknown>): Promise<ProviderCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderCallError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with a ProviderCallError, but it succeeded');
}
