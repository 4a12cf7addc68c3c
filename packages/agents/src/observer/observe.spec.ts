import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocIndex, HashingEmbedder, loadDocIndex, minisearchSparseBackend, type DocIndex } from '@doctree/index';
import { ObservationSchema } from '@doctree/schema';
import { reportTree } from '../__fixtures__/report-tree.js';
import type { ObserveWarning } from './observer-types.js';
import { observe } from './observe.js';

describe('observe (over a built DocIndex)', () => {
  let docDir: string;
  let index: DocIndex;
  beforeAll(async () => {
    docDir = mkdtempSync(join(tmpdir(), 'doctree-agents-observe-'));
    writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(reportTree()));
    const embedder = new HashingEmbedder({ dimension: 64 });
    const sparse = minisearchSparseBackend();
    await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    index = await loadDocIndex(docDir, { embedder, sparse, backend: 'exact' });
  });
  afterAll(() => rmSync(docDir, { recursive: true, force: true }));

  it('returns observations in the order asked, de-duplicated, with captions folded into their table', async () => {
    const warnings: ObserveWarning[] = [];
    const observations = await observe(['tab_2', 't_1', 'cap_3', 't_1', 'img_1', 'sec_2', 't_404'], index, { onWarning: (w) => warnings.push(w) });
    expect(observations.map((o) => [o.node_id, o.modality, o.payload.kind])).toEqual([
      ['tab_2', 'table', 'table'],
      ['t_1', 'text', 'text'],
      ['img_1', 'chart', 'image'],
      ['sec_2', 'section', 'text'],
    ]);
    for (const o of observations) expect(ObservationSchema.parse(o)).toEqual(o);
    expect(warnings).toEqual([expect.objectContaining({ code: 'node_unknown', nodeId: 't_404' })]);
  });

  it('anchors text in the canonical document text, with heading path, page and box', async () => {
    const [paragraph, section] = await observe(['t_1', 'sec_2'], index);
    const p = paragraph!.payload;
    if (p.kind !== 'text') throw new Error('expected text');
    expect(p.heading_path).toEqual(['Management’s Discussion and Analysis']);
    expect(index.tree.text.slice(p.char_span![0], p.char_span![1])).toBe(p.text);
    expect(paragraph).toMatchObject({ page: 1, bbox: index.view.node('t_1')!.bboxes[0]!.bbox });
    const s = section!.payload;
    if (s.kind !== 'text') throw new Error('expected text');
    expect(s.text.startsWith('Consolidated Statement of Cash Flows')).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(1200);
    expect(index.tree.text.slice(s.char_span![0], s.char_span![1])).toBe(s.text);
  });

  it('observes a leaf chunk id as that chunk, with its own exact span', async () => {
    const chunkIds = [...index.denseLeaf.keys()].filter((id) => id.startsWith('t_5#'));
    expect(chunkIds.length).toBeGreaterThan(1);
    const [first, second] = await observe(chunkIds.slice(0, 2), index);
    expect(first!.node_id).toBe('t_5');
    expect(second!.node_id).toBe('t_5');
    for (const o of [first!, second!]) {
      const p = o.payload;
      if (p.kind !== 'text') throw new Error('expected text');
      expect(index.tree.text.slice(p.char_span![0], p.char_span![1])).toBe(p.text);
    }
    expect(first!.payload).not.toEqual(second!.payload);
  });
});
