import type { Hit } from '@doctree/schema';
import { createToolContext, type ToolContext } from '../context/tool-context.js';
import { ToolExecutor } from '../executor/tool-executor.js';
import { createDefaultRegistry } from '../hub/default-cards.js';
import { navigatorFor, type DocNavigator } from '../navigation/doc-navigator.js';
import { nodeHit } from '../hits/node-hit.js';
import { annualReportTree, buildFixtureTree, type FixtureNode } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { expandHits } from './structure-expand.js';

/** One page holding a section with 10 paragraphs and three sub-sections, then another section with 4 paragraphs. */
function crowdedTree(): ReturnType<typeof buildFixtureTree> {
  const nodes: FixtureNode[] = [
    { node_id: 'sec_0', role: 'document', parent: null, title: 'Crowded' },
    { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: 'Operations', page: 0 },
  ];
  for (let i = 1; i <= 10; i++) nodes.push({ node_id: `t_${i}`, role: 'paragraph', parent: 'sec_1', page: 0, text: `Paragraph ${i} about operations, logistics and warehouse number ${i} with enough words to be a paragraph.` });
  for (let s = 3; s <= 5; s++) nodes.push({ node_id: `sec_${s}`, role: 'section', parent: 'sec_1', title: `Sub-section ${s}`, page: 0 });
  nodes.push({ node_id: 'sec_2', role: 'section', parent: 'sec_0', title: 'Finance', page: 0 });
  for (let i = 11; i <= 14; i++) nodes.push({ node_id: `t_${i}`, role: 'paragraph', parent: 'sec_2', page: 0, text: `Paragraph ${i} about finance.` });
  return buildFixtureTree({ doc_id: 'crowded', title: 'Crowded', page_count: 1 }, nodes);
}

describe('structure.expand limits', () => {
  let crowded: FixtureIndex;
  let report: FixtureIndex;
  let nav: DocNavigator;
  let reportNav: DocNavigator;
  const hitOf = (n: DocNavigator, id: string, score = 1): Hit => ({ ...nodeHit(n, n.require(id), { method: 'lane', score }), score });
  beforeAll(async () => {
    crowded = await buildFixtureIndex(crowdedTree());
    report = await buildFixtureIndex(annualReportTree());
    nav = navigatorFor(crowded.index);
    reportNav = navigatorFor(report.index);
  });
  afterAll(async () => {
    await crowded.cleanup();
    await report.cleanup();
  });

  it('a paragraph hit gets its section, 2 nearest siblings and at most 8 nodes of its page', () => {
    const out = expandHits(nav, [hitOf(nav, 't_5')]);
    const kind = (k: string): string[] => out.filter((h) => h.extra['expansion'] === k).map((h) => h.node_id);
    expect(kind('parent')).toEqual(['sec_1']);
    expect(kind('sibling').sort()).toEqual(['t_4', 't_6']);
    const onPage = out.filter((h) => (h.extra['via'] as string[]).includes('structure.expand:same_page'));
    expect(onPage).toHaveLength(8);
    expect(out).toHaveLength(1 + 1 + 2 + 6);
    expect(out.some((h) => h.node_id === 'sec_0')).toBe(false);
    // scores decay from the source hit
    expect(out.find((h) => h.node_id === 'sec_1')!.score).toBeCloseTo(0.5);
    expect(out.find((h) => h.node_id === 't_4')!.extra['expanded_from']).toBe('t_5');
  });

  it('a section hit gets at most 2 children and 2 siblings; limits and the candidate cap are honoured', () => {
    const out = expandHits(nav, [hitOf(nav, 'sec_1')], { representatives: false });
    expect(out.filter((h) => h.extra['expansion'] === 'child').map((h) => h.node_id)).toEqual(['t_1', 't_2']);
    expect(out.filter((h) => h.extra['expansion'] === 'sibling').map((h) => h.node_id)).toEqual(['sec_2']);
    const none = expandHits(nav, [hitOf(nav, 't_5')], { parent: 0, siblings: 0, samePage: 0 });
    expect(none.map((h) => h.node_id)).toEqual(['t_5']);
    const capped = expandHits(nav, [hitOf(nav, 't_5'), hitOf(nav, 't_12', 0.9)], { maxCandidates: 4 });
    expect(capped).toHaveLength(4);
    expect(capped.map((h) => h.node_id).slice(0, 1)).toEqual(['t_5']);
    expect(capped.map((h) => h.node_id)).toContain('t_12');
  });

  it('a table hit brings its caption, its section and the paragraph that refers to it; a caption brings its figure', () => {
    const table = expandHits(reportNav, [hitOf(reportNav, 'tab_1')]);
    const reasons = new Map(table.map((h) => [h.node_id, h.extra['expansion']]));
    expect(reasons.get('cap_2')).toBe('caption');
    expect(reasons.get('t_4')).toBe('ref');
    expect(reasons.get('sec_6')).toBe('parent');
    const caption = expandHits(reportNav, [hitOf(reportNav, 'cap_1')]);
    expect(caption.find((h) => h.node_id === 'img_1')?.extra['expansion']).toBe('caption');
    const paragraph = expandHits(reportNav, [hitOf(reportNav, 't_3')]);
    expect(paragraph.find((h) => h.node_id === 'img_1')?.extra['expansion']).toBe('ref');
  });
});

