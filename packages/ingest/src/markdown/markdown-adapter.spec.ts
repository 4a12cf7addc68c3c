import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContentListSchema, DocTreeError, type ContentBlock, type ContentList } from '@doctree/schema';
import { adaptMarkdown } from './markdown-adapter.js';

const FIXTURE = join(__dirname, '..', '__fixtures__', 'markdown', 'report.md');
const report = readFileSync(FIXTURE, 'utf8');

function adapt(markdown: string): ContentList {
  const out = adaptMarkdown(markdown, { docId: 'doc', filename: 'doc.md' });
  expect(ContentListSchema.parse(out)).toEqual(out);
  return out;
}

function ofType<T extends ContentBlock['type']>(list: ContentList, type: T): Array<Extract<ContentBlock, { type: T }>> {
  return list.blocks.filter((b): b is Extract<ContentBlock, { type: T }> => b.type === type);
}

function allText(list: ContentList): string {
  return JSON.stringify(list.blocks);
}

describe('adaptMarkdown on a report with page markers', () => {
  const list = adaptMarkdown(report, { docId: 'field-report', filename: 'report.md' });

  it('writes a valid adapted content list with the source facts', () => {
    expect(ContentListSchema.parse(list)).toEqual(list);
    expect(list).toMatchObject({ stage: 'adapted', doc_id: 'field-report', generator: '@doctree/ingest@0.1.0' });
    const bytes = readFileSync(FIXTURE);
    expect(list.source).toEqual({ filename: 'report.md', kind: 'markdown', sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength });
    expect(list.blocks.every((b) => b.origin === 'markdown')).toBe(true);
    expect(list.blocks.map((b) => b.block_id).slice(0, 2)).toEqual(['b_000000', 'b_000001']);
  });

  it('puts content on the pages the markers name and says the geometry is synthetic', () => {
    expect(list.pages.map((p) => p.page_idx)).toEqual([0, 1, 2]);
    expect(list.warnings[0]).toMatchObject({ code: 'SYNTHETIC_GEOMETRY' });
    const pageOf = (text: string): number | undefined => list.blocks.find((b) => 'text' in b && b.text === text)?.page_idx;
    expect(pageOf('Field Report 2023')).toBe(0);
    expect(pageOf('2 Results')).toBe(1);
    expect(pageOf('Appendix')).toBe(2); // after the form feed
  });

  it('reads ATX and setext headings with their levels', () => {
    expect(ofType(list, 'title').map((t) => [t.text, t.text_level])).toEqual([
      ['Field Report 2023', 1],
      ['Overview', 1],
      ['1.1 Sites', 2],
      ['Costs by site', 2],
      ['2 Results', 2],
      ['Appendix', 1],
    ]);
    expect(ofType(list, 'title').find((t) => t.text === '1.1 Sites')?.numbering).toBe('1.1');
  });

  it('joins paragraph lines into plain text and skips comments and front matter', () => {
    expect(ofType(list, 'text').map((t) => t.text)).toEqual([
      'This report covers three sites and the maintenance backlog of pump-7.',
      'Costs rose slightly in 2023.',
      'Final remarks after a form feed.',
    ]);
    expect(allText(list)).not.toMatch(/Reviewer note|Ops team|\*\*/);
  });

  it('turns bullet and ordered lists into list blocks, nested items indented', () => {
    expect(ofType(list, 'list').map((l) => [l.sub_type, l.list_items])).toEqual([
      ['bullet', ['North plant', 'South plant', '  Line A', '  Line B', 'Harbour depot']],
      ['ordered', ['Inspect valves', 'Replace seals']],
    ]);
  });

  it('turns a pipe table into escaped HTML, a Markdown preview, a caption and a label', () => {
    const [table] = ofType(list, 'table');
    expect(table).toMatchObject({ label: 'Table 1', table_caption: ['Table 1: Maintenance cost by site (k$)'], page_idx: 0 });
    expect(table!.table_body).toBe(
      '<table><thead><tr><th>Site</th><th>2022</th><th>2023</th></tr></thead><tbody>' +
        '<tr><td>North</td><td>120</td><td>135</td></tr><tr><td>South &amp; East</td><td>98</td><td>101</td></tr>' +
        '<tr><td>Pipe | Co</td><td>5</td><td>&lt;7&gt;</td></tr></tbody></table>',
    );
    expect(table!.markdown).toBe('| Site | 2022 | 2023 |\n| --- | --- | --- |\n| North | 120 | 135 |\n| South & East | 98 | 101 |\n| Pipe \\| Co | 5 | <7> |');
    // the caption paragraph is not repeated as text
    expect(ofType(list, 'text').some((t) => t.text.startsWith('Table 1'))).toBe(false);
  });

  it('turns an image into an image block with the Figure caption, the alt text and the label', () => {
    expect(ofType(list, 'image')).toEqual([
      expect.objectContaining({
        img_path: 'images/cost.png',
        image_caption: ['Figure 1: Cost per site, 2022–2023.', 'Bar chart of cost per site'],
        label: 'Figure 1',
        source: 'markdown',
        page_idx: 1,
      }),
    ]);
    expect(ofType(list, 'text').some((t) => t.text.startsWith('Figure 1'))).toBe(false);
  });

  it('keeps fenced code and display math', () => {
    expect(ofType(list, 'code')).toEqual([expect.objectContaining({ code_body: 'def total(costs):\n    return sum(costs)', guess_lang: 'python' })]);
    expect(ofType(list, 'equation')).toEqual([expect.objectContaining({ text: 'C_{total} = \\sum_i c_i', text_format: 'latex' })]);
  });

  it('stacks line-based boxes inside each virtual page', () => {
    for (const b of list.blocks) {
      expect(b.bbox[0]).toBe(72);
      expect(b.bbox[2]).toBe(540);
      expect(b.bbox[3]).toBeGreaterThan(b.bbox[1]);
      expect(b.bbox[3]).toBeLessThanOrEqual(b.page_size.height);
    }
    for (const page of list.pages) {
      const tops = list.blocks.filter((b) => b.page_idx === page.page_idx).map((b) => b.bbox[1]);
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      expect(tops[0]).toBe(72); // every page starts at the top margin
    }
    expect(list.blocks.map((b) => b.read_order)).toEqual(list.blocks.map((_, i) => i));
  });
});

