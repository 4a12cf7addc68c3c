import { createToolContext, type ToolContext } from '../context/tool-context.js';
import { ToolExecutor } from '../executor/tool-executor.js';
import { createDefaultRegistry } from '../hub/default-cards.js';
import { buildFixtureTree, type FixtureNode } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import type { StructureCountData } from './structure-count.js';

/**
 * A made-up field guide of 6 pages: two photos (one captioned), a chart, a figure caption whose picture ingest lost,
 * three tables (one spanning pages 3–4) and three appendices, one of them also listed on the contents page.
 */
function guideTree(): ReturnType<typeof buildFixtureTree> {
  const nodes: FixtureNode[] = [
    { node_id: 'sec_0', role: 'document', parent: null, title: 'Wetland Field Guide' },
    { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: 'Contents', page: 0 },
    { node_id: 't_1', role: 'paragraph', parent: 'sec_1', page: 0, text: 'Appendix A Species lists ... 5' },
    { node_id: 'sec_2', role: 'section', parent: 'sec_0', title: '1 Reed beds', numbering: '1', page: 1 },
    { node_id: 'img_1', role: 'image', parent: 'sec_2', page: 1, label: 'Figure 1', caption_id: 'cap_1' },
    { node_id: 'cap_1', role: 'caption', parent: 'sec_2', page: 1, label: 'Figure 1', caption_of: 'img_1', text: 'Figure 1: A heron nesting in the reeds' },
    { node_id: 'img_2', role: 'chart', parent: 'sec_2', page: 1, label: 'Figure 2', caption_id: 'cap_2' },
    { node_id: 'cap_2', role: 'caption', parent: 'sec_2', page: 1, label: 'Figure 2', caption_of: 'img_2', text: 'Figure 2: Water level by month' },
    { node_id: 'tab_1', role: 'table', parent: 'sec_2', page: 2, label: 'Table 1', table: { rows: [['Bird', 'Count'], ['Heron', '12'], ['Coot', '40']] }, text: 'Bird | Count\nHeron | 12\nCoot | 40' },
    { node_id: 'sec_3', role: 'section', parent: 'sec_0', title: '2 Open water', numbering: '2', page: 2 },
    { node_id: 'tab_2', role: 'table', parent: 'sec_3', page: 2, page_span: [2, 3], label: 'Table 2', table: { rows: [['Fish', 'pH range'], ['Pike', '6-8']] }, text: 'Fish | pH range\nPike | 6-8' },
    { node_id: 'cap_3', role: 'caption', parent: 'sec_3', page: 3, label: 'Figure 3', text: 'Figure 3: Map of the heron colonies' },
    { node_id: 'img_3', role: 'image', parent: 'sec_3', page: 3 },
    { node_id: 'sec_4', role: 'section', parent: 'sec_0', title: 'Appendix A Species lists', page: 4 },
    { node_id: 'tab_3', role: 'table', parent: 'sec_4', page: 4, label: 'Table 3', table: { rows: [['Plant', 'pH range'], ['Reed', '5-8']] }, text: 'Plant | pH range\nReed | 5-8' },
    { node_id: 'sec_5', role: 'section', parent: 'sec_0', title: 'Appendix B: Methods', page: 5 },
    { node_id: 'sec_6', role: 'section', parent: 'sec_0', title: 'APPENDIX C', page: 5 },
    { node_id: 'sec_7', role: 'section', parent: 'sec_0', title: 'Appendix A Species lists', page: 0 },
  ];
  return buildFixtureTree({ doc_id: 'wetland-guide', title: 'Wetland Field Guide', page_count: 6 }, nodes);
}

describe('structure.count', () => {
  let fixture: FixtureIndex;
  let executor: ToolExecutor<ToolContext>;
  const count = async (args: Record<string, unknown>): Promise<StructureCountData> => {
    const result = await executor.call({ tool_id: 'structure.count', args });
    expect(result.status).toBe('ok');
    return result.data as StructureCountData;
  };
  beforeAll(async () => {
    fixture = await buildFixtureIndex(guideTree());
    executor = new ToolExecutor({ registry: createDefaultRegistry(), context: createToolContext({ index: fixture.index }) });
  });
  afterAll(async () => fixture.cleanup());

  it('counts every figure of the document, a caption whose picture ingest lost included', async () => {
    const figures = await count({ object: 'figure' });
    expect(figures.total).toBe(4);
    expect(figures.items.map((i) => i.node_id)).toEqual(['img_1', 'img_2', 'cap_3', 'img_3']);
    expect(figures.unit).toBe('objects');
  });

  it('counts tables, or the pages holding one, on the pages or in the section asked', async () => {
    expect((await count({ object: 'table' })).total).toBe(3);
    const pages = await count({ object: 'table', per_page: true });
    expect(pages).toMatchObject({ total: 3, unit: 'pages', pages: [3, 4, 5] });
    expect((await count({ object: 'table', pages: [3] })).total).toBe(2);
    expect((await count({ object: 'table', section_title: 'Open water' })).items.map((i) => i.node_id)).toEqual(['tab_2']);
  });

  it('keeps objects holding the required words, and narrows by qualifiers only when some object holds them', async () => {
    expect((await count({ object: 'table', required: ['pH range'] })).items.map((i) => i.node_id)).toEqual(['tab_2', 'tab_3']);
    const herons = await count({ object: 'figure', qualifiers: ['heron'] });
    expect(herons).toMatchObject({ total: 2, qualified: true });
    const none = await count({ object: 'figure', qualifiers: ['volcano'] });
    expect(none).toMatchObject({ total: 4, qualified: false });
  });

  it('counts headings that start with a word once per label, and rejects a heading count without the word', async () => {
    const appendices = await count({ object: 'heading', heading_word: 'appendix' });
    expect(appendices.total).toBe(3);
    expect(appendices.description).toMatch(/^3 "appendix" heading/);
    const bad = await executor.call({ tool_id: 'structure.count', args: { object: 'heading' } });
    expect(bad.status).toBe('error');
  });
});
