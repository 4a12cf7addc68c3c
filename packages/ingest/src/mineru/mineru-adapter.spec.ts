import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContentListSchema, DocTreeError, type ContentBlock, type ContentList } from '@doctree/schema';
import { adaptMinerU, type AdaptMinerUOptions } from './mineru-adapter.js';
import { loadMinerUFiles } from './mineru-files.js';

const FIXTURES = join(__dirname, '..', '__fixtures__', 'mineru');
const contentList: unknown = JSON.parse(readFileSync(join(FIXTURES, 'annual_report_content_list.json'), 'utf8'));
const middle: unknown = JSON.parse(readFileSync(join(FIXTURES, 'annual_report_middle.json'), 'utf8'));
const options: AdaptMinerUOptions = { docId: 'annual-report', filename: 'annual_report_content_list.json', sha256: 'a'.repeat(64), bytes: 4096 };

function adapt(list: unknown, mid?: unknown, extra: Partial<AdaptMinerUOptions> = {}): ContentList {
  const out = adaptMinerU({ contentList: list, ...(mid !== undefined ? { middle: mid } : {}) }, { ...options, ...extra });
  expect(ContentListSchema.parse(out)).toEqual(out);
  return out;
}

/** The block type(s) whose `type` admits T (furniture blocks share one schema for five types). */
type BlockOf<T extends ContentBlock['type']> = ContentBlock extends infer B ? (B extends { type: infer U } ? (T extends U ? B : never) : never) : never;

function find<T extends ContentBlock['type']>(list: ContentList, type: T, n = 0): BlockOf<T> {
  const found = list.blocks.filter((b) => b.type === type)[n];
  if (!found) throw new Error(`no ${type} block #${n}`);
  return found as BlockOf<T>;
}

