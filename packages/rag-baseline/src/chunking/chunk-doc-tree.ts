import { createHash } from 'node:crypto';
import { DocView, estimateTokens } from '@doctree/index';
import { DocTreeError, pageFromIndex } from '@doctree/schema';
import type { BBox, DocTree, DocTreeNode, RagChunk, RagChunking, RagParent } from '@doctree/schema';
import { definedOnly } from '../options.js';
import { packSpans, type PackSpansSettings } from './pack-spans.js';
import { lineSpans, sentenceSpans, splitLongSpan, trimSpan, type TextSpan } from './text-spans.js';

/** Options of {@link chunkDocTree} (packages/rag-baseline/README.md: children of ~200 tokens, 80–300, overlap ≤ 10 %). */
export interface ChunkDocTreeOptions {
  /** Size a child grows to before a new one starts, in `estimateTokens` units. Default 200. */
  targetTokens?: number;
  /** Children below this grow up to `maxTokens` when the text allows. Default 80. */
  minTokens?: number;
  /** Hard upper bound of a child (longer sentences and table rows are cut at whitespace). Default 300. */
  maxTokens?: number;
  /** Largest overlap of a child with its predecessor (whole trailing sentences), in tokens; 0 = none. Default 20. */
  overlapTokens?: number;
  /** Largest overlap as a fraction of either neighbour's length; at most 0.1. Default 0.1. */
  maxOverlapRatio?: number;
  /** Header rows repeated (as embedding context) before continuation pieces of a split table, when at most this many tokens. Default 60. */
  tableHeaderTokens?: number;
}

/** Defaults of {@link ChunkDocTreeOptions}. */
export const CHUNK_DOC_TREE_DEFAULTS = {
  targetTokens: 200,
  minTokens: 80,
  maxTokens: 300,
  overlapTokens: 20,
  maxOverlapRatio: 0.1,
  tableHeaderTokens: 60,
} as const satisfies Required<ChunkDocTreeOptions>;

/** Parents and children of one document. */
export interface DocTreeChunks {
  /** One parent per page that has text, in page order. */
  parents: RagParent[];
  /** Children in reading order; each is exactly `tree.text.slice(char_start, char_end)`. */
  chunks: RagChunk[];
}

/** A node's own text on one page. */
export interface PageUnit {
  node: DocTreeNode;
  /** 0-based page the text is on. */
  pageIdx: number;
  start: number;
  end: number;
}

/** The `parent_id` of a 0-based page: `<doc_id>:p<NNN>` with the 1-based page. */
export function ragParentId(docId: string, pageIdx: number): string {
  return `${docId}:p${String(pageFromIndex(pageIdx)).padStart(3, '0')}`;
}

/** The `chunk_id` of the `index`-th child (0-based) of a parent: `<parent_id>:c<NN>`. */
export function ragChunkId(parentId: string, index: number): string {
  return `${parentId}:c${String(index).padStart(2, '0')}`;
}

/**
 * The short name of a chunk used in hit and observation node ids: `<anchor node>#p<NNN>c<NN>` (`t_12#p003c01`),
 * so that the part before `#` is always a node of the tree, as in DocTree's own `t_230#c0` chunk ids.
 */
export function chunkNodeId(chunk: Pick<RagChunk, 'anchor_node_id' | 'chunk_id'>): string {
  const match = /:p([0-9]+):c([0-9]+)$/.exec(chunk.chunk_id);
  return `${chunk.anchor_node_id}#p${match?.[1] ?? ''}c${match?.[2] ?? ''}`;
}

/**
 * The text units of every page, in canonical-text order: a section contributes its heading, every other node its
 * own text (`char_span`); empty nodes (figures without text) contribute nothing. A unit belongs to the page of the
 * node's first box (sections: the heading's box), else to the first page of its `page_span`.
 */
export function pageUnits(tree: DocTree): Map<number, PageUnit[]> {
  const pages = new Map<number, PageUnit[]>();
  for (const node of tree.nodes) {
    const span = ownSpan(tree, node);
    if (!span) continue;
    const pageIdx = node.bboxes[0]?.page_idx ?? node.page_span[0];
    const list = pages.get(pageIdx);
    const unit = { node, pageIdx, start: span.start, end: span.end };
    if (list) list.push(unit);
    else pages.set(pageIdx, [unit]);
  }
  for (const units of pages.values()) {
    units.sort((a, b) => a.start - b.start || a.end - b.end);
    // Units never overlap in ingest output; if a hand-made tree nests them, later ones keep only their new text.
    for (let i = 1; i < units.length; i++) {
      const previous = units[i - 1]!;
      const unit = units[i]!;
      if (unit.start < previous.end) unit.start = Math.min(previous.end, unit.end);
    }
    const kept = units.filter((u) => trimSpan(tree.text, { start: u.start, end: u.end }) !== undefined);
    units.splice(0, units.length, ...kept);
  }
  return new Map([...pages].filter(([, units]) => units.length > 0).sort((a, b) => a[0] - b[0]));
}

