import { ContentListSchema, DocTreeSchema, type ContentList } from '@doctree/schema';
import { buildDocTree } from './tree-builder.js';

const page = { width: 612, height: 792 };
let order = 0;
function block(b: Record<string, unknown>): Record<string, unknown> {
  order += 1;
  return { block_id: `b_${order}`, read_order: order, origin: 'pdf', page_size: page, bbox: [72, 100 + order * 10, 540, 108 + order * 10], ...b };
}

function list(blocks: Array<Record<string, unknown>>, extra: Partial<ContentList> = {}, pages = 3): ContentList {
  return ContentListSchema.parse({
    format: 'doctree.content_list',
    version: 1,
    stage: 'enhanced',
    doc_id: 'report',
    source: { filename: 'report.pdf', kind: 'pdf', sha256: 'b'.repeat(64), bytes: 1000 },
    pages: Array.from({ length: pages }, (_, i) => ({ page_idx: i, ...page, has_text_layer: true })),
    blocks,
    generator: 'test',
    ...extra,
  });
}

describe('buildDocTree', () => {
  beforeEach(() => {
    order = 0;
  });

  it('nests sections by heading level and keeps leaves in reading order', () => {
    const tree = buildDocTree(
      list([
        block({ type: 'title', text: 'Annual Report', text_level: 1, page_idx: 0 }),
        block({ type: 'title', text: '1 Introduction', text_level: 1, page_idx: 0, numbering: '1' }),
        block({ type: 'text', text: 'We describe the results in Table 2 and Figure 3.', page_idx: 0 }),
        block({ type: 'title', text: '1.1 Scope', text_level: 2, page_idx: 1 }),
        block({ type: 'text', text: 'Scope text.', page_idx: 1 }),
        block({ type: 'header', text: 'ACME Corp', page_idx: 1 }),
        block({ type: 'image', image_caption: ['Figure 3: Revenue by year'], page_idx: 1 }),
        block({ type: 'title', text: '2 Results', text_level: 1, page_idx: 2 }),
        block({ type: 'table', table_body: '<table><tr><th>Year</th><th>Revenue</th></tr><tr><td>2023</td><td>10</td></tr></table>', table_caption: ['Table 2: Revenue'], page_idx: 2 }),
      ]),
    );
    expect(DocTreeSchema.safeParse(tree).error).toBeUndefined();
    const byId = new Map(tree.nodes.map((n) => [n.node_id, n]));
    const titleOf = (id: string | null): string | undefined => (id ? byId.get(id)?.title : undefined);
    const scope = tree.nodes.find((n) => n.title === '1.1 Scope')!;
    expect(titleOf(scope.parent_id)).toBe('1 Introduction');
    expect(scope.level).toBe(2);
    const results = tree.nodes.find((n) => n.title === '2 Results')!;
    expect(titleOf(results.parent_id)).toBe('Annual Report');
    // furniture never enters the tree
    expect(tree.text).not.toContain('ACME Corp');
    // sections span their subtree
    const intro = tree.nodes.find((n) => n.title === '1 Introduction')!;
    expect(intro.page_span).toEqual([0, 1]);
    expect(tree.text.slice(...intro.char_span)).toContain('Scope text.');
    // every leaf's char span is its text
    for (const node of tree.nodes.filter((n) => n.role === 'paragraph')) expect(tree.text.slice(...node.char_span)).toBe(node.text);
  });

  it('links captions to figures and tables and resolves references both ways', () => {
    const tree = buildDocTree(
      list([
        block({ type: 'title', text: '1 Results', text_level: 1, page_idx: 0 }),
        block({ type: 'text', text: 'As Figure 3 shows, revenue grew (see Table 2).', page_idx: 0 }),
        block({ type: 'image', image_caption: ['Figure 3: Revenue by year'], page_idx: 0 }),
        block({ type: 'table', table_body: '<table><tr><td>a</td></tr></table>', table_caption: ['Table 2: Revenue'], page_idx: 1 }),
      ]),
    );
    const image = tree.nodes.find((n) => n.role === 'image')!;
    const table = tree.nodes.find((n) => n.role === 'table')!;
    const caption = tree.nodes.find((n) => n.node_id === image.caption_id)!;
    expect(image.label).toBe('Figure 3');
    expect(caption).toMatchObject({ role: 'caption', caption_of: image.node_id, text: 'Figure 3: Revenue by year' });
    expect(table.label).toBe('Table 2');
    expect(table.table).toMatchObject({ rows: [['a']] });
    const paragraph = tree.nodes.find((n) => n.role === 'paragraph')!;
    expect(paragraph.refs.map((r) => [r.label, r.target])).toEqual([
      ['Figure 3', image.node_id],
      ['Table 2', table.node_id],
    ]);
    expect(image.referenced_by).toEqual([paragraph.node_id]);
    expect(paragraph.text.slice(...paragraph.refs[0]!.char_span!)).toBe('Figure 3');
  });

  it('links a standalone caption block to the nearest uncaptioned figure on its page', () => {
    const tree = buildDocTree(
      list([
        block({ type: 'image', page_idx: 0, bbox: [72, 100, 300, 300] }),
        block({ type: 'text', text: 'Figure 1: Architecture overview', flags: ['caption'], page_idx: 0, bbox: [72, 305, 300, 315] }),
      ]),
    );
    const image = tree.nodes.find((n) => n.role === 'image')!;
    expect(image.label).toBe('Figure 1');
    expect(tree.nodes.find((n) => n.node_id === image.caption_id)?.text).toBe('Figure 1: Architecture overview');
  });

  it('falls back to the outline, then to page groups, when there are no headings', () => {
    const paragraphs = [0, 1, 2].map((p) => block({ type: 'text', text: `Body of page ${p + 1}.`, page_idx: p }));
    const fromOutline = buildDocTree(list(paragraphs, { outline: [{ title: 'Part A', level: 1, page_idx: 0 }, { title: 'Part B', level: 1, page_idx: 2 }] }));
    const sections = fromOutline.nodes.filter((n) => n.role === 'section');
    expect(sections.map((s) => [s.title, s.derived_from, s.page_span])).toEqual([
      ['Part A', 'outline', [0, 1]],
      ['Part B', 'outline', [2, 2]],
    ]);
    const grouped = buildDocTree(list(paragraphs), { pageGroupSize: 2 });
    expect(grouped.nodes.filter((n) => n.role === 'section').map((s) => s.title)).toEqual(['Pages 1–2', 'Page 3']);
    expect(grouped.warnings.map((w) => w.code)).toContain('TREE_FROM_PAGE_GROUPS');
  });

  it('cites no page beyond page_count: a block past the last page is refused, an outline entry past it dropped', () => {
    const paragraphs = [0, 1, 2].map((p) => block({ type: 'text', text: `Body of page ${p + 1}.`, page_idx: p }));
    // A 3-page list whose last block claims page 100 000 (0-based 99 999).
    const damaged = list([...paragraphs, block({ type: 'text', text: 'Far away.', page_idx: 99_999 })]);
    expect(() => buildDocTree(damaged)).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID', page: 100_000, file: 'report.pdf', hint: expect.stringMatching(/ingest the source again/) }));
    expect(() => buildDocTree(list(paragraphs), { maxPages: 2 })).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID', message: expect.stringMatching(/3 pages, more than the maximum page count 2/) }));
    const tree = buildDocTree(list(paragraphs, { outline: [{ title: 'Part A', level: 1, page_idx: 0 }, { title: 'Part Z', level: 1, page_idx: 99_998 }] }));
    expect(tree.doc.page_count).toBe(3);
    expect(tree.doc.outline.map((o) => o.title)).toEqual(['Part A']);
    expect(tree.warnings.map((w) => w.code)).toContain('OUTLINE_PAGE_OUT_OF_RANGE');
    for (const node of tree.nodes) expect(node.page_span[1]).toBeLessThan(tree.doc.page_count);
  });

  it('keeps pages without text as explicit empty nodes, never a silent gap', () => {
    const content = list([block({ type: 'text', text: 'Only page one has text.', page_idx: 0 })]);
    content.pages[1]!.has_text_layer = false;
    const tree = buildDocTree(content);
    const empty = tree.nodes.find((n) => n.derived_from === 'empty_page')!;
    expect(empty).toMatchObject({ text: '', page_span: [1, 1] });
    expect(tree.warnings.find((w) => w.code === 'EMPTY_PAGE_NODE')?.page_idx).toBe(1);
  });

  it('nests a skipped heading level under the last open section', () => {
    const tree = buildDocTree(
      list([
        block({ type: 'title', text: 'PART II', text_level: 1, page_idx: 0 }),
        block({ type: 'title', text: 'Item 7. MD&A', text_level: 3, page_idx: 0 }),
        block({ type: 'title', text: 'Item 8. Financial Statements', text_level: 3, page_idx: 1 }),
      ]),
    );
    const part = tree.nodes.find((n) => n.role === 'section' && n.title === 'PART II')!;
    expect(part.children.map((id) => tree.nodes.find((n) => n.node_id === id)?.title)).toEqual(['Item 7. MD&A', 'Item 8. Financial Statements']);
  });
});