describe('structure.children, extract.heading_first and structure.expand cards', () => {
  let fixture: FixtureIndex;
  let executor: ToolExecutor<ToolContext>;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    executor = new ToolExecutor({ registry: createDefaultRegistry(), context: createToolContext({ index: fixture.index }) });
  });
  afterAll(() => fixture.cleanup());

  it('lists the ordered children of a section named by heading words or numbering', async () => {
    const byTitle = await executor.call({ tool_id: 'structure.children', args: { title: 'Sustainability' } });
    expect(byTitle.data).toMatchObject({
      parent: { node_id: 'sec_8', title: '4 Sustainability', page: 6 },
      children: [
        { position: 1, node_id: 'sec_9', role: 'section', title: '4.1 Emissions', page: 6 },
        { position: 2, node_id: 'sec_10', role: 'section', title: '4.2 Workforce', page: 6 },
      ],
    });
    const byNumber = await executor.call({ tool_id: 'structure.children', args: { title: '2.2', roles: ['list'] } });
    expect((byNumber.data as { children: Array<{ node_id: string }> }).children.map((c) => c.node_id)).toEqual(['list_1']);
    const unknown = await executor.call({ tool_id: 'structure.children', args: { node_id: 'sec_99' } });
    expect(unknown.error).toMatchObject({ code: 'TOOL_ARGS_INVALID', message: expect.stringContaining('sec_99') });
  });

  it('answers "the first sub-heading" and "the first item" of a section', async () => {
    const heading = await executor.call({ tool_id: 'extract.heading_first', args: { title: 'Sustainability' } });
    expect(heading.data).toMatchObject({ section: { node_id: 'sec_8' }, first: { node_id: 'sec_9', text: '4.1 Emissions', page: 6 } });
    const item = await executor.call({ tool_id: 'extract.heading_first', args: { title: 'Liquidity and Capital Resources', kind: 'item' } });
    expect(item.data).toMatchObject({ first: { node_id: 'list_1', text: 'Completed the Rotterdam distribution centre', item_index: 1 } });
    const none = await executor.call({ tool_id: 'extract.heading_first', args: { node_id: 'sec_9' } });
    expect(none).toMatchObject({ status: 'ok', hits: [], data: { first: null, reason: expect.stringContaining('sub-heading') } });
  });

  it('structure.expand takes node ids or hits and reports what it added', async () => {
    const result = await executor.call({ tool_id: 'structure.expand', args: { node_ids: ['img_1'], same_page: 0 } });
    const added = (result.data as { added: Array<{ node_id: string; expansion: string }> }).added;
    expect(added).toEqual(expect.arrayContaining([{ node_id: 'cap_1', expansion: 'caption', expanded_from: 'img_1' }, { node_id: 't_3', expansion: 'ref', expanded_from: 'img_1' }]));
    const bad = await executor.call({ tool_id: 'structure.expand', args: {} });
    expect(bad.error?.message).toMatch(/hits/);
  });
});