/** The span of a node's own text: the heading of a section, the char_span of anything else; trimmed. */
function ownSpan(tree: DocTree, node: DocTreeNode): TextSpan | undefined {
  const [start, end] = node.char_span;
  if (node.role === 'document' || node.role === 'section') {
    const heading = node.text.trim();
    if (heading.length === 0) return undefined;
    const at = tree.text.indexOf(heading, start);
    if (at < 0 || (end > start && at + heading.length > end)) return undefined;
    return { start: at, end: at + heading.length };
  }
  return trimSpan(tree.text, { start, end: Math.min(end, tree.text.length) });
}

function resolveOptions(options: ChunkDocTreeOptions): Required<ChunkDocTreeOptions> {
  const resolved = { ...CHUNK_DOC_TREE_DEFAULTS, ...definedOnly(options) };
  const { targetTokens, minTokens, maxTokens, overlapTokens, maxOverlapRatio, tableHeaderTokens } = resolved;
  const int = (value: number, min: number): boolean => Number.isInteger(value) && value >= min;
  if (!int(targetTokens, 1) || !int(minTokens, 0) || !int(maxTokens, 1) || !(minTokens <= targetTokens && targetTokens <= maxTokens)) {
    throw new DocTreeError('CONFIG_INVALID', `chunk sizes must be integers with 0 <= minTokens <= targetTokens <= maxTokens, got ${minTokens}/${targetTokens}/${maxTokens}`, {
      hint: 'The defaults are minTokens 80, targetTokens 200, maxTokens 300.',
    });
  }
  if (!int(overlapTokens, 0) || !int(tableHeaderTokens, 0)) {
    throw new DocTreeError('CONFIG_INVALID', `overlapTokens and tableHeaderTokens must be integers >= 0, got ${overlapTokens} and ${tableHeaderTokens}`);
  }
  if (!(typeof maxOverlapRatio === 'number' && maxOverlapRatio >= 0 && maxOverlapRatio <= 0.1)) {
    throw new DocTreeError('CONFIG_INVALID', `maxOverlapRatio must be in 0..0.1, got ${String(maxOverlapRatio)}`, { hint: 'At most 10 % overlap is allowed.' });
  }
  return resolved;
}

/** The chunking settings as recorded in the RAG manifest. */
export function chunkingRecord(options: ChunkDocTreeOptions = {}): RagChunking {
  const o = resolveOptions(options);
  return { target_tokens: o.targetTokens, min_tokens: o.minTokens, max_tokens: o.maxTokens, overlap_tokens: o.overlapTokens, max_overlap_ratio: o.maxOverlapRatio };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Cuts a DocTree into the baseline's parents and children. Each page with text becomes a parent (`<doc_id>:p<NNN>`,
 * 1-based). Its prose is split into sentences (`splitSentences` of `@doctree/schema`) and packed into children of
 * about `targetTokens` (`minTokens`–`maxTokens`, whole sentences, overlap at most `overlapTokens` and
 * `maxOverlapRatio`); a prose stretch ends at a table or where the canonical text leaves the page. A table becomes
 * one child when it fits `maxTokens`, else row ranges (its header row is embedded before each continuation piece as
 * `context`). Children below `minTokens` occur only where a page or prose stretch is that short, and for small tables.
 * Every child's `char_start`/`char_end` slice the canonical `tree.text` exactly.
 *
 * @throws DocTreeError `CONFIG_INVALID` for inconsistent sizes or an overlap ratio above 0.1.
 */