describe('adaptMarkdown pages and geometry', () => {
  it('keeps a document without markers on one page that grows with the text', () => {
    const md = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1}.`).join('\n\n');
    const list = adapt(md);
    expect(list.pages).toHaveLength(1);
    expect(list.pages[0]!.height).toBe(2 * 72 + 14 * 119);
    expect(list.blocks.at(-1)!.bbox).toEqual([72, 72 + 14 * 118, 540, 72 + 14 * 119]);
  });

  it('records empty pages, out-of-order markers, and ignores markers inside code and trailing breaks', () => {
    const md = ['<!-- page 1 -->', 'One', '<!-- page 3 -->', 'Three', '```', '<!-- page 9 -->', '```', '<!-- page 2 -->', 'Four', '\f'].join('\n');
    const list = adapt(md);
    expect(list.pages.map((p) => [p.page_idx, p.has_text_layer])).toEqual([[0, true], [1, false], [2, true], [3, true]]);
    expect(list.warnings).toContainEqual(expect.objectContaining({ code: 'PAGE_EMPTY', page_idx: 1 }));
    expect(list.warnings).toContainEqual(expect.objectContaining({ code: 'PAGE_MARKER_OUT_OF_ORDER' }));
    expect(ofType(list, 'code')[0]).toMatchObject({ code_body: '<!-- page 9 -->', page_idx: 2 });
    expect(list.blocks.find((b) => 'text' in b && b.text === 'Four')?.page_idx).toBe(3);
  });

  it('gives an empty document one empty page', () => {
    const list = adapt('');
    expect(list.blocks).toEqual([]);
    expect(list.pages).toEqual([{ page_idx: 0, width: 612, height: 792, has_text_layer: false, ocr: false }]);
  });
});

describe('adaptMarkdown block forms', () => {
  it('reads HTML tables, reference images, indented code, quotes and unclosed fences', () => {
    const md = [
      '<table><tr><th>A</th><th>B</th></tr><tr><td colspan="2">x &amp; y</td></tr></table>',
      '',
      '![Plant][plant]',
      '',
      'Fig. 2. Plant layout',
      '',
      '[plant]: img/plant.png "Plant"',
      '',
      '    indented code',
      '',
      '> quoted line one',
      'lazy continuation',
      '>',
      '> second quoted paragraph',
      '',
      '* * *',
      '',
      '```',
      'never closed',
    ].join('\n');
    const list = adapt(md);
    expect(ofType(list, 'table')[0]).toMatchObject({ table_body: '<table><tr><th>A</th><th>B</th></tr><tr><td colspan="2">x &amp; y</td></tr></table>', markdown: '| A | B |\n| --- | --- |\n| x & y | x & y |' });
    expect(ofType(list, 'image')[0]).toMatchObject({ img_path: 'img/plant.png', label: 'Figure 2', image_caption: ['Fig. 2. Plant layout', 'Plant'] });
    expect(ofType(list, 'code').map((c) => c.code_body)).toEqual(['indented code', 'never closed']);
    expect(ofType(list, 'text').map((t) => t.text)).toEqual(['quoted line one lazy continuation', 'second quoted paragraph']);
    expect(list.warnings.map((w) => w.code)).toContain('MARKDOWN_UNCLOSED_FENCE');
  });

  it('keeps a figure-like sentence that is not next to an image as text', () => {
    const list = adapt('Figure 4 shows the trend.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nTable 9: costs');
    expect(ofType(list, 'text').map((t) => t.text)).toEqual(['Figure 4 shows the trend.']);
    expect(ofType(list, 'table')[0]!.label).toBe('Table 9');
  });

  it('accepts the sha256 and byte size of the file and rejects bad options', () => {
    const list = adaptMarkdown('# T', { docId: 'd', filename: 'd.md', sha256: 'F'.repeat(64), bytes: 10 });
    expect(list.source).toMatchObject({ sha256: 'f'.repeat(64), bytes: 10 });
    expect(() => adaptMarkdown('# T', { docId: '', filename: 'd.md' })).toThrow(DocTreeError);
    expect(() => adaptMarkdown('# T', { docId: 'd', filename: 'd.md', sha256: 'nope' })).toThrow(/sha256/);
  });
});
