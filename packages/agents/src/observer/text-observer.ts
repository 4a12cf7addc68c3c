import type { DocTreeNode, Modality, Observation } from '@doctree/schema';
import { anchorSpan, cutAtWord, headingPath, nodeBBox, nodePage } from './node-anchors.js';
import type { NodeObserver, ObservableIndex, ObserveContext } from './observer-types.js';

/** Options of {@link TextObserver}. */
export interface TextObserverOptions {
  /** Most characters of a section's text kept (its heading and the start of its body, cut at a word). Default 1200. */
  maxSectionChars?: number;
  /** Most characters of a leaf's text kept (paragraphs, lists, equations…). Default 4000. */
  maxLeafChars?: number;
}

/** Defaults of {@link TextObserverOptions}. */
export const TEXT_OBSERVER_DEFAULTS = { maxSectionChars: 1200, maxLeafChars: 4000 } as const satisfies Required<TextObserverOptions>;

const MODALITY: Partial<Record<DocTreeNode['role'], Modality>> = {
  document: 'section',
  section: 'section',
  list: 'list',
  equation: 'equation',
};

/**
 * Raw text with anchors: the node's text, its heading path, its 1-based page and box, and its exact span in the
 * document's canonical text (`payload.char_span`, so supports can point into the document). Sections give their
 * heading and the start of their body (a canonical slice); leaf chunks (`t_12#c0`) give the chunk's own span.
 */
export class TextObserver implements NodeObserver {
  private readonly options: Required<TextObserverOptions>;

  /** @param options limits on the text kept per node. */
  constructor(options: TextObserverOptions = {}) {
    this.options = { ...TEXT_OBSERVER_DEFAULTS, ...options };
  }

  /** Every node that is not a table or a figure. */
  accepts(node: DocTreeNode): boolean {
    return node.role !== 'table' && node.role !== 'image' && node.role !== 'chart';
  }

  /** Observes one node (or one `#cN` chunk of it when `requestedId` names a chunk record). */
  async observe(node: DocTreeNode, index: ObservableIndex, _context?: ObserveContext, requestedId?: string): Promise<Observation> {
    const { tree, view } = index;
    const path = headingPath(node, view.ancestors(node));
    const base = { node_id: node.node_id, modality: MODALITY[node.role] ?? 'text', page: nodePage(node), bbox: nodeBBox(node) } satisfies Partial<Observation>;
    const chunk = requestedId && requestedId !== node.node_id ? index.denseLeaf?.get(requestedId) : undefined;
    if (chunk) {
      const span = anchorSpan(tree, chunk.raw_text, chunk.char_span);
      const text = cutAtWord(chunk.raw_text, this.options.maxLeafChars);
      const page = chunk.filters.page_idx !== undefined ? chunk.filters.page_idx + 1 : base.page;
      const box = node.bboxes.find((b) => b.page_idx + 1 === page)?.bbox ?? base.bbox;
      return {
        ...base,
        page,
        bbox: box,
        payload: { kind: 'text', text, heading_path: path, ...(span ? { char_span: [span[0], span[0] + text.length] as [number, number] } : {}) },
      };
    }
    if (node.role === 'section' || node.role === 'document') {
      const [start, end] = node.char_span;
      const full = tree.text.slice(start, end);
      const body = full.trim() ? full : (node.title ?? '');
      const text = cutAtWord(body, this.options.maxSectionChars);
      const anchored = full.trim() ? ([start, start + text.length] as [number, number]) : anchorSpan(tree, text, undefined);
      return { ...base, payload: { kind: 'text', text, heading_path: path, ...(anchored ? { char_span: anchored } : {}) } };
    }
    const span = anchorSpan(tree, node.text, node.char_span);
    const text = cutAtWord(node.text, this.options.maxLeafChars);
    return {
      ...base,
      payload: { kind: 'text', text, heading_path: path, ...(span ? { char_span: [span[0], span[0] + text.length] as [number, number] } : {}) },
    };
  }
}
