import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { assertOutputTarget, explainCacheFailure, isInsideFolder, realPathOf } from './command-output.js';

const failureOf = (work: () => unknown): DocTreeError | undefined => {
  try {
    work();
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  return undefined;
};

describe('assertOutputTarget', () => {
  let dir: string;
  beforeEach(() => {
    dir = realPathOf(mkdtempSync(join(tmpdir(), 'doctree-output-')));
    writeFileSync(join(dir, 'report.pdf'), '%PDF-1.7\n');
    mkdirSync(join(dir, 'data', 'default', 'report', 'index'), { recursive: true });
    writeFileSync(join(dir, 'data', 'default', 'report', 'doctree.mm.json'), '{}');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses the input itself, also through another spelling or a symbolic link', () => {
    symlinkSync(join(dir, 'report.pdf'), join(dir, 'link.pdf'));
    for (const target of [join(dir, 'report.pdf'), join(dir, 'data', '..', 'report.pdf'), join(dir, 'link.pdf')]) {
      const error = failureOf(() => assertOutputTarget({ option: '--trace', target, inputs: [join(dir, 'report.pdf')], example: '--trace trace.json' }));
      expect(error?.code).toBe('USAGE');
      expect(error?.message).toMatch(/^--trace .* is the input .*report\.pdf; writing there would overwrite it$/);
      expect(error?.hint).toMatch(/e\.g\. --trace trace\.json/);
    }
  });

  it("refuses anything inside a prepared document's folder, existing or announced", () => {
    const doc = join(dir, 'data', 'default', 'report');
    for (const target of [join(doc, 'doctree.mm.json'), join(doc, 'index', 'manifest.json'), join(doc, 'content_list.enhanced.json'), join(doc, 'new', 'trace.json'), doc]) {
      const error = failureOf(() => assertOutputTarget({ option: '--trace', target, inputs: [join(dir, 'report.pdf')] }));
      expect(error?.code).toBe('USAGE');
      expect(error?.message).toContain(`is inside the document folder ${doc}`);
    }
    // Not ingested yet: the folder the caller names is protected too.
    const future = join(dir, 'data', 'default', 'other');
    expect(failureOf(() => assertOutputTarget({ option: '--trace', target: join(future, 'trace.json'), documentDirs: [future] }))?.code).toBe('USAGE');
  });

  it('accepts paths next to the inputs and the dataset folder itself', () => {
    for (const target of [join(dir, 'trace.json'), join(dir, 'out', 'trace.json'), join(dir, 'data', 'default'), join(dir, 'data', 'default', 'report-trace.json')]) {
      expect(failureOf(() => assertOutputTarget({ option: '--trace', target, inputs: [join(dir, 'report.pdf')], documentDirs: [join(dir, 'data', 'default', 'report')] }))).toBeUndefined();
    }
  });

  it('compares folders by path segments', () => {
    expect(isInsideFolder('/a/doc/x.json', '/a/doc')).toBe(true);
    expect(isInsideFolder('/a/doc', '/a/doc')).toBe(true);
    expect(isInsideFolder('/a/doc-2/x.json', '/a/doc')).toBe(false);
    expect(isInsideFolder('/a/..doc', '/a')).toBe(true);
  });
});

describe('explainCacheFailure', () => {
  it('names the cache folder in a write failure inside it', () => {
    const cache = join(tmpdir(), 'doctree-explain', '.cache');
    const failure = new DocTreeError('IO_WRITE_FAILED', 'ENOTDIR: not a directory', { file: join(cache, 'summaries', 'ab.json') });
    const explained = explainCacheFailure(failure, cache) as DocTreeError;
    expect(explained.code).toBe('IO_WRITE_FAILED');
    expect(explained.message).toBe(`cannot write to the cache folder ${cache}: ENOTDIR: not a directory`);
    expect(explained.hint).toContain(`cache folder ${cache}`);
    expect(explained.hint).not.toMatch(/output folder/);
    const raw = Object.assign(new Error("EACCES: permission denied, mkdir '…'"), { code: 'EACCES', path: join(cache, 'embeddings.jsonl') });
    expect((explainCacheFailure(raw, cache) as DocTreeError).code).toBe('IO_WRITE_FAILED');
  });

  it('leaves other failures alone', () => {
    const cache = join(tmpdir(), 'doctree-explain', '.cache');
    const elsewhere = new DocTreeError('IO_WRITE_FAILED', 'EACCES', { file: join(tmpdir(), 'doctree-explain', 'default', 'x', 'doctree.mm.json') });
    expect(explainCacheFailure(elsewhere, cache)).toBe(elsewhere);
    const other = new DocTreeError('PDF_CORRUPT', 'bad', { file: join(cache, 'x.pdf') });
    expect(explainCacheFailure(other, cache)).toBe(other);
  });
});
