import { DocSummarySchema, DocTreeError } from '@doctree/schema';
import type { DocSummary, DocTree } from '@doctree/schema';

/** Progress of one {@link DocSummarizer.summarize} call: `done` of `total` sections have a gist. */
export interface SummarizeProgress {
  done: number;
  total: number;
}

/** Per-call options of {@link DocSummarizer.summarize}. */
export interface SummarizeOptions {
  /** Cancels a long run (checked between sections). */
  signal?: AbortSignal;
  /** Called as section gists are finished. */
  onProgress?: (progress: SummarizeProgress) => void;
}

/**
 * Writes `summary.json` of a document: one gist per section and a document description. Swappable: the
 * extractive summarizer is the offline default, the LLM one is used when an endpoint is configured.
 */
export interface DocSummarizer {
  /**
   * Stable identifier of the summaries this produces (method, model, prompt version, token bounds). It is part of the
   * index configuration hash: a different id rebuilds the index.
   */
  readonly id: string;
  /** Summarises every section of `tree` (in tree order) and the whole document. */
  summarize(tree: DocTree, options?: SummarizeOptions): Promise<DocSummary>;
}

/** One finished summarisation, as reported to {@link BaseSummarizerOptions.onSummarize}. */
export interface SummarizeRecord {
  summarizer: string;
  docId: string;
  sections: number;
  latencyMs: number;
}

/** Options shared by every {@link BaseSummarizer} subclass. */
export interface BaseSummarizerOptions {
  /** Called after each successful summarisation (tracing, metrics). Must not throw. */
  onSummarize?: (record: SummarizeRecord) => void;
}

/**
 * Abstract base of the summarizers, in the LangChain pattern: the public {@link summarize} checks the tree,
 * honours the abort signal, calls the protected hook {@link _summarize}, then enforces the contract the index
 * builder relies on — a valid `doctree.summary` for the same `doc_id`, with exactly one gist per section node, in
 * tree order — and reports the call to `onSummarize`.
 */
export abstract class BaseSummarizer implements DocSummarizer {
  abstract readonly id: string;
  readonly #options: BaseSummarizerOptions;

  constructor(options: BaseSummarizerOptions = {}) {
    this.#options = { ...options };
  }

  /** Summarises every section of `tree` and the document; see {@link DocSummarizer.summarize}. */
  async summarize(tree: DocTree, options: SummarizeOptions = {}): Promise<DocSummary> {
    if (typeof tree !== 'object' || tree === null || tree.format !== 'doctree.mm' || !Array.isArray(tree.nodes)) {
      throw new DocTreeError('USAGE', `${this.id}: summarize expects a DocTree (doctree.mm)`);
    }
    throwIfCancelled(this.id, options.signal);
    const started = performance.now();
    const raw = await this._summarize(tree, options);
    throwIfCancelled(this.id, options.signal);
    const parsed = DocSummarySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new DocTreeError('INTERNAL', `summarizer ${this.id} returned an invalid summary: ${issue?.path.join('.') || '(summary)'}: ${issue?.message ?? 'invalid'}`);
    }
    const summary = parsed.data;
    if (summary.doc_id !== tree.doc.doc_id) {
      throw new DocTreeError('INTERNAL', `summarizer ${this.id} returned the summary of ${summary.doc_id}, not ${tree.doc.doc_id}`);
    }
    const expected = tree.nodes.filter((n) => n.role === 'section').map((n) => n.node_id);
    const got = summary.sections.map((s) => s.node_id);
    if (expected.length !== got.length || expected.some((id, i) => got[i] !== id)) {
      const missing = expected.find((id) => !got.includes(id));
      throw new DocTreeError('INTERNAL', `summarizer ${this.id} must return one gist per section in tree order${missing ? ` (missing ${missing})` : ''}`, {
        ...(missing ? { nodeId: missing } : {}),
      });
    }
    this.#options.onSummarize?.({ summarizer: this.id, docId: summary.doc_id, sections: summary.sections.length, latencyMs: performance.now() - started });
    return summary;
  }

  /** The summarisation itself; the public method validates what it returns. Should honour `options.signal`. */
  protected abstract _summarize(tree: DocTree, options: SummarizeOptions): Promise<DocSummary>;
}

/** Throws `CANCELLED` when the signal has fired. */
export function throwIfCancelled(name: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DocTreeError('CANCELLED', `summarisation by ${name} was cancelled`, { cause: signal.reason });
}