export function chunkDocTree(tree: DocTree, options: ChunkDocTreeOptions = {}): DocTreeChunks {
  const o = resolveOptions(options);
  const settings: PackSpansSettings = o;
  const view = new DocView(tree);
  const docId = tree.doc.doc_id;
  const text = tree.text;
  const parents: RagParent[] = [];
  const chunks: RagChunk[] = [];
  for (const [pageIdx, units] of pageUnits(tree)) {
    const parentId = ragParentId(docId, pageIdx);
    const pieces: Array<{ span: TextSpan; context?: string }> = [];
    let run: PageUnit[] = [];
    const flushRun = (): void => {
      if (run.length === 0) return;
      const sentences = run.flatMap((u) => sentenceSpans(text, u.start, u.end)).flatMap((s) => splitLongSpan(text, s, o.targetTokens * 4));
      for (const span of packSpans(text, sentences, settings)) pieces.push({ span });
      run = [];
    };
    for (const unit of units) {
      if (unit.node.role === 'table') {
        flushRun();
        pieces.push(...tablePieces(text, unit, o));
        continue;
      }
      const previous = run[run.length - 1];
      if (previous && text.slice(previous.end, unit.start).trim().length > 0) flushRun();
      run.push(unit);
    }
    flushRun();

    const chunkIds: string[] = [];
    pieces.forEach(({ span, context }, index) => {
      const chunkId = ragChunkId(parentId, index);
      chunkIds.push(chunkId);
      const overlapped = units.filter((u) => u.start < span.end && u.end > span.start);
      let anchor = overlapped[0]!;
      let best = -1;
      for (const u of overlapped) {
        const shared = Math.min(u.end, span.end) - Math.max(u.start, span.start);
        if (shared > best) {
          best = shared;
          anchor = u;
        }
      }
      const chunkText = text.slice(span.start, span.end);
      chunks.push({
        chunk_id: chunkId,
        parent_id: parentId,
        doc_id: docId,
        page_idx: pageIdx,
        char_start: span.start,
        char_end: span.end,
        text: chunkText,
        tokens: estimateTokens(chunkText),
        kind: anchor.node.role === 'table' ? 'table' : 'text',
        anchor_node_id: anchor.node.node_id,
        role: anchor.node.role,
        node_ids: overlapped.map((u) => u.node.node_id),
        bbox: unionBox(overlapped.flatMap((u) => u.node.bboxes.filter((b) => b.page_idx === pageIdx).map((b) => b.bbox))),
        heading_path: headingPath(view, anchor.node),
        ...(context !== undefined ? { context } : {}),
        hash: sha256(embeddingText({ text: chunkText, ...(context !== undefined ? { context } : {}) })),
      });
    });
    const parentText = units.map((u) => text.slice(u.start, u.end)).join('\n\n');
    parents.push({
      parent_id: parentId,
      doc_id: docId,
      page_idx: pageIdx,
      heading_path: headingPath(view, units[0]!.node),
      text: parentText,
      units: units.map((u) => ({ node_id: u.node.node_id, char_start: u.start, char_end: u.end })),
      tokens: estimateTokens(parentText),
      chunk_ids: chunkIds,
      hash: sha256(parentText),
    });
  }
  return { parents, chunks };
}

/** The text a chunk is embedded (and BM25-indexed) as: its `context` line(s), then its text. */
export function embeddingText(chunk: Pick<RagChunk, 'text' | 'context'>): string {
  return chunk.context ? `${chunk.context}\n${chunk.text}` : chunk.text;
}

/** A table unit: one piece when it fits `maxTokens`, else row ranges with the header rows as context. */
function tablePieces(text: string, unit: PageUnit, o: Required<ChunkDocTreeOptions>): Array<{ span: TextSpan; context?: string }> {
  const whole = { start: unit.start, end: unit.end };
  if (estimateTokens(text.slice(whole.start, whole.end)) <= o.maxTokens) return [{ span: whole }];
  const rows = lineSpans(text, unit.start, unit.end);
  const headerRows = Math.max(1, unit.node.table?.header_rows ?? 1);
  const header = rows
    .slice(0, headerRows)
    .map((r) => text.slice(r.start, r.end))
    .join('\n');
  const pieces = rows.flatMap((r) => splitLongSpan(text, r, o.targetTokens * 4));
  const spans = packSpans(text, pieces, { ...o, overlapTokens: 0 });
  const headerEnd = rows[Math.min(headerRows, rows.length) - 1]?.end ?? unit.start;
  const withContext = estimateTokens(header) <= o.tableHeaderTokens;
  return spans.map((span) => (withContext && span.start >= headerEnd ? { span, context: header } : { span }));
}

/** Section titles leading to a node; a section's own title comes last. */
function headingPath(view: DocView, node: DocTreeNode): string[] {
  const titles = view.ancestors(node).map((a) => (a.title ?? a.text).trim());
  if (node.role === 'section') titles.push((node.title ?? node.text).trim());
  return titles.filter((t) => t.length > 0);
}

function unionBox(boxes: readonly BBox[]): BBox | null {
  if (boxes.length === 0) return null;
  let [x0, y0, x1, y1] = boxes[0]!;
  for (const [a, b, c, d] of boxes) {
    x0 = Math.min(x0, a);
    y0 = Math.min(y0, b);
    x1 = Math.max(x1, c);
    y1 = Math.max(y1, d);
  }
  return [x0, y0, x1, y1];
}
