import { DocTreeError, HitSchema } from '@doctree/schema';
import type { Hit, RetrieveRequest, Retriever } from '@doctree/schema';


/** One finished retrieval, as reported to {@link BaseRetrieverOptions.onRetrieve}. */
export interface RetrievalRecord {
  /** The retriever's name (`Hit.method`). */
  retriever: string;
  request: Omit<RetrieveRequest, 'signal'>;
  hits: readonly Hit[];
  latencyMs: number;
}

/** Options shared by every {@link BaseRetriever} subclass. */
export interface BaseRetrieverOptions {
  /**
   * Validate every hit the hook returns against `HitSchema` (names the first bad field). Costs a little per hit;
   * on by default because a malformed hit corrupts fusion and citations far from its cause.
   */
  validateHits?: boolean;
  /** Called after each successful retrieval (tracing, metrics). Must not throw. */
  onRetrieve?: (record: RetrievalRecord) => void;
}

/** Defaults of {@link BaseRetrieverOptions}. */
export const BASE_RETRIEVER_DEFAULTS = {
  validateHits: true,
} as const satisfies BaseRetrieverOptions;

/** Largest `k` accepted (guards against a swapped argument). */
const MAX_K = 100_000;

/**
 * Abstract base of every retriever (a ToolHub lane, the RAG baseline, a fake), in the LangChain pattern: the public
 * {@link retrieve} validates the request, honours the abort signal, calls the protected hook {@link _retrieve},
 * then enforces the contract every caller relies on — at most `k` hits, best first (scores non-increasing), unique
 * node ids, `method` set to {@link name}, the role / page filters respected — and reports the call to `onRetrieve`.
 *
 * @example
 * ```ts
 * class PageRetriever extends BaseRetriever {
 *   readonly name = 'page.search';
 *   protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
 *     return myPages.search(request.query, request.k).map(toHit);
 *   }
 * }
 * ```
 */
export abstract class BaseRetriever implements Retriever {
  /** Stable name used as `Hit.method`. */
  abstract readonly name: string;
  readonly #options: Required<Pick<BaseRetrieverOptions, 'validateHits'>> & Pick<BaseRetrieverOptions, 'onRetrieve'>;

  constructor(options: BaseRetrieverOptions = {}) {
    this.#options = { ...BASE_RETRIEVER_DEFAULTS, ...options };
  }

  /** Returns up to `request.k` hits for the query, best first. */
  async retrieve(request: RetrieveRequest): Promise<Hit[]> {
    validateRequest(this.name, request);
    throwIfCancelled(this.name, request.signal);
    const started = performance.now();
    const raw = await this._retrieve(request);
    throwIfCancelled(this.name, request.signal);
    if (!Array.isArray(raw)) {
      throw new DocTreeError('INTERNAL', `retriever ${this.name} returned ${typeof raw} instead of an array of hits`);
    }
    const roles = request.roles && request.roles.length > 0 ? new Set(request.roles) : undefined;
    const pages = request.pageIdx && request.pageIdx.length > 0 ? new Set(request.pageIdx) : undefined;
    const seen = new Set<string>();
    const hits: Hit[] = [];
    for (const candidate of raw) {
      const hit = this.#options.validateHits ? checkHit(this.name, candidate) : candidate;
      if (seen.has(hit.node_id)) continue;
      if (roles && !roles.has(hitRole(hit))) continue;
      if (pages && !pages.has(hit.page_idx)) continue;
      seen.add(hit.node_id);
      hits.push(hit.method === this.name ? hit : { ...hit, method: this.name });
    }
    hits.sort((a, b) => b.score_raw - a.score_raw);
    const out = hits.slice(0, request.k);
    const { signal: _signal, ...logged } = request;
    this.#options.onRetrieve?.({ retriever: this.name, request: logged, hits: out, latencyMs: performance.now() - started });
    return out;
  }

  /**
   * The retrieval itself. May return more than `k` hits, unsorted, or hits outside the role / page filters: the
   * public method sorts, de-duplicates by node id, filters and cuts. Should honour `request.signal` in long work.
   */
  protected abstract _retrieve(request: RetrieveRequest): Promise<Hit[]>;
}

/** The role a hit stands for: `extra.role` when the retriever set it, else its modality. */
export function hitRole(hit: Hit): string {
  const role = hit.extra['role'];
  return typeof role === 'string' ? role : hit.modality;
}

function throwIfCancelled(name: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DocTreeError('CANCELLED', `Retrieval by ${name} was cancelled`, { cause: signal.reason });
}

function validateRequest(name: string, request: RetrieveRequest): void {
  if (typeof request !== 'object' || request === null) {
    throw new DocTreeError('USAGE', `${name}: retrieve expects a request object`, { hint: 'Call retrieve({ query, k }).' });
  }
  if (typeof request.query !== 'string') {
    throw new DocTreeError('USAGE', `${name}: query must be a string, got ${typeof request.query}`);
  }
  if (!Number.isInteger(request.k) || request.k < 1 || request.k > MAX_K) {
    throw new DocTreeError('USAGE', `${name}: k must be an integer in 1..${MAX_K}, got ${String(request.k)}`);
  }
  if (request.pageIdx?.some((p) => !Number.isInteger(p) || p < 0)) {
    throw new DocTreeError('USAGE', `${name}: pageIdx holds 0-based page indexes (non-negative integers)`, { hint: 'Convert 1-based pages with indexFromPage.' });
  }
}

function checkHit(name: string, candidate: unknown): Hit {
  const parsed = HitSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') || '(hit)';
    throw new DocTreeError('INTERNAL', `retriever ${name} returned an invalid hit: ${path}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
