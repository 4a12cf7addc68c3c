import { DocTreeError } from '../errors.js';

/**
 * The code a promise rejects with: the `DocTreeError` code, `NOT_A_DOCTREE_ERROR` for any other throw, or undefined
 * when it resolves. Conformance suites assert "bad input is `USAGE`", "an aborted signal is `CANCELLED`" with it.
 *
 * @example
 * ```ts
 * expect(await errorCodeOf(router.route(''))).toBe('USAGE');
 * ```
 */
export async function errorCodeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return DocTreeError.isInstance(error) ? error.code : 'NOT_A_DOCTREE_ERROR';
  }
  return undefined;
}
