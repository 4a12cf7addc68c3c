import type { DocIndex } from '@doctree/index';
import type { DocTreeNode, Observation } from '@doctree/schema';

/**
 * What observers read from a loaded index: the tree, its navigation view and the document folder; leaf chunk
 * records (`t_12#c0`) and chart filters when available. A full `DocIndex` satisfies it.
 */
export type ObservableIndex = Pick<DocIndex, 'tree' | 'view' | 'docDir'> & Partial<Pick<DocIndex, 'denseLeaf' | 'denseCoarse'>>;

/** Something an observer wants the caller to know (a fallback taken, a node skipped). Never fatal. */
export interface ObserveWarning {
  /** Stable short code, e.g. `node_unknown`, `vlm_unavailable`, `vlm_failed`. */
  code: string;
  message: string;
  nodeId?: string;
}

/** Per-call context of an observation. */
export interface ObserveContext {
  /** The question being answered (lets a VLM focus on what matters). */
  question?: string;
  /** Cancels model calls and rendering. */
  signal?: AbortSignal;
  /** Receives warnings (fallbacks, skipped nodes). */
  onWarning?: (warning: ObserveWarning) => void;
}

/** One observer: turns a DocTree node of its modality into an {@link Observation}. */
export interface NodeObserver {
  /** True when this observer handles the node. */
  accepts(node: DocTreeNode): boolean;
  /** Observes the node; `requestedId` is the id asked for (a `#cN` chunk id keeps its own span). */
  observe(node: DocTreeNode, index: ObservableIndex, context?: ObserveContext, requestedId?: string): Promise<Observation>;
}
