import { DOCTREE_ERROR_CODES, DocTreeError } from './errors.js';

describe('DocTreeError', () => {
  it('carries code, location, hint and cause', () => {
    const cause = new Error('bad xref');
    const error = new DocTreeError('PDF_CORRUPT', 'cannot read the cross-reference table', { file: 'a.pdf', page: 3, cause });
    expect(error.code).toBe('PDF_CORRUPT');
    expect(error.hint).toBe(DOCTREE_ERROR_CODES.PDF_CORRUPT.defaultHint);
    expect(error.cause).toBe(cause);
    expect(error.toOneLine()).toBe(`[PDF_CORRUPT] a.pdf p.3: cannot read the cross-reference table (hint: ${error.hint})`);
    expect(error.toJSON()).toMatchObject({ code: 'PDF_CORRUPT', file: 'a.pdf', page: 3, cause: 'bad xref' });
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across copies of the package through the Symbol.for brand', () => {
    let Other: typeof DocTreeError | undefined;
    jest.isolateModules(() => {
      Other = (require('./errors.js') as typeof import('./errors.js')).DocTreeError;
    });
    expect(Other).toBeDefined();
    expect(Other).not.toBe(DocTreeError);
    const foreign = new Other!('INDEX_MISSING', 'no index');
    expect(foreign instanceof DocTreeError).toBe(false);
    expect(DocTreeError.isInstance(foreign)).toBe(true);
    expect(DocTreeError.isInstance(new Error('plain'))).toBe(false);
    expect(DocTreeError.isInstance({ code: 'INDEX_MISSING' })).toBe(false);
  });

  it('maps every code to a distinct non-zero exit status family', () => {
    for (const [code, info] of Object.entries(DOCTREE_ERROR_CODES)) {
      expect(info.exitStatus).toBeGreaterThan(1);
      expect(info.defaultHint.length).toBeGreaterThan(10);
      expect(new DocTreeError(code as keyof typeof DOCTREE_ERROR_CODES, 'x').exitStatus).toBe(info.exitStatus);
    }
  });

  it('wraps foreign errors without losing DocTreeErrors', () => {
    const own = new DocTreeError('USAGE', 'missing argument');
    expect(DocTreeError.from(own)).toBe(own);
    const wrapped = DocTreeError.from(new TypeError('boom'), 'IO_WRITE_FAILED', { file: 'out.json' });
    expect(wrapped.code).toBe('IO_WRITE_FAILED');
    expect(wrapped.file).toBe('out.json');
    expect(wrapped.message).toBe('boom');
  });
});
