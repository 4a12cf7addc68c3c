import { buildChildren, buildParents } from './chunk.js';
import { selectQuote } from './quotes.js';
import { countTokens, packChildren, sentenceSpans } from './chunking.js';
import type { ContentList } from '@doctree/schema';

const SIZES = { target_tokens: 200, min_tokens: 80, max_tokens: 300, max_overlap: 0.1 };

function prose(sentences: number, seed = 1): string {
  const words = ['harbour', 'cooperative', 'members', 'voted', 'to', 'repair', 'the', 'cold', 'store', 'after', 'storms', 'in', 'spring', 'and', 'summer'];
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) {
    const n = 6 + ((i * 7 + seed) % 19);
    out.push(`${Array.from({ length: n }, (_, j) => words[(i + j * 3 + seed) % words.length]).join(' ').replace(/^./, (c) => c.toUpperCase())}.`);
  }
  return out.join(' ');
}

describe('packChildren', () => {
  it('keeps children between 80 and 300 tokens, about 200, with at most 10 % overlap and exact spans', () => {
    const text = prose(120);
    const children = packChildren(text, SIZES);
    expect(children.length).toBeGreaterThan(5);
    for (const c of children) {
      expect(c.tokens).toBeGreaterThanOrEqual(80);
      expect(c.tokens).toBeLessThanOrEqual(300);
      expect(c.overlap_tokens).toBeLessThanOrEqual(0.1 * c.tokens);
      expect(countTokens(text.slice(c.start, c.end))).toBe(c.tokens);
    }
    const mean = children.reduce((n, c) => n + c.tokens, 0) / children.length;
    expect(mean).toBeGreaterThan(150);
    expect(mean).toBeLessThan(250);
    // Together the children cover the text: every sentence is in one.
    for (const s of sentenceSpans(text)) expect(children.some((c) => c.start <= s.start && c.end >= s.end)).toBe(true);
  });

  it('splits a sentence longer than the maximum at word boundaries', () => {
    const text = `${Array.from({ length: 700 }, (_, i) => `word${i}`).join(' ')}.`;
    const children = packChildren(text, SIZES);
    expect(children.every((c) => c.tokens <= 300)).toBe(true);
    expect(children.map((c) => text.slice(c.start, c.end)).join(' ')).toBe(text);
  });

  it('splits Chinese at 。！？ and counts each character as a token', () => {
    const text = '港口合作社成立于一九九八年。会员费上涨到每户二百四十欧元！为什么？';
    expect(sentenceSpans(text).map((s) => text.slice(s.start, s.end))).toEqual(['港口合作社成立于一九九八年。', '会员费上涨到每户二百四十欧元！', '为什么？']);
    expect(countTokens('会员费 rose 5 percent')).toBe(6);
  });

  it('keeps decimals and abbreviations inside sentences', () => {
    const text = 'Costs rose 3.5 percent, e.g. for energy. Dr. Smith agreed.';
    expect(sentenceSpans(text).map((s) => text.slice(s.start, s.end))).toEqual(['Costs rose 3.5 percent, e.g. for energy.', 'Dr. Smith agreed.']);
  });
});

describe('buildParents', () => {
  const base = { page_size: { width: 612, height: 792 }, bbox: [0, 0, 10, 10] as [number, number, number, number], origin: 'pdf' as const };
  const list = {
    format: 'doctree.content_list',
    version: 1,
    stage: 'enhanced',
    doc_id: 'd',
    source: { filename: 'd.pdf', kind: 'pdf', sha256: '0'.repeat(64), bytes: 1 },
    pages: [0, 1, 2].map((page_idx) => ({ page_idx, width: 612, height: 792, has_text_layer: true, ocr: false })),
    outline: [],
    warnings: [],
    generator: 'test',
    blocks: [
      { ...base, block_id: 'b0', page_idx: 0, read_order: 0, type: 'header', text: 'Running header' },
      { ...base, block_id: 'b1', page_idx: 0, read_order: 1, type: 'title', text: 'Costs', text_level: 1 },
      { ...base, block_id: 'b2', page_idx: 0, read_order: 2, type: 'text', text: 'Energy cost 412,000 euros.' },
      { ...base, block_id: 'b3', page_idx: 2, read_order: 3, type: 'text', text: 'Storms closed the harbour.', flags: [] },
      { ...base, block_id: 'b4', page_idx: 2, read_order: 4, type: 'text', text: 'Annual Review 2022', flags: ['repeated_footer'] },
    ],
  } as unknown as ContentList;

  it('makes one parent per page with text, ids doc:pNNN (1-based), furniture left out', () => {
    const parents = buildParents('d', list);
    expect(parents.map((p) => [p.parent_id, p.page_start, p.parent_text])).toEqual([
      ['d:p001', 1, 'Costs\n\nEnergy cost 412,000 euros.'],
      ['d:p003', 3, 'Storms closed the harbour.'],
    ]);
    expect(parents[1]!.section_path).toEqual(['Costs']);
    const child = buildChildren(parents[0]!, SIZES)[0]!;
    expect(child).toMatchObject({ chunk_id: 'd:p001:c01', parent_id: 'd:p001', doc_uid: 'd' });
    expect(parents[0]!.parent_text.slice(child.char_start, child.char_end)).toBe(child.text);
    expect(child.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('marks a table header of several rows (cells joined with " / ") as searchable but never quoted', () => {
    const table = {
      ...base,
      block_id: 't1',
      page_idx: 0,
      read_order: 5,
      type: 'table',
      table_body: '<table></table>',
      table_caption: ['Statement of equity'],
      table_footnote: [],
      markdown: '| Ordinary / Shares | Retained / Earnings |\n| --- | --- |\n| $16 | $246 |',
    };
    const withTable = { ...list, blocks: [...list.blocks.slice(0, 3), table] } as unknown as ContentList;
    const [parent] = buildParents('d', withTable);
    expect(parent!.parent_text).toBe('Costs\n\nEnergy cost 412,000 euros.\n\nStatement of equity\nOrdinary / Shares Retained / Earnings\n$16 $246');
    const [[a, b]] = parent!.unquotable as [[number, number]];
    expect(parent!.parent_text.slice(a, b)).toBe('Ordinary / Shares Retained / Earnings');
    expect(selectQuote(parent!.parent_text, 'ordinary shares retained earnings', undefined, parent!.unquotable)!.text).not.toContain(' / ');
    expect(buildParents('d', list)[0]!.unquotable).toEqual([]);
  });
});
