import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCTREE_ERROR_CODES, DocTreeError } from '@doctree/schema';
import type { DocTreeErrorCode } from '@doctree/schema';
import { writeSimplePdf } from '../pdf/simple-pdf-writer.js';
import { DOC_FILES, ingestFile } from './ingest-file.js';

// Every bad input ends with a DocTreeError naming the file, a non-zero exit status for the CLI, and nothing
// written under the output folder. Inputs are generated here, except the encrypted PDF fixture.

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'doctree-ingest-file-'));
});
afterEach(() => {
  rmSync(work, { recursive: true, force: true });
});

/** A three-page report: a title, headings, paragraphs and page numbers. */
function reportPdf(): Uint8Array {
  return writeSimplePdf(
    ['Overview', 'Results', 'Outlook'].map((heading, i) => ({
      runs: [
        { text: `${i + 1} ${heading}`, x: 72, y: 90, size: 16, bold: true },
        { text: `The ${heading.toLowerCase()} section of the report explains how the company grew.`, x: 72, y: 120, size: 11 },
        { text: 'Revenue rose in every region and margins held steady through the year.', x: 72, y: 134, size: 11 },
        { text: String(i + 1), x: 303, y: 760, size: 10 },
      ],
    })),
  );
}

/** A hand-written PDF whose page tree is empty (`/Count 0`). */
function zeroPagePdf(): Uint8Array {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>'];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((content, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${content}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

/** A PDF header followed by noise: no objects, no cross-reference table. */
function corruptPdf(): Uint8Array {
  const noise = Buffer.alloc(4096);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + 13) % 251;
  return new Uint8Array(Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), noise]));
}

const encryptedPdf = (): Uint8Array => new Uint8Array(readFileSync(join(__dirname, '..', '__fixtures__', 'pdf', 'encrypted.pdf')));

/** Writes an input file into the work folder and returns its path. */
function input(name: string, content: Uint8Array | string): string {
  const dir = join(work, 'in');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function expectFailure(run: Promise<unknown>, code: DocTreeErrorCode, file: string, outDir: string): Promise<void> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(DocTreeError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ code });
  expect((error as DocTreeError).file).toContain(file);
  expect(DOCTREE_ERROR_CODES[code].exitStatus).toBeGreaterThan(0);
  expect(existsSync(outDir) ? readdirSync(outDir) : []).toEqual([]);
}

describe('ingestFile on bad input', () => {
  const out = (): string => join(work, 'out');

  it.each<[string, string, () => Uint8Array | string, DocTreeErrorCode]>([
    ['a corrupt PDF', 'corrupt.pdf', corruptPdf, 'PDF_CORRUPT'],
    ['a truncated PDF', 'cut.pdf', () => reportPdf().slice(0, 700), 'PDF_CORRUPT'],
    ['an encrypted PDF without a password', 'locked.pdf', encryptedPdf, 'PDF_ENCRYPTED'],
    ['a PDF without pages', 'empty.pdf', zeroPagePdf, 'PDF_NO_PAGES'],
    ['a text file named .pdf', 'notes.pdf', () => 'These are notes, not a PDF.\n', 'INPUT_UNSUPPORTED'],
    ['a file of an unknown kind', 'notes.txt', () => 'plain text', 'INPUT_UNSUPPORTED'],
    ['a content list that is not JSON', 'broken_content_list.json', () => '[{"type": "text", "text": "cut', 'MINERU_INVALID'],
    ['a content list of the wrong shape', 'wrong_content_list.json', () => JSON.stringify({ blocks: 'none' }), 'MINERU_INVALID'],
    ['a content list block without a page', 'nopage_content_list.json', () => JSON.stringify([{ type: 'text', text: 'hi', bbox: [0, 0, 10, 10] }]), 'MINERU_INVALID'],
  ])('rejects %s, naming the file and writing nothing', async (_what, name, content, code) => {
    await expectFailure(ingestFile(input(name, content()), { outDir: out() }), code, name, out());
  });

  it('rejects a wrong password for an encrypted PDF and reads it with the right one', async () => {
    const path = input('locked.pdf', encryptedPdf());
    await expectFailure(ingestFile(path, { outDir: out(), password: 'wrong' }), 'PDF_PASSWORD_INCORRECT', 'locked.pdf', out());
    const result = await ingestFile(path, { outDir: out(), password: 'doctree' });
    expect(result.tree.text).toContain('This page is readable with the password doctree.');
  });

  it('rejects a missing file and a folder', async () => {
    await expectFailure(ingestFile(join(work, 'nope.pdf'), { outDir: out() }), 'INPUT_NOT_FOUND', 'nope.pdf', out());
    mkdirSync(join(work, 'folder.pdf'));
    await expectFailure(ingestFile(join(work, 'folder.pdf'), { outDir: out() }), 'INPUT_UNSUPPORTED', 'folder.pdf', out());
  });

  it('leaves an existing document folder as it was when a new ingest of it fails', async () => {
    const good = await ingestFile(input('report.pdf', reportPdf()), { outDir: out(), docId: 'report' });
    const before = readFileSync(good.files.tree, 'utf8');
    await expect(ingestFile(input('cut.pdf', reportPdf().slice(0, 700)), { outDir: out(), docId: 'report' })).rejects.toMatchObject({ code: 'PDF_CORRUPT' });
    expect(readFileSync(good.files.tree, 'utf8')).toBe(before);
    expect(readdirSync(join(out(), 'report')).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

describe('ingestFile', () => {
  it('writes the three artifacts and, with report, a page-level count of blocks by type', async () => {
    const result = await ingestFile(input('report.pdf', reportPdf()), { outDir: join(work, 'out'), report: true });
    expect(result.docId).toBe('report');
    expect(readdirSync(result.docDir).sort()).toEqual([DOC_FILES.adapted, DOC_FILES.enhanced, DOC_FILES.report, DOC_FILES.tree, 'source.pdf'].sort());
    const report = JSON.parse(readFileSync(result.files.report!, 'utf8')) as { summary: { pages: number }; pages: Array<{ page: number; adapted: Record<string, number>; chars: number }> };
    expect(report.summary.pages).toBe(3);
    expect(report.pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(report.pages[1]).toMatchObject({ adapted: { title: 1, text: 1, page_number: 1 } });
    expect(report.pages[1]!.chars).toBeGreaterThan(100);
    expect(result.summary.sections_by_level).toEqual({ '1': 3 });
  });
});