function thrown(fn: () => unknown): DocTreeError {
  try {
    fn();
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a DocTreeError');
}

describe('adaptMinerU on a MinerU 2.x output with middle.json', () => {
  const list = adapt(contentList, middle);

  it('writes an adapted content list with the source facts and one page per MinerU page', () => {
    expect(list).toMatchObject({ format: 'doctree.content_list', version: 1, stage: 'adapted', doc_id: 'annual-report' });
    expect(list.source).toEqual({ filename: 'annual_report_content_list.json', kind: 'mineru', sha256: 'a'.repeat(64), bytes: 4096 });
    expect(list.pages.map((p) => [p.page_idx, p.width, p.height, p.has_text_layer])).toEqual([
      [0, 612, 792, true],
      [1, 612, 792, true],
      [2, 842, 595, true],
    ]);
    expect(list.warnings.map((w) => w.code)).not.toContain('PAGE_SIZE_ASSUMED');
  });

  it('converts 0–1000 boxes to PDF points with the size of each page', () => {
    const intro = list.blocks.find((b) => b.type === 'title' && b.text === '1 Introduction')!;
    expect(intro.bbox).toEqual([61.2, 158.4, 306, 237.6]);
    expect(intro.page_size).toEqual({ width: 612, height: 792 });
    const methods = list.blocks.find((b) => b.type === 'title' && b.text === '2 Methods')!;
    // page 3 is 842×595 landscape: [80,100,300,130] → x × 0.842, y × 0.595
    expect(methods.bbox).toEqual([67.36, 59.5, 252.6, 77.35]);
    expect(methods.page_size).toEqual({ width: 842, height: 595 });
  });

  it('keeps MinerU order as reading order with b_000000-style ids over kept blocks', () => {
    expect(list.blocks.map((b) => b.read_order)).toEqual(list.blocks.map((_, i) => i));
    expect(list.blocks[0]!.block_id).toBe('b_000000');
    expect(list.blocks.at(-1)!.block_id).toBe(`b_${String(list.blocks.length - 1).padStart(6, '0')}`);
    expect(list.blocks.every((b) => b.origin === 'mineru')).toBe(true);
    expect(list.blocks.map((b) => b.type)).toEqual([
      'header', 'title', 'text', 'title', 'list', 'equation', 'page_number',
      'image', 'table', 'page_footnote', 'footer',
      'title', 'code', 'chart', 'aside_text', 'list', 'text',
    ]);
  });

  it('turns text_level into title levels with numbering', () => {
    const titles = list.blocks.filter((b) => b.type === 'title');
    expect(titles.map((t) => [t.text, t.text_level, t.numbering])).toEqual([
      ['1 Introduction', 1, '1'],
      ['1.1 Scope', 2, '1.1'],
      ['2 Methods', 1, '2'],
    ]);
  });

  it('keeps figure captions, footnotes, image paths and the label', () => {
    expect(find(list, 'image')).toMatchObject({
      img_path: 'images/a3f9d2.jpg',
      image_caption: ['Figure 1: Revenue by segment, 2019–2023'],
      image_footnote: ['Source: company filings.'],
      label: 'Figure 1',
      source: 'mineru',
      page_idx: 1,
    });
  });

  it('keeps the table HTML without MinerU’s html/body wrapper and adds a Markdown preview', () => {
    const table = find(list, 'table');
    expect(table.table_body.startsWith('<table>')).toBe(true);
    expect(table.table_body.endsWith('</table>')).toBe(true);
    expect(table.table_body).toContain('Safety &amp; Industrial');
    expect(table).toMatchObject({ label: 'Table 1', table_caption: ['Table 1: Net sales by segment'], table_footnote: ['Amounts in millions of US dollars.'], img_path: 'images/c41b07.jpg' });
    expect(table.markdown).toBe(
      [
        '| Segment | Revenue ($M) / 2022 | Revenue ($M) / 2023 |',
        '| --- | --- | --- |',
        '| Safety & Industrial | 11,604 | 11,324 |',
        '| Health Care | 8,579 | 8,197 |',
      ].join('\n'),
    );
  });

  it('keeps equations as LaTeX without $$, lists with their kind, code and charts with captions', () => {
    expect(find(list, 'equation')).toMatchObject({ text: 'm = \\frac{r_{2023} - r_{2022}}{r_{2022}}', text_format: 'latex' });
    expect(find(list, 'list', 0)).toMatchObject({ sub_type: 'ordered', list_items: ['1. Segment reporting for the fiscal year.', '2. Outlook for 2024.'] });
    expect(find(list, 'list', 1)).toMatchObject({ sub_type: 'reference' });
    expect(find(list, 'code')).toMatchObject({ code_body: 'def growth(a, b):\n    return (b - a) / a', code_caption: ['Listing 1: Growth rate'], guess_lang: 'python' });
    expect(find(list, 'chart')).toMatchObject({
      label: 'Figure 2',
      chart_type: 'line',
      img_path: 'images/77e0aa.jpg',
      chart_caption: ['Figure 2: Operating margin, 2019–2023', 'Margins exclude special items.'],
    });
    expect(find(list, 'page_footnote').text).toBe('¹ Restated for the 2022 divestiture.');
    expect(find(list, 'aside_text').text).toBe('arXiv:2401.00001v1');
  });

  it('never drops a block silently: discarded and unknown blocks are counted in warnings', () => {
    expect(list.blocks.some((b) => 'text' in b && b.text.includes('DRAFT'))).toBe(false);
    const skipped = list.warnings.find((w) => w.code === 'MINERU_BLOCK_SKIPPED')!;
    expect(skipped.message).toBe('1 "discarded" block(s) skipped, marked by MinerU as not content (block 6).');
    const unknown = list.warnings.filter((w) => w.code === 'MINERU_UNKNOWN_TYPE').map((w) => w.message);
    expect(unknown).toEqual([
      '1 block(s) of unknown type "phonetic" kept as text (block 17).',
      '1 block(s) of unknown type "seal" without text skipped (block 18).',
    ]);
    expect(list.blocks.at(-1)).toMatchObject({ type: 'text', text: 'ˈækmi' });
  });
});

describe('adaptMinerU page sizes and pages', () => {
  it('assumes 612×792 pt without middle.json and says so', () => {
    const list = adapt(contentList);
    expect(list.warnings.filter((w) => w.code === 'PAGE_SIZE_ASSUMED')).toHaveLength(1);
    expect(list.pages.every((p) => p.width === 612 && p.height === 792)).toBe(true);
    const methods = list.blocks.find((b) => b.type === 'title' && b.text === '2 Methods')!;
    expect(methods.bbox).toEqual([48.96, 79.2, 183.6, 102.96]);
  });

  it('uses the given default page size', () => {
    const list = adapt([{ type: 'text', text: 'A4', bbox: [0, 0, 1000, 1000], page_idx: 0 }], undefined, { defaultPageSize: { width: 595, height: 842 } });
    expect(list.blocks[0]!.bbox).toEqual([0, 0, 595, 842]);
  });

  it('marks pages without blocks as having no text layer, with a warning', () => {
    const mid = { pdf_info: [0, 1, 2, 3].map((i) => ({ page_idx: i, page_size: [612, 792] })), _parse_type: 'ocr' };
    const list = adapt([{ type: 'text', text: 'only page 2', bbox: [100, 100, 900, 200], page_idx: 1 }], mid);
    expect(list.pages.map((p) => p.has_text_layer)).toEqual([false, true, false, false]);
    expect(list.pages.every((p) => p.ocr)).toBe(true);
    expect(list.warnings.filter((w) => w.code === 'PAGE_EMPTY').map((w) => w.page_idx)).toEqual([0, 2, 3]);
  });

  it('assumes a size for a page middle.json does not describe', () => {
    const mid = { pdf_info: [{ page_idx: 0, page_size: [500, 700] }] };
    const list = adapt([
      { type: 'text', text: 'p1', bbox: [0, 0, 1000, 1000], page_idx: 0 },
      { type: 'text', text: 'p2', bbox: [0, 0, 1000, 1000], page_idx: 1 },
    ], mid);
    expect(list.blocks.map((b) => b.bbox)).toEqual([[0, 0, 500, 700], [0, 0, 612, 792]]);
    expect(list.warnings).toContainEqual(expect.objectContaining({ code: 'PAGE_SIZE_ASSUMED', page_idx: 1 }));
  });

  it('repairs out-of-range or inverted boxes and boxes missing ones, with counted warnings', () => {
    const list = adapt([
      { type: 'text', text: 'inverted', bbox: [900, 100, 100, 1200], page_idx: 0 },
      { type: 'text', text: 'no box', page_idx: 0 },
      { type: 'text', text: 'deep heading', text_level: 12, bbox: [0, 0, 10, 10], page_idx: 0 },
      { type: 'text', text: 'body', text_level: 0, bbox: [0, 0, 10, 10], page_idx: 0 },
      { type: 'text', text: '   ', bbox: [0, 0, 10, 10], page_idx: 0 },
    ]);
    expect(list.blocks[0]!.bbox).toEqual([61.2, 79.2, 550.8, 792]);
    expect(list.blocks[1]!.bbox).toEqual([0, 0, 612, 792]);
    expect(list.blocks[2]).toMatchObject({ type: 'title', text_level: 9 });
    expect(list.blocks[3]).toMatchObject({ type: 'text', text: 'body' });
    expect(list.blocks).toHaveLength(4);
    expect(list.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['MINERU_BBOX_REPAIRED', 'MINERU_BBOX_MISSING', 'MINERU_TEXT_LEVEL_CLAMPED', 'MINERU_EMPTY_BLOCK']),
    );
  });

  it('accepts the older img_caption / img_footnote fields and tables without HTML', () => {
    const list = adapt([
      { type: 'image', img_path: 'images/x.jpg', img_caption: ['Fig. 4. Plant layout'], img_footnote: ['Not to scale.'], bbox: [0, 0, 10, 10], page_idx: 0 },
      { type: 'table', img_path: 'images/t.jpg', table_caption: ['TABLE II Costs'], bbox: [0, 0, 10, 10], page_idx: 0 },
    ]);
    expect(list.blocks[0]).toMatchObject({ image_caption: ['Fig. 4. Plant layout'], image_footnote: ['Not to scale.'], label: 'Figure 4' });
    expect(list.blocks[1]).toMatchObject({ type: 'table', table_body: '', label: 'Table II' });
    expect(list.blocks[1]).not.toHaveProperty('markdown');
    expect(list.warnings.map((w) => w.code)).toContain('MINERU_TABLE_NO_HTML');
  });

  it('handles an empty content list', () => {
    const list = adapt([]);
    expect(list.blocks).toEqual([]);
    expect(list.pages).toEqual([]);
    expect(list.warnings.map((w) => w.code)).toContain('MINERU_EMPTY');
  });
});

