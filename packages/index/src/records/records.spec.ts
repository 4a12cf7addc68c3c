import { DenseCoarseRecordSchema, DenseLeafRecordSchema, DocSummarySchema, GraphEdgeSchema, IdMapsSchema, SparseDocSchema } from '@doctree/schema';
import { sampleTree } from '../__fixtures__/sample-tree.js';
import { mmrSummary } from './extractive-summarizer.js';
import fc from 'fast-check';
import { buildIndexRecords, chunkLeaf, leadingWords } from './record-builder.js';
import { buildExtractiveSummary } from './summaries.js';
import { findUnits, findYears, hasNumbers, splitSentences } from './text-features.js';

describe('extractive summaries', () => {
  it('writes an 80-150 token gist per section from the section’s own sentences, in order', () => {
    const tree = sampleTree();
    const summary = DocSummarySchema.parse(buildExtractiveSummary(tree));
    expect(summary.sections.map((s) => s.node_id)).toEqual(['sec_1', 'sec_2', 'sec_3', 'sec_4']);
    const mdna = summary.sections.find((s) => s.node_id === 'sec_2')!;
    expect(mdna.tokens).toBeGreaterThanOrEqual(20);
    expect(mdna.tokens).toBeLessThanOrEqual(160);
    for (const sentence of splitSentences(mdna.gist)) expect(tree.text).toContain(sentence.replace(/…$/, ''));
    expect(summary.description.length).toBeGreaterThan(0);
    expect(mdna.content_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('prefers relevant, non-redundant sentences', () => {
    const text = 'Revenue grew 10% in 2018. Revenue grew 10% in 2018 again. The weather was nice. Operating margin improved to 21%.';
    const gist = mmrSummary(text, { maxTokens: 14, minTokens: 5, focus: 'revenue margin' });
    expect(gist).toContain('Revenue grew 10% in 2018.');
    expect(gist).not.toContain('again');
  });
});

describe('index records (docs/design/index-features.md §3)', () => {
  const tree = sampleTree();
  const records = buildIndexRecords(tree, buildExtractiveSummary(tree));

  it('emits the four section variants with shared filters, affordances and sketch', () => {
    const cash = records.denseCoarse.filter((r) => r.node_id.startsWith('sec_4#'));
    expect(cash.map((r) => r.variant)).toEqual(['heading', 'gist', 'child', 'path']);
    for (const r of records.denseCoarse) DenseCoarseRecordSchema.parse(r);
    const path = cash.find((r) => r.variant === 'path')!;
    expect(path.dense_text).toBe('PART II > Item 8. Financial Statements and Supplementary Data > Consolidated Statement of Cash Flows');
    expect(path.filters).toMatchObject({ level: 3, parent_section: 'sec_3', page_span: [3, 3] });
    expect(path.affordances).toMatchObject({ supports_ROUTE_TO_table: true, supports_LOOKUP: true, has_numbers: true });
    expect(path.subtree_sketch?.representatives.top_table).toBe('tab_1');
    expect(cash.find((r) => r.variant === 'child')!.dense_text).toContain('(Millions); 2018; 2017');
  });

  it('describes tables by caption, schema and row labels, and charts by caption', () => {
    const table = records.denseCoarse.find((r) => r.node_id === 'tab_1')!;
    expect(table.dense_text).toContain('Purchases of property, plant and equipment (PP&E)');
    expect(table.filters).toMatchObject({ label: 'Table 2', table_no: '2', parent_section: 'sec_4' });
    expect(table.filters.units_set).toEqual(expect.arrayContaining(['$', 'millions']));
    const chart = records.denseCoarse.find((r) => r.node_id === 'img_1')!;
    expect(chart).toMatchObject({ role: 'chart', filters: { chart_type: 'statistical', figure_no: '1' }, affordances: { supports_TREND: true } });
  });

  it('splits long leaves into #cN chunks whose char spans point at the tree text', () => {
    const chunks = records.denseLeaf.filter((r) => r.orig_node_id === 't_2');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.node_id)).toEqual(chunks.map((_, i) => `t_2#c${i}`));
    for (const chunk of chunks) {
      DenseLeafRecordSchema.parse(chunk);
      expect(tree.text.slice(...chunk.char_span!)).toBe(chunk.raw_text);
    }
    const short = records.denseLeaf.find((r) => r.node_id === 't_1')!;
    expect(short.dense_text.startsWith('Item 7. Management’s Discussion and Analysis: Net sales')).toBe(true);
    expect(records.denseLeaf.find((r) => r.node_id === 't_3')!.refs).toEqual([{ type: 'ref', label: 'Table 2', target: 'tab_1' }]);
  });

  it('builds BM25F docs with labels, schema, aliases and headings', () => {
    for (const doc of [...records.sparseCoarse, ...records.sparseLeaf]) SparseDocSchema.parse(doc);
    const table = records.sparseCoarse.find((d) => d.id === 'tab_1')!;
    expect(table).toMatchObject({ labels: 'Table 2', table_schema: '(Millions); 2018; 2017' });
    expect(table.aliases).toContain('usd');
    expect(table.body).toContain('Purchases of property, plant and equipment');
    const section = records.sparseCoarse.find((d) => d.id === 'sec_2')!;
    expect(section.child_labels).toBe('Figure 1');
  });

  it('builds graph edges and id maps', () => {
    for (const edge of records.edges) GraphEdgeSchema.parse(edge);
    const has = (src: string, dst: string, type: string): boolean => records.edges.some((e) => e.src === src && e.dst === dst && e.type === type);
    expect(has('sec_4', 'tab_1', 'child')).toBe(true);
    expect(has('tab_1', 'sec_4', 'parent')).toBe(true);
    expect(has('t_3', 'tab_1', 'ref')).toBe(true);
    expect(has('P4', 'tab_1', 'same_page')).toBe(true);
    expect(has('t_1', 'img_1', 'prev_next')).toBe(true);
    expect(records.edges.find((e) => e.type === 'has_col' && e.dst === 'tab_1:col:2018')).toBeDefined();
    const maps = IdMapsSchema.parse(records.idMaps);
    expect(maps.label2id).toMatchObject({ 'Figure 1': 'img_1', 'Table 2': 'tab_1' });
    expect(maps.table['2']).toBe('tab_1');
    expect(maps.section['Item 8']).toBe('sec_3');
  });
});

describe('text features', () => {
  it('finds units, years and numbers', () => {
    expect(findUnits('Revenue rose 4% to $3.2 billion (in millions) with 20 ms latency')).toEqual(['$', '%', 'millions', 'ms']);
    expect(findYears('from 2017 to 2019, not 1850 or 2150')).toEqual([2017, 2019]);
    expect(hasNumbers('In 2018 we grew.')).toBe(false);
    expect(hasNumbers('Sales were 1,482 million')).toBe(true);
  });

  it('chunks at sentence boundaries', () => {
    const text = 'One short sentence. Another short sentence. A third one here.';
    expect(chunkLeaf(text, 11).map((c) => c.text)).toEqual(['One short sentence. Another short sentence.', 'A third one here.']);
  });
});

describe('leading words of a leaf (its dense view)', () => {
  it('are the first words of a whitespace split, and say whether more follow', () => {
    expect(leadingWords('  Net sales\n rose   5%  ', 3)).toEqual({ words: ' Net sales', more: true });
    expect(leadingWords('Net sales rose', 3)).toEqual({ words: 'Net sales rose', more: false });
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'bc', 'Revenue', ' ', '  ', '\n', '\t', '\u00a0', '\u2028', '—'), { maxLength: 40 }).map((parts) => parts.join('')),
        fc.constantFrom(0, 1, 2, 5, 60, -1, 2.5),
        (text, count) => {
          const parts = text.split(/\s+/);
          expect(leadingWords(text, count)).toEqual({ words: parts.slice(0, count).join(' '), more: parts.length > count });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
