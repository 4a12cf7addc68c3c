import { DocTreeError, type DocTree } from '@doctree/schema';
import { buildFixtureTree } from '../testing/fixture-tree.js';
import { DocView } from './doc-view.js';

function sampleTree(): DocTree {
  return buildFixtureTree({ doc_id: 'cycles', title: 'Report', page_count: 1 }, [
    { node_id: 'sec_0', role: 'document', title: 'Report', parent: null },
    { node_id: 'sec_1', role: 'section', title: 'Results', parent: 'sec_0' },
    { node_id: 't_1', role: 'paragraph', text: 'Revenue grew.', parent: 'sec_1' },
  ]);
}

describe('DocView on cyclic trees (loaded without full validation)', () => {
  it('throws SCHEMA_INVALID naming the node when a parent_id chain loops, in bounded time', () => {
    const tree = structuredClone(sampleTree());
    tree.nodes.find((n) => n.node_id === 'sec_1')!.parent_id = 't_1';
    const start = Date.now();
    let error: unknown;
    try {
      new DocView(tree);
    } catch (e) {
      error = e;
    }
    expect(Date.now() - start).toBeLessThan(5000);
    expect(error).toBeInstanceOf(DocTreeError);
    expect((error as DocTreeError).code).toBe('SCHEMA_INVALID');
    expect(['sec_1', 't_1']).toContain((error as DocTreeError).nodeId);
    expect((error as DocTreeError).hint).toMatch(/re-run ingest/);
  });

  it('walks a children cycle once, and ancestor walks end on a tree changed after the check', () => {
    const tree = structuredClone(sampleTree());
    tree.nodes.find((n) => n.node_id === 't_1')!.children = ['sec_1'];
    const view = new DocView(tree);
    const root = view.node('sec_0')!;
    expect(view.descendants(root).map((n) => n.node_id)).toEqual(['sec_1', 't_1']);
    // A loop made after construction: the walks stop at the first repeated node.
    const leaf = view.node('t_1')!;
    Object.assign(view.node('sec_1')!, { parent_id: 't_1', role: 'paragraph' });
    expect(view.ancestors(leaf).map((n) => n.node_id)).toEqual(['sec_1']);
    expect(view.sectionOf(leaf)).toBeUndefined();
  });

  it('keeps ancestors, sections and heading paths of a valid tree', () => {
    const view = new DocView(sampleTree());
    const leaf = view.node('t_1')!;
    expect(view.ancestors(leaf).map((n) => n.node_id)).toEqual(['sec_1']);
    expect(view.sectionOf(leaf)?.node_id).toBe('sec_1');
    expect(view.headingPath(leaf)).toBe('Results');
  });
});
