import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_PAGES } from '../limits.js';
import { adaptMinerU } from '../mineru/mineru-adapter.js';
import { loadMinerUFiles } from '../mineru/mineru-files.js';
import { ingestFile } from './ingest-file.js';

// Limits of ingestion (docs/reliability.md): regular files only, a size cap per input, a page cap for page indexes.

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'doctree-input-limits-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

async function failure(promise: Promise<unknown>): Promise<DocTreeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!DocTreeError.isInstance(error)) throw new Error(`expected a DocTreeError, got ${String(error)}`);
  return error;
}

const posix = process.platform !== 'win32';

describe('ingestFile input files', () => {
  (posix ? it : it.skip)('refuses a fifo and a symbolic link to /dev/zero at once, reading nothing', async () => {
    const fifo = join(work, 'pipe.pdf');
    execFileSync('mkfifo', [fifo]);
    const zero = join(work, 'zero_content_list.json');
    symlinkSync('/dev/zero', zero);
    const started = performance.now();
    const fromFifo = await failure(ingestFile(fifo, { outDir: join(work, 'out') }));
    expect(fromFifo).toMatchObject({ code: 'INPUT_UNSUPPORTED', file: fifo, message: expect.stringMatching(/fifo/) });
    const fromZero = await failure(ingestFile(zero, { outDir: join(work, 'out') }));
    expect(fromZero).toMatchObject({ code: 'INPUT_UNSUPPORTED', file: zero, message: expect.stringMatching(/character device/) });
    // loadMinerUFiles reads through the same check.
    expect(await failure(loadMinerUFiles(zero))).toMatchObject({ code: 'INPUT_UNSUPPORTED' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(existsSync(join(work, 'out'))).toBe(false);
  });

  it('follows a symbolic link to a regular file', async () => {
    writeFileSync(join(work, 'notes.md'), '# Notes\n\nThe sensor line grew 12% in 2023.\n');
    if (posix) symlinkSync(join(work, 'notes.md'), join(work, 'link.md'));
    const result = await ingestFile(join(work, posix ? 'link.md' : 'notes.md'), { outDir: join(work, 'out'), copySource: false });
    expect(result.tree.text).toContain('12%');
  });

  it('refuses a folder and a file above maxInputBytes, naming the limit', async () => {
    expect(await failure(ingestFile(work, { outDir: join(work, 'out') }))).toMatchObject({ code: 'INPUT_UNSUPPORTED', message: expect.stringMatching(/folder/) });
    const path = join(work, 'big.md');
    writeFileSync(path, `# Big\n\n${'word '.repeat(400)}\n`);
    const error = await failure(ingestFile(path, { outDir: join(work, 'out'), maxInputBytes: 1000 }));
    expect(error).toMatchObject({ code: 'INPUT_UNSUPPORTED', file: path, hint: expect.stringMatching(/maxInputBytes/) });
    expect(error.message).toMatch(/more than the limit of 1000 bytes/);
    expect(await failure(ingestFile(path, { outDir: join(work, 'out'), maxInputBytes: 0 }))).toMatchObject({ code: 'USAGE' });
    expect(DEFAULT_MAX_INPUT_BYTES).toEqual({ pdf: 2 * 1024 ** 3, mineru: 512 * 1024 ** 2, markdown: 512 * 1024 ** 2 });
  });
});

describe('page indexes of a MinerU content list', () => {
  const block = (page_idx: number, text = `Text on page ${page_idx + 1}.`): Record<string, unknown> => ({ type: 'text', text, bbox: [100, 100, 900, 150], page_idx });
  const write = (blocks: unknown[]): string => {
    const path = join(work, 'doc_content_list.json');
    writeFileSync(path, JSON.stringify(blocks));
    return path;
  };

  it('refuses a page_idx of 2 000 000 000 (and of 99 999) quickly, naming the file, block and page', async () => {
    for (const page_idx of [2_000_000_000, 99_999, DEFAULT_MAX_PAGES]) {
      const path = write([block(0), block(page_idx)]);
      const started = performance.now();
      const error = await failure(ingestFile(path, { outDir: join(work, 'out') }));
      expect(performance.now() - started).toBeLessThan(2000);
      expect(error).toMatchObject({ code: 'MINERU_INVALID', file: 'doc_content_list.json', page: page_idx + 1, hint: expect.stringMatching(/maxPages/) });
      expect(error.message).toMatch(/block 1, field "page_idx"/);
    }
    expect(existsSync(join(work, 'out'))).toBe(false);
  });

  it('takes the maximum page count as an option, and bounds middle.json too', async () => {
    const path = write([block(0), block(11)]);
    expect(await failure(ingestFile(path, { outDir: join(work, 'out'), maxPages: 10 }))).toMatchObject({ code: 'MINERU_INVALID', page: 12 });
    const ok = await ingestFile(path, { outDir: join(work, 'out'), maxPages: 12, copySource: false });
    expect(ok.tree.doc.page_count).toBe(12);
    const options = { docId: 'doc', filename: 'doc_content_list.json', sha256: 'a'.repeat(64), bytes: 10, maxPages: 10 };
    const middle = { pdf_info: [{ page_idx: 2_000_000_000, page_size: [612, 792] }] };
    expect(() => adaptMinerU({ contentList: [block(0)], middle }, options)).toThrow(expect.objectContaining({ code: 'MINERU_INVALID', message: expect.stringMatching(/pdf_info\[0\]\.page_idx/) }));
    expect(() => adaptMinerU({ contentList: [block(0)] }, { ...options, maxPages: 0 })).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });

  it('derives page_count from the content list: no node cites a page beyond it', async () => {
    // A generated 9-page content list whose last block claims page 9 (0-based 8): every cited page is within page_count.
    const blocks = Array.from({ length: 9 }, (_, p) => block(p, `Paragraph on page ${p + 1} about revenue of ${p * 10}%.`));
    const result = await ingestFile(write(blocks), { outDir: join(work, 'out'), copySource: false });
    const { page_count } = result.tree.doc;
    expect(page_count).toBe(9);
    expect(result.tree.doc.pages).toHaveLength(page_count);
    for (const node of result.tree.nodes) {
      expect(node.page_span[1]).toBeLessThan(page_count);
      for (const box of node.bboxes) expect(box.page_idx).toBeLessThan(page_count);
    }
    expect(readdirSync(join(work, 'out'))).toEqual(['doc']);
  });
});
