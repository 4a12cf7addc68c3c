import { DocTreeError } from '../errors.js';
import { errorCodeOf } from './error-code.js';

describe('errorCodeOf', () => {
  it('names the DocTreeError code a promise rejects with, marks other throws, and is undefined when it resolves', async () => {
    expect(await errorCodeOf(Promise.reject(new DocTreeError('USAGE', 'bad input')))).toBe('USAGE');
    expect(await errorCodeOf(Promise.reject(new Error('plain')))).toBe('NOT_A_DOCTREE_ERROR');
    expect(await errorCodeOf(Promise.resolve(42))).toBeUndefined();
  });
});
