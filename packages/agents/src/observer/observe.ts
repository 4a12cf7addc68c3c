import { DocTreeError, type Observation } from '@doctree/schema';
import { ImageObserver, type ImageObserverOptions } from './image-observer.js';
import type { NodeObserver, ObservableIndex, ObserveContext } from './observer-types.js';
import { TableObserver, type TableObserverOptions } from './table-observer.js';
import { TextObserver, type TextObserverOptions } from './text-observer.js';

/** Options of {@link Observer} (and of the {@link observe} shortcut). */
export interface ObserverOptions {
  /** Text observer limits. */
  text?: TextObserverOptions;
  /** Table observer limits. */
  table?: TableObserverOptions;
  /** Image observer: optional VLM, renderer and source PDF. */
  image?: ImageObserverOptions;
  /** Figures observed at once (VLM calls run concurrently up to this). Default 4. */
  concurrency?: number;
}

/** Defaults of {@link ObserverOptions}. */
export const OBSERVER_DEFAULTS = { concurrency: 4 } as const;

/**
 * Dispatches node ids to the Text, Table and Image observers and returns observations in the order asked,
 * de-duplicated: an id asked twice is observed once, a caption is dropped when its figure or table is observed too
 * (the caption is part of that observation), and a `#cN` chunk id is observed as its chunk. Unknown ids are skipped
 * with a `node_unknown` warning; the loop goes on.
 */
export class Observer {
  private readonly text: TextObserver;
  private readonly table: TableObserver;
  private readonly image: ImageObserver;
  private readonly concurrency: number;

  /** @param options per-modality options and concurrency. */
  constructor(options: ObserverOptions = {}) {
    this.text = new TextObserver(options.text);
    this.table = new TableObserver(options.table);
    this.image = new ImageObserver(options.image);
    this.concurrency = Math.max(1, options.concurrency ?? OBSERVER_DEFAULTS.concurrency);
  }

  /** Observes the given nodes of a loaded index. */
  async observe(nodeIds: readonly string[], index: ObservableIndex, context: ObserveContext = {}): Promise<Observation[]> {
    const { view } = index;
    const seen = new Set<string>();
    const jobs: Array<{ id: string; run: () => Promise<Observation> }> = [];
    const wanted = new Set(nodeIds.map((id) => id.split('#')[0]!));
    for (const requested of nodeIds) {
      if (seen.has(requested)) continue;
      seen.add(requested);
      const baseId = requested.split('#')[0]!;
      if (requested !== baseId && seen.has(baseId)) continue;
      const node = view.node(baseId);
      if (!node) {
        context.onWarning?.({ code: 'node_unknown', message: `no node ${requested} in ${index.tree.doc.doc_id}; skipped`, nodeId: requested });
        continue;
      }
      if (node.role === 'caption' && node.caption_of && wanted.has(node.caption_of)) continue;
      const observer: NodeObserver = this.image.accepts(node) ? this.image : this.table.accepts(node) ? this.table : this.text;
      jobs.push({ id: requested, run: () => observer.observe(node, index, context, requested) });
    }
    const results: Observation[] = new Array(jobs.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < jobs.length) {
        const at = next++;
        if (context.signal?.aborted) throw new DocTreeError('CANCELLED', 'observation was cancelled');
        results[at] = await jobs[at]!.run();
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, jobs.length) }, worker));
    // A whole node observed after one of its chunks keeps both; a chunk asked after its node was skipped above.
    return results;
  }
}

/**
 * Observes node ids of a loaded index with default observers (see {@link Observer}).
 *
 * @example
 * ```ts
 * const observations = await observe(['tab_1', 'img_2', 't_14'], index, { question: 'What were capital expenditures in 2023?' });
 * ```
 */
export function observe(nodeIds: readonly string[], index: ObservableIndex, options: ObserverOptions & ObserveContext = {}): Promise<Observation[]> {
  const { question, signal, onWarning, ...observerOptions } = options;
  return new Observer(observerOptions).observe(nodeIds, index, {
    ...(question !== undefined ? { question } : {}),
    ...(signal ? { signal } : {}),
    ...(onWarning ? { onWarning } : {}),
  });
}
