import { DocTreeError, RagChunkSchema, RagParentSchema, type RagChunk } from '@doctree/schema';
import { estimateTokens } from '@doctree/index';
import { generatedReport, treeFromSpecs } from '../__fixtures__/trees.js';
import { chunkDocTree, chunkNodeId, CHUNK_DOC_TREE_DEFAULTS, pageUnits } from './chunk-doc-tree.js';
import { sentenceSpans } from './text-spans.js';

const { minTokens, maxTokens } = CHUNK_DOC_TREE_DEFAULTS;

function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (error) {
    expect(DocTreeError.isInstance(error) ? error.code : error).toBe(code);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('sentenceSpans', () => {
  it('maps sentences back to exact character spans despite irregular whitespace and abbreviations', () => {
    const text = 'Intro.\n\n  Net sales rose 4.2%  in the U.S. market,\ne.g. in Ohio.   Fig. 2 shows it!  (Unaudited) totals follow.  ';
    const spans = sentenceSpans(text, 8, text.length);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual([
      'Net sales rose 4.2%  in the U.S. market,\ne.g. in Ohio.',
      'Fig. 2 shows it!',
      '(Unaudited) totals follow.',
    ]);
    expect(sentenceSpans(text, 6, 9)).toEqual([]);
  });
});

describe('chunkDocTree on a realistic generated report', () => {
  const tree = generatedReport(7, 12);
  const { parents, chunks } = chunkDocTree(tree);
  const byParent = new Map<string, RagChunk[]>();
  for (const c of chunks) byParent.set(c.parent_id, [...(byParent.get(c.parent_id) ?? []), c]);

  it('makes one parent per page with text, 1-based in the id and 0-based in page_idx, holding the page text', () => {
    expect(parents.map((p) => p.page_idx)).toEqual([...pageUnits(tree).keys()]);
    expect(parents).toHaveLength(12);
    expect(parents[0]!.parent_id).toBe('report-7:p001');
    expect(parents[11]!.parent_id).toBe('report-7:p012');
    for (const parent of parents) {
      RagParentSchema.parse(parent);
      const onPage = tree.nodes.filter((n) => n.role !== 'document' && n.role !== 'section' && n.text && n.page_span[0] === parent.page_idx);
      for (const node of onPage) expect(parent.text).toContain(node.text);
      expect(parent.chunk_ids).toEqual((byParent.get(parent.parent_id) ?? []).map((c) => c.chunk_id));
      for (const unit of parent.units) expect(parent.text).toContain(tree.text.slice(unit.char_start, unit.char_end));
    }
    expect(parents[5]!.text).toMatch(/^[0-9]+ Signatures\n\nSigned on behalf of the registrant\.$/);
  });

  it('gives every child char spans that slice the canonical text exactly, on its parent page', () => {
    for (const chunk of chunks) {
      RagChunkSchema.parse(chunk);
      expect(tree.text.slice(chunk.char_start, chunk.char_end)).toBe(chunk.text);
      const parent = parents.find((p) => p.parent_id === chunk.parent_id)!;
      expect(chunk.page_idx).toBe(parent.page_idx);
      expect(parent.units.some((u) => u.char_start <= chunk.char_start && chunk.char_start < u.char_end)).toBe(true);
      expect(chunk.node_ids).toContain(chunk.anchor_node_id);
      expect(chunkNodeId(chunk)).toMatch(new RegExp(`^${chunk.anchor_node_id}#p[0-9]{3}c[0-9]{2}$`));
    }
  });

  it('keeps children within 300 tokens, mostly 80-300 around 200, and short only where nothing could be merged', () => {
    const text = chunks.filter((c) => c.kind === 'text');
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(maxTokens);
    const inRange = text.filter((c) => c.tokens >= minTokens).length;
    expect(inRange / text.length).toBeGreaterThan(0.8);
    const sorted = text.map((c) => c.tokens).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeGreaterThanOrEqual(150);
    for (const chunk of text.filter((c) => c.tokens < minTokens)) {
      const siblings = byParent.get(chunk.parent_id)!;
      const i = siblings.indexOf(chunk);
      for (const neighbour of [siblings[i - 1], siblings[i + 1]]) {
        if (!neighbour || neighbour.kind !== 'text') continue;
        const [a, b] = neighbour.char_start < chunk.char_start ? [neighbour, chunk] : [chunk, neighbour];
        const contiguous = b.char_start <= a.char_end || tree.text.slice(a.char_end, b.char_start).trim() === '';
        if (contiguous) expect(estimateTokens(tree.text.slice(a.char_start, b.char_end))).toBeGreaterThan(maxTokens);
      }
    }
  });

  it('overlaps consecutive children (whole sentences or trailing words), never more than 10 % of either', () => {
    let overlaps = 0;
    for (const siblings of byParent.values()) {
      for (let i = 1; i < siblings.length; i++) {
        const previous = siblings[i - 1]!;
        const chunk = siblings[i]!;
        const overlap = Math.max(0, previous.char_end - chunk.char_start);
        if (overlap > 0) overlaps++;
        expect(overlap).toBeLessThanOrEqual(0.1 * chunk.text.length);
        expect(overlap).toBeLessThanOrEqual(0.1 * previous.text.length);
        expect(chunk.char_start).toBeGreaterThanOrEqual(previous.char_start);
      }
    }
    expect(overlaps).toBeGreaterThan(0);
  });

  it('keeps a small table whole in one child and splits a large one by rows, repeating its header as context', () => {
    const small = tree.nodes.find((n) => n.node_id === 'tab_1')!;
    const smallChunks = chunks.filter((c) => c.node_ids.includes('tab_1'));
    expect(smallChunks).toHaveLength(1);
    expect(smallChunks[0]).toMatchObject({ kind: 'table', role: 'table', anchor_node_id: 'tab_1', text: small.text });
    const large = tree.nodes.find((n) => n.role === 'table' && estimateTokens(n.text) > maxTokens)!;
    const pieces = chunks.filter((c) => c.anchor_node_id === large.node_id);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces[0]!.text.startsWith('Line item | 2023 | 2022 | 2021\n')).toBe(true);
    expect(pieces[0]!.context).toBeUndefined();
    for (const piece of pieces.slice(1)) expect(piece.context).toBe('Line item | 2023 | 2022 | 2021');
    const rows = large.text.split('\n');
    expect(pieces.flatMap((p) => p.text.split('\n'))).toEqual(rows);
  });

  it('cuts a sentence longer than 300 tokens at whitespace', () => {
    const long = tree.nodes.find((n) => n.text.startsWith('The agreement covers'))!;
    const pieces = chunks.filter((c) => c.char_start >= long.char_span[0] && c.char_end <= long.char_span[1]);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.tokens).toBeLessThanOrEqual(maxTokens);
  });

  it('takes the bbox from the overlapped nodes, null when they have none', () => {
    const boxless = tree.nodes.find((n) => n.bboxes.length === 0 && n.role === 'paragraph')!;
    const only = chunks.find((c) => c.node_ids.length === 1 && c.node_ids[0] === boxless.node_id);
    expect(only?.bbox).toBeNull();
    const boxed = chunks.find((c) => c.node_ids.length > 1 && c.bbox !== null)!;
    const boxes = boxed.node_ids.flatMap((id) => tree.nodes.find((n) => n.node_id === id)!.bboxes.map((b) => b.bbox));
    expect(boxed.bbox).toEqual([Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))]);
  });

  it('is deterministic and records heading paths', () => {
    expect(chunkDocTree(generatedReport(7, 12))).toEqual({ parents, chunks });
    expect(chunks.find((c) => c.anchor_node_id === 'tab_1')!.heading_path).toEqual(['Item 1. Revenue']);
  });
});

describe('chunkDocTree edge cases', () => {
  it('skips pages and nodes without text and rejects inconsistent sizes', () => {
    const tree = treeFromSpecs('tiny', 3, [
      { node_id: 'sec_1', role: 'section', title: 'Only heading', page: 0 },
      { node_id: 'img_1', role: 'image', page: 1 },
      { node_id: 't_1', role: 'paragraph', text: 'One short sentence.', page: 2 },
    ]);
    const { parents, chunks } = chunkDocTree(tree);
    expect(parents.map((p) => p.parent_id)).toEqual(['tiny:p001', 'tiny:p003']);
    expect(chunks.map((c) => c.text)).toEqual(['Only heading', 'One short sentence.']);
    expectCode(() => chunkDocTree(tree, { minTokens: 250, targetTokens: 200 }), 'CONFIG_INVALID');
    expectCode(() => chunkDocTree(tree, { maxOverlapRatio: 0.3 }), 'CONFIG_INVALID');
    expectCode(() => chunkDocTree(tree, { targetTokens: 1.5 }), 'CONFIG_INVALID');
  });
});
