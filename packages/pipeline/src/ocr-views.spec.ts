import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { writeSimplePdf } from '@doctree/ingest';
import { resolveConfig, type ContentList } from '@doctree/schema';
import { askQuestion } from './ask-question.js';
import { prepareDocument } from './prepare-document.js';

/** What the stand-in tesseract "reads" on every page image it is given: a slide title, then lines of words (pixel height at 200 dpi). */
const SLIDE: Array<{ words: string[]; height: number }> = [
  { words: ['Terminal', 'results'], height: 90 },
  { words: ['Zanzibar', 'terminal', 'throughput', 'rose', '14', 'percent', 'in', '2023'], height: 32 },
  { words: ['Container', 'volumes', 'reached', '812,000', 'units', 'at', 'the', 'Malindi', 'quay'], height: 32 },
];

/** Tesseract TSV of {@link SLIDE}: a header row, then one level-5 row per word (one paragraph per line). */
function slideTsv(): string {
  const rows = ['level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext'];
  let top = 250;
  SLIDE.forEach(({ words, height }, line) => {
    let left = 200;
    words.forEach((word, i) => {
      const width = Math.round(0.6 * height * word.length);
      rows.push(['5', '1', String(line + 1), '1', '1', String(i + 1), String(left), String(top), String(width), String(height), '95.5', word].join('\t'));
      left += width + Math.round(height / 2);
    });
    top += 2 * height;
  });
  return `${rows.join('\n')}\n`;
}

/**
 * Stand-ins for the OCR programs in `bin`, so the test does not depend on tesseract being installed: `pdftoppm` writes
 * a 2×1 grey PGM with one black pixel (ink) for each page it is told to render, `tesseract` prints {@link slideTsv} for any image.
 */
function writeOcrStandIns(bin: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'slide.tsv'), slideTsv());
  // Renders every page of its `-f`…`-l` range as `<prefix>-<page>.pgm`, as pdftoppm does.
  writeFileSync(
    join(bin, 'pdftoppm'),
    `#!/bin/sh\nf=1; l=1\nwhile [ $# -gt 2 ]; do case "$1" in -f) f=$2; shift;; -l) l=$2; shift;; esac; shift; done\nn=$f; while [ $n -le $l ]; do printf 'P5\\n2 1\\n255\\n\\000\\377' > "$2-$n.pgm"; n=$((n+1)); done\n`,
  );
  writeFileSync(join(bin, 'tesseract'), `#!/bin/sh\ncat '${join(bin, 'slide.tsv')}'\n`);
  chmodSync(join(bin, 'pdftoppm'), 0o755);
  chmodSync(join(bin, 'tesseract'), 0o755);
}

// The stand-ins are shell scripts.
(process.platform === 'win32' ? describe.skip : describe)('OCR text of an image-only page', () => {
  let dir: string;
  let pdf: string;
  const path = process.env['PATH'];
  const config = () => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' } } }).config;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-ocr-views-'));
    writeOcrStandIns(join(dir, 'bin'));
    process.env['PATH'] = `${join(dir, 'bin')}${delimiter}${path ?? ''}`;
    pdf = join(dir, 'harbour.pdf');
    // Page 1 has a text layer; page 2 is a "slide": graphics only, no text layer.
    writeFileSync(
      pdf,
      writeSimplePdf([
        { runs: [{ text: 'Harbour review', x: 72, y: 90, size: 32 }, { text: 'The fleet was renewed during the year and two cranes were replaced.', x: 72, y: 140, size: 11.5 }] },
        { runs: [], shapes: [{ kind: 'rect', x: 72, y: 140, width: 300, height: 60, gray: 0.2 }] },
      ]),
    );
  });
  afterAll(() => {
    process.env['PATH'] = path;
    rmSync(dir, { recursive: true, force: true });
  });

  it('feeds the tree, the BM25 and dense records of the index, and ask finds its page', async () => {
    const prepared = await prepareDocument(pdf, { config: config() });
    expect(prepared.ingestSummary?.ocr).toEqual({ pages: 1, read: 1, failed: 0, ms: expect.any(Number) });
    const enhanced = JSON.parse(readFileSync(join(prepared.docDir, 'content_list.enhanced.json'), 'utf8')) as ContentList;
    expect(enhanced.pages[1]).toMatchObject({ has_text_layer: false, ocr: true });
    const ocrBlocks = enhanced.blocks.filter((b) => b.page_idx === 1);
    expect(ocrBlocks.length).toBeGreaterThan(0);
    expect(ocrBlocks.every((b) => b.origin === 'ocr')).toBe(true);
    expect(enhanced.blocks.filter((b) => b.page_idx === 0).every((b) => b.origin === 'pdf')).toBe(true);

    // Tree: a node of page 2 holds the OCR text.
    const { tree } = prepared.index;
    const node = tree.nodes.find((n) => n.text.includes('Zanzibar terminal throughput'));
    expect(node?.page_span).toEqual([1, 1]);
    const id = node!.node_id;

    // Sparse (BM25F) view: its record carries the words, and a word of the slide finds it first.
    const sparseRecords = readFileSync(join(prepared.indexDir, 'sparse_leaf.jsonl'), 'utf8');
    expect(sparseRecords).toContain('Zanzibar terminal throughput');
    expect(prepared.index.sparseLeaf.search('Zanzibar throughput', { k: 3 })[0]?.id).toBe(id);

    // Dense view: its record embeds the words, and the query's nearest leaf vector is that node.
    expect(prepared.index.denseLeaf.get(id)?.raw_text).toContain('Zanzibar terminal throughput');
    const query = await prepared.index.embedder!.embedQuery('Zanzibar terminal throughput');
    expect(prepared.index.vectors.leaf_raw.search(query, { k: 1 })[0]?.id).toBe(id);

    // Ask (offline): the answer's pages are the slide's.
    const run = await askQuestion(pdf, 'What was the Zanzibar terminal throughput growth in 2023?', { config: config() });
    expect(run.answer.pages).toEqual([2]);
    expect(run.answer.support.map((s) => [s.node_id, s.page, s.snippet])).toEqual([[id, 2, 'Zanzibar terminal throughput rose 14 percent in 2023']]);
  });

  it('follows ingest.ocr of the configuration: turned off, the slide stays empty and the warning says why', async () => {
    const off = resolveConfig({ overrides: { data_dir: join(dir, 'data-off'), embedder: { kind: 'hashing' } }, file: { ingest: { ocr: { enabled: false } } } }).config;
    const prepared = await prepareDocument(pdf, { config: off });
    expect(prepared.ingestSummary?.ocr).toBeUndefined();
    expect(prepared.index.tree.nodes.some((n) => n.text.includes('Zanzibar'))).toBe(false);
    const tree = JSON.parse(readFileSync(join(prepared.docDir, 'doctree.mm.json'), 'utf8')) as { warnings: Array<{ code: string; message: string }> };
    expect(tree.warnings.find((w) => w.code === 'OCR_UNAVAILABLE')?.message).toBe('1 page(s) have no text layer and OCR was turned off; they stay empty: 2.');
  });
});