describe('adaptMinerU on malformed input', () => {
  const ok = { type: 'text', text: 'fine', bbox: [0, 0, 10, 10], page_idx: 0 };
  const cases: Array<[string, unknown, RegExp[]]> = [
    ['a block without page_idx', [ok, { type: 'text', text: 'x', bbox: [0, 0, 1, 1] }], [/block 1/, /field "page_idx"/]],
    ['a negative page_idx', [ok, ok, { ...ok, page_idx: -1 }], [/block 2/, /field "page_idx"/]],
    ['a fractional page_idx', [{ ...ok, page_idx: 1.5 }], [/block 0/, /field "page_idx"/]],
    ['a page_idx string', [{ ...ok, page_idx: '0' }], [/block 0/, /field "page_idx"/]],
    ['a bbox of three numbers', [ok, { ...ok, bbox: [1, 2, 3] }], [/block 1/, /field "bbox"/]],
    ['a bbox holding a string', [{ ...ok, bbox: [1, 2, '3', 4] }], [/block 0/, /field "bbox\[2\]"/]],
    ['a text_level that is not a number', [ok, { ...ok, text_level: '1' }], [/block 1/, /field "text_level"/]],
    ['a negative text_level', [{ ...ok, text_level: -1 }], [/block 0/, /field "text_level"/]],
    ['a block without type', [{ text: 'x', bbox: [0, 0, 1, 1], page_idx: 0 }], [/block 0/, /field "type"/]],
    ['a null block', [ok, null], [/block 1/]],
    ['a caption that is a string', [{ type: 'image', image_caption: 'Figure 1', bbox: [0, 0, 1, 1], page_idx: 0 }], [/block 0/, /field "image_caption"/]],
    ['a list item that is a number', [{ type: 'list', list_items: ['a', 2], bbox: [0, 0, 1, 1], page_idx: 0 }], [/block 0/, /field "list_items\[1\]"/]],
    ['a chart caption that is not an array', [{ type: 'chart', chart_caption: 'Figure 2', bbox: [0, 0, 1, 1], page_idx: 0 }], [/block 0/, /field "chart_caption"/]],
    ['an object instead of an array', { blocks: [] }, [/must be an array of blocks, got an object/]],
    ['a string', 'not json', [/must be an array of blocks, got string/]],
  ];

  it.each(cases)('rejects %s with MINERU_INVALID naming the block and field', (_name, value, patterns) => {
    const error = thrown(() => adaptMinerU({ contentList: value }, options));
    expect(error.code).toBe('MINERU_INVALID');
    expect(error.file).toBe('annual_report_content_list.json');
    for (const pattern of patterns) expect(error.message).toMatch(pattern);
  });

  it('lists several problems in one message', () => {
    const error = thrown(() => adaptMinerU({ contentList: [{ ...ok, page_idx: -1 }, ok, { ...ok, bbox: [1] }] }, options));
    expect(error.message).toMatch(/block 0, field "page_idx".*block 2, field "bbox"/);
  });

  it('recognises middle.json and content_list_v2.json passed as the content list', () => {
    expect(thrown(() => adaptMinerU({ contentList: middle }, options)).hint).toMatch(/middle\.json/);
    expect(thrown(() => adaptMinerU({ contentList: [[{ type: 'paragraph' }]] }, options)).hint).toMatch(/content_list_v2/);
  });

  it('rejects a malformed middle.json naming the page entry', () => {
    const error = thrown(() => adaptMinerU({ contentList: [ok], middle: { pdf_info: [{ page_idx: 0, page_size: [0, 792] }] } }, { ...options, middleFilename: 'x_middle.json' }));
    expect(error).toMatchObject({ code: 'MINERU_INVALID', file: 'x_middle.json' });
    expect(error.message).toMatch(/pdf_info\[0\]\.page_size/);
    expect(thrown(() => adaptMinerU({ contentList: [ok], middle: { pages: [] } }, options)).message).toMatch(/pdf_info/);
  });

  it('rejects bad options with USAGE', () => {
    expect(thrown(() => adaptMinerU({ contentList: [ok] }, { ...options, sha256: 'xyz' })).code).toBe('USAGE');
    expect(thrown(() => adaptMinerU({ contentList: [ok] }, { ...options, docId: '' })).code).toBe('USAGE');
  });
});

describe('loadMinerUFiles', () => {
  it('reads the content list and the sibling middle.json and hashes the content list', async () => {
    const files = await loadMinerUFiles(join(FIXTURES, 'annual_report_content_list.json'));
    expect(files.filename).toBe('annual_report_content_list.json');
    expect(files.middleFilename).toBe('annual_report_middle.json');
    expect(files.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(files.bytes).toBe(readFileSync(join(FIXTURES, 'annual_report_content_list.json')).byteLength);
    const list = adaptMinerU(files.input, { docId: 'annual-report', filename: files.filename, sha256: files.sha256, bytes: files.bytes });
    expect(list.pages[2]).toMatchObject({ width: 842, height: 595 });
  });

  it('reports a missing file as INPUT_NOT_FOUND and bad JSON as MINERU_INVALID', async () => {
    await expect(loadMinerUFiles(join(FIXTURES, 'nope_content_list.json'))).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND' });
    await expect(loadMinerUFiles(join(FIXTURES, '..', 'mineru', 'annual_report_content_list.json'), join(FIXTURES, '..', 'markdown', 'report.md'))).rejects.toMatchObject({
      code: 'MINERU_INVALID',
      file: 'report.md',
    });
  });
});
