import { DocTreeSchema, type DocTree } from './doctree.js';
import { DocTreeError } from './errors.js';
import { parseWith } from './validation.js';
import { indexFromPage, pageFromIndex } from './common.js';

const sha = 'a'.repeat(64);
function tree(): DocTree {
  const text = 'Report\n1 Introduction\nWe study trees.';
  return DocTreeSchema.parse({
    format: 'doctree.mm',
    version: 1,
    doc: {
      doc_id: 'sample',
      source: { filename: 'sample.pdf', kind: 'pdf', sha256: sha, bytes: 100 },
      page_count: 1,
      pages: [{ page_idx: 0, width: 612, height: 792, has_text_layer: true }],
    },
    text,
    root_id: 'sec_0',
    nodes: [
      { node_id: 'sec_0', role: 'document', parent_id: null, children: ['sec_1'], level: 0, title: 'Report', page_span: [0, 0], bboxes: [], read_order: 0, char_span: [0, text.length] },
      { node_id: 'sec_1', role: 'section', parent_id: 'sec_0', children: ['t_1'], level: 1, title: '1 Introduction', page_span: [0, 0], bboxes: [{ page_idx: 0, bbox: [72, 100, 300, 114] }], read_order: 1, char_span: [7, text.length] },
      { node_id: 't_1', role: 'paragraph', parent_id: 'sec_1', children: [], level: 2, text: 'We study trees.', page_span: [0, 0], bboxes: [{ page_idx: 0, bbox: [72, 120, 400, 134] }], read_order: 2, char_span: [22, text.length] },
    ],
    generator: 'test',
  });
}

describe('DocTreeSchema', () => {
  it('accepts a consistent tree and fills defaults', () => {
    const t = tree();
    expect(t.nodes[2]!.refs).toEqual([]);
    expect(t.text.slice(...t.nodes[2]!.char_span)).toBe('We study trees.');
  });

  it('rejects unknown parents, duplicate ids and spans past the text, naming the node', () => {
    const t = tree();
    const broken = structuredClone(t);
    broken.nodes[2]!.parent_id = 'sec_9';
    broken.nodes.push({ ...broken.nodes[1]! });
    broken.nodes[0]!.char_span = [0, 10_000];
    const result = DocTreeSchema.safeParse(broken);
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'nodes.2.parent_id: unknown parent sec_9',
        'nodes.3.node_id: duplicate node_id sec_1',
        'nodes.0.char_span: char_span ends past the document text (37 chars)',
      ]),
    );
  });

  it('rejects malformed node ids and boxes', () => {
    const broken = structuredClone(tree()) as unknown as { nodes: Array<Record<string, unknown>> };
    broken.nodes[2]!['node_id'] = 'para-1';
    broken.nodes[1]!['bboxes'] = [{ page_idx: 0, bbox: [300, 100, 72, 114] }];
    const issues = DocTreeSchema.safeParse(broken).error!.issues.map((i) => i.path.join('.'));
    expect(issues).toEqual(expect.arrayContaining(['nodes.2.node_id', 'nodes.1.bboxes.0.bbox']));
  });
});

describe('page convention', () => {
  it('stores 0-based page_idx and shows 1-based pages', () => {
    expect(pageFromIndex(0)).toBe(1);
    expect(indexFromPage(60)).toBe(59);
  });
});

describe('DocTreeSchema cycles', () => {
  const issuesOf = (value: unknown): string[] => {
    const result = DocTreeSchema.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => i.message);
  };

  it('rejects a 2-node parent/child cycle with SCHEMA_INVALID naming the node, in bounded time', () => {
    const broken = structuredClone(tree());
    broken.nodes[1]!.parent_id = 't_1';
    broken.nodes[2]!.children = ['sec_1'];
    const start = Date.now();
    let error: unknown;
    try {
      parseWith(DocTreeSchema, broken, { file: 'doctree.mm.json', what: 'DocTree' });
    } catch (e) {
      error = e;
    }
    expect(Date.now() - start).toBeLessThan(5000);
    expect(error).toBeInstanceOf(DocTreeError);
    expect((error as DocTreeError).code).toBe('SCHEMA_INVALID');
    expect((error as DocTreeError).message).toMatch(/parent cycle at node (sec_1|t_1)/);
    expect((error as DocTreeError).message).toMatch(/children cycle at node (sec_1|t_1)/);
    expect((error as DocTreeError).message).toMatch(/re-run ingest/);
  });

  it('rejects a node that is its own parent or its own child', () => {
    const selfParent = structuredClone(tree());
    selfParent.nodes[2]!.parent_id = 't_1';
    expect(issuesOf(selfParent).some((m) => m.startsWith('parent cycle at node t_1 (t_1 → t_1)'))).toBe(true);
    const selfChild = structuredClone(tree());
    selfChild.nodes[2]!.children = ['t_1'];
    expect(issuesOf(selfChild).some((m) => m.startsWith('children cycle at node t_1'))).toBe(true);
  });

  it('checks a long chain and a long cycle in linear time', () => {
    const base = tree();
    const n = 10_000;
    const chain = Array.from({ length: n }, (_, i) => ({ ...base.nodes[2]!, node_id: `t_${i}`, parent_id: i === 0 ? 'sec_0' : `t_${i - 1}`, children: i + 1 < n ? [`t_${i + 1}`] : [] }));
    const long = { ...base, nodes: [{ ...base.nodes[0]!, children: ['t_0'] }, ...chain] };
    // Linear, not quadratic: bounded by a multiple of a linear pass over the same nodes measured in the same run (a
    // quadratic check of 10,000 nodes is about 10,000 times that pass), so a loaded machine slows both alike.
    const refStart = Date.now();
    for (let i = 0; i < 20; i++) JSON.parse(JSON.stringify(long));
    const reference = Date.now() - refStart;
    const start = Date.now();
    expect(issuesOf(long)).toEqual([]);
    chain[0]!.parent_id = `t_${n - 1}`;
    chain[n - 1]!.children = ['t_0'];
    const cyclic = issuesOf(long);
    expect(Date.now() - start).toBeLessThan(Math.max(5000, 100 * reference));
    expect(cyclic.filter((m) => m.startsWith('parent cycle'))).toHaveLength(1);
    expect(cyclic.filter((m) => m.startsWith('children cycle'))).toHaveLength(1);
  });
});
