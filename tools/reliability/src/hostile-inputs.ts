/**
 * Hostile inputs of the reliability suite, generated on the spot (no eval data): PDFs that are decompression bombs,
 * carry a huge page image, have thousands of blank scanned pages or a million-letter word, Hebrew and Arabic PDFs,
 * MinerU content lists with absurd page numbers, and stand-in OCR programs. Sizes are parameters: the CI suite uses
 * cheap ones, the bench (`tools/bench/reliability`) the full ones (see `docs/reliability.md`).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeflate } from 'node:zlib';
import { writePdfWithStreams, writeSimplePdf } from '@doctree/ingest';

/** `bytes` zero bytes deflated at level 9, streamed (1 GiB becomes ~1 MB without holding 1 GiB). */
export async function zeroBomb(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const block = Buffer.alloc(Math.min(bytes, 16 << 20));
  for (let left = bytes; left > 0; left -= block.length) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

/** A PDF whose page draws a form XObject that decodes to `decodedBytes` zero bytes (a Flate bomb). */
export async function flateBombPdf(decodedBytes: number): Promise<Buffer> {
  const data = await zeroBomb(decodedBytes);
  return writePdfWithStreams([{ dict: '/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Filter /FlateDecode', data }], 'BT /F1 12 Tf 72 720 Td (Bomb) Tj ET /X6 Do');
}

/** A PDF with one image of `side` × `side` grey pixels (its data a small bomb: only the dictionary is huge). */
export async function hugeImagePdf(side: number): Promise<Buffer> {
  const data = await zeroBomb(Math.min(side * side, 64 << 20));
  const image = { dict: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, data };
  return writePdfWithStreams([image], 'BT /F1 12 Tf 72 720 Td (A page with a huge image) Tj ET q 400 0 0 400 72 200 cm /X6 Do Q');
}

/** A PDF of `pages` pages without a text layer (one small filled square each, as a scan shows). */
export function blankScanPdf(pages: number): Buffer {
  return Buffer.from(writeSimplePdf(Array.from({ length: pages }, () => ({ runs: [], shapes: [{ kind: 'rect' as const, x: 100, y: 100, width: 2, height: 2, gray: 0.99 }] }))));
}

/** A text PDF of `pages` pages (a heading and a paragraph each). */
export function textPdf(pages: number, title = 'Report'): Buffer {
  return Buffer.from(
    writeSimplePdf(
      Array.from({ length: pages }, (_, i) => ({
        runs: [
          { text: `${i + 1} ${title} section ${i + 1}`, x: 72, y: 90, size: 16, bold: true },
          { text: `Revenue of segment ${i + 1} grew ${(i % 9) + 1}% in 2023 against the year before.`, x: 72, y: 120, size: 11 },
        ],
      })),
    ),
  );
}

/** A PDF whose only text is one word of `letters` letters (no spaces). */
export function longWordPdf(letters: number): Buffer {
  return Buffer.from(writeSimplePdf([{ runs: [{ text: 'a'.repeat(letters), x: 72, y: 90, size: 11 }] }]));
}

/** How producers store a right-to-left line: its characters left to right as drawn (numbers kept in their order). */
export const visualOrder = (logical: string): string => (logical.match(/[0-9A-Za-z]+|[^0-9A-Za-z]/g) ?? []).reverse().join('');

/** `مرحبا سلام` as Arabic presentation forms (shaped glyphs), logical order; NFKC gives {@link ARABIC_TEXT}. */
export const ARABIC_FORMS = '\uFEE3\uFEAE\uFEA3\uFE92\uFE8E \uFEB3\uFEE0\uFE8E\uFEE1';
/** The Arabic line as typed. */
export const ARABIC_TEXT = 'مرحبا سلام';
/** The Hebrew lines as typed. */
export const HEBREW_TEXT = ['שלום עולם', 'דוח 2023 שנתי'];

/** A PDF with Hebrew and Arabic lines stored in visual order, the Arabic as presentation forms. */
export function rtlPdf(): Buffer {
  return Buffer.from(
    writeSimplePdf([
      {
        runs: [
          ...HEBREW_TEXT.map((text, i) => ({ text: visualOrder(text), x: 300, y: 100 + 30 * i, size: 14, unicode: true })),
          { text: Array.from(ARABIC_FORMS).reverse().join(''), x: 300, y: 200, size: 14, unicode: true },
        ],
      },
    ]),
  );
}

/** A MinerU content list with one block on page `pageIdx` (e.g. 2 000 000 000). */
export function mineruContentList(pageIdx: number): string {
  return JSON.stringify([{ type: 'text', text: 'A block', page_idx: pageIdx, bbox: [0, 0, 100, 100] }]);
}

/**
 * Stand-ins for `pdftoppm` and `tesseract` in `dir` (shell scripts): `pdftoppm` writes a blank grey page for every page
 * of its `-f`…`-l` range (`<prefix>-<page>.pgm`, or `<prefix>.pgm` with `-singlefile`; after `delaySeconds`) and logs
 * each page it renders to `<dir>/pdftoppm.log`; `tesseract` finds nothing. Put `dir` first on PATH.
 */
export function writeOcrStandIns(dir: string, delaySeconds = 0): void {
  mkdirSync(dir, { recursive: true });
  const script = (name: string, body: string): void => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  const log = join(dir, 'pdftoppm.log');
  script(
    'pdftoppm',
    [
      'f=1; l=1; single=0',
      'while [ $# -gt 2 ]; do case "$1" in -f) f=$2; shift;; -l) l=$2; shift;; -singlefile) single=1;; esac; shift; done',
      // Each page is logged before the delay, so a test sees OCR under way while the renders are still to come.
      `pause() { ${delaySeconds > 0 ? `sleep ${delaySeconds}` : ':'}; }`,
      `if [ $single = 1 ]; then echo "$2" >> '${log}'; pause; printf 'P5\\n2 1\\n255\\n\\377\\377' > "$2.pgm"; exit 0; fi`,
      `n=$f; while [ $n -le $l ]; do echo "$2-$n" >> '${log}'; n=$((n+1)); done`,
      'pause',
      `n=$f; while [ $n -le $l ]; do printf 'P5\\n2 1\\n255\\n\\377\\377' > "$2-$n.pgm"; n=$((n+1)); done`,
    ].join('\n'),
  );
  script('tesseract', `case "$1" in --version) echo 'tesseract 5.3.0';; --list-langs) printf 'List of available languages (1):\\neng\\n';; *) printf 'level\\tpage_num\\n';; esac`);
}
