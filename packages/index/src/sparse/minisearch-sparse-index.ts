import { DocTreeError, SPARSE_FIELDS } from '@doctree/schema';
import type { SparseDoc, SparseField, SparseHit, SparseIndex, SparseSearchOptions } from '@doctree/schema';
import MiniSearch from 'minisearch';
import type { AsPlainObject, Options as MiniSearchOptions, SearchResult } from 'minisearch';

import { definedOnly } from '../vector/vector-options.js';
import { LazyTermIndex } from './lazy-term-index.js';
import { analyzeQuery, analyzeText, SPARSE_ANALYZER_VERSION } from './sparse-analyzer.js';
import { SPARSE_INDEX_FORMAT, SPARSE_INDEX_FORMAT_VERSION } from './sparse-index-format.js';
import type { SparseIndexFile, SparseStoredDoc } from './sparse-index-format.js';

/**
 * Default BM25F field weights (docs/design/index-features.md §3.4: "per-field weights enable precise matches on labels/schema/aliases").
 * A term matched in a field scores `boost × BM25+(term, field)`; the sums over fields and terms rank the docs.
 */
export const DEFAULT_SPARSE_BOOSTS = {
  /** A section's own heading names its topic exactly and is short: the strongest signal for concept questions. */
  heading: 3,
  /** The ancestor path (`2 Method > 2.3 Training`) places a section, but is shared by all its siblings: weaker. */
  headings_path: 1.5,
  /** Title of a figure / table (`Table 2: Hyper-parameters`): what the object is, as its author named it. */
  title: 3,
  /** A figure / table caption describes its content in a sentence or two: strong, but wordier than a title. */
  caption: 2.5,
  /** Column and row headers of a table (`Accuracy (%); Latency (ms)`, `2018; 2017`): the key to lookup questions. */
  table_schema: 2,
  /** Labels of a section's children (`Figure 3; Table 2`): routes a label query to the enclosing section, after the object itself. */
  child_labels: 2,
  /** Table schemas of a section's children: routes column / unit queries to the section holding the table. */
  child_table_schema: 1.5,
  /** Captions of a section's children, bagged: broad and noisy. */
  caption_bag: 1.5,
  /** Unit and abbreviation aliases (`pct percent ms millisecond`): synonyms, only slightly above body. */
  aliases: 1.2,
  /** The node's own labels (`Table 2`, `Figure 3`): a label query must land on the labelled object first. */
  labels: 3,
  /** Running text: the baseline weight. */
  body: 1,
} as const satisfies Record<SparseField, number>;

/** MiniSearch's BM25+ parameters: `k` term-frequency saturation, `b` length normalisation, `d` lower bound (δ). */
export interface SparseBm25Params {
  /** Term frequency saturation; default 1.2. */
  k: number;
  /** Field-length normalisation in 0..1; default 0.7. */
  b: number;
  /** BM25+ lower bound δ of one occurrence; default 0.5. */
  d: number;
}

/** MiniSearch's own BM25+ defaults. */
export const DEFAULT_SPARSE_BM25 = { k: 1.2, b: 0.7, d: 0.5 } as const satisfies SparseBm25Params;

/** How the terms of a query combine: `or` ranks partial matches too (default), `and` keeps docs matching every term. */
export type SparseCombineWith = 'or' | 'and';

/** Options of the {@link MiniSearchSparseIndex} constructor. */
export interface MiniSearchSparseIndexOptions {
  /** Per-field boosts merged over {@link DEFAULT_SPARSE_BOOSTS}; 0 turns a field off. */
  boosts?: Partial<Record<SparseField, number>>;
  /** BM25+ parameters merged over {@link DEFAULT_SPARSE_BM25}. */
  bm25?: Partial<SparseBm25Params>;
  /** Default combination of query terms; default `or`. */
  combineWith?: SparseCombineWith;
  /**
   * Coordination factor (as in Lucene's classic similarity): multiplies each score by the fraction of the query's
   * terms the doc matched, on top of MiniSearch's own factor (the number of terms matched). It makes docs matching
   * the whole query (`capital expenditures 2018` in a cash-flow table) beat docs matching part of it in a heavier
   * field (`Capital` in a `Liquidity and Capital Resources` heading). Default true.
   */
  coordination?: boolean;
  /**
   * Keep the text fields of every doc in the index, so that `filter` predicates see them. Default false: a filter
   * sees `{ id, role, filters }` only, which keeps the persisted index about half the size.
   */
  storeText?: boolean;
}

/** Defaults of {@link MiniSearchSparseIndexOptions}. */
export const MINISEARCH_SPARSE_INDEX_DEFAULTS = {
  boosts: DEFAULT_SPARSE_BOOSTS,
  bm25: DEFAULT_SPARSE_BM25,
  combineWith: 'or',
  coordination: true,
  storeText: false,
} as const satisfies MiniSearchSparseIndexOptions;

/** Search options of {@link MiniSearchSparseIndex}: the {@link SparseSearchOptions} plus the term combination. */
export interface MiniSearchSparseSearchOptions extends SparseSearchOptions {
  /** Overrides the index's `combineWith` for this search. */
  combineWith?: SparseCombineWith;
}

/** Checks boosts coming from options or a caller: known fields, finite, >= 0. */
function checkedBoosts(boosts: Record<string, unknown>, where: string): Record<SparseField, number> {
  const out = { ...DEFAULT_SPARSE_BOOSTS } as Record<SparseField, number>;
  for (const [field, value] of Object.entries(boosts)) {
    if (value === undefined) continue;
    if (!(SPARSE_FIELDS as readonly string[]).includes(field)) {
      throw new DocTreeError('CONFIG_INVALID', `${where}: unknown sparse field ${JSON.stringify(field)} (expected one of ${SPARSE_FIELDS.join(', ')})`);
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new DocTreeError('CONFIG_INVALID', `${where}: the boost of ${field} must be a finite number >= 0, got ${String(value)}`);
    }
    out[field as SparseField] = value;
  }
  return out;
}

function checkedBm25(bm25: SparseBm25Params): SparseBm25Params {
  const { k, b, d } = bm25;
  if (!(Number.isFinite(k) && k > 0) || !(Number.isFinite(b) && b >= 0 && b <= 1) || !(Number.isFinite(d) && d >= 0)) {
    throw new DocTreeError('CONFIG_INVALID', `Invalid BM25 parameters ${JSON.stringify(bm25)}: expected k > 0, 0 <= b <= 1, d >= 0`);
  }
  return { k, b, d };
}

function checkedCombineWith(value: unknown): SparseCombineWith {
  if (value !== 'or' && value !== 'and') {
    throw new DocTreeError('CONFIG_INVALID', `Unknown term combination ${JSON.stringify(value)} (expected or, and)`);
  }
  return value;
}

/**
 * Terms of short field values already analysed. A document's records repeat the same headings paths, titles and
 * captions many times (every leaf of a section carries its path), so they are analysed once. MiniSearch only reads the
 * returned terms (indexing and discarding), so one array serves every repeat. Bounded: cleared when full.
 */
const fieldTerms = new Map<string, string[]>();
/** Most values kept in {@link fieldTerms}. */
const FIELD_MEMO_LIMIT = 20_000;
/** Longer values (paragraphs, whole pages) are analysed every time: they rarely repeat. */
const FIELD_MEMO_MAX_LENGTH = 512;

/** {@link analyzeText} of a field value, short values from {@link fieldTerms}. */
function analyzeField(text: string): string[] {
  if (text.length > FIELD_MEMO_MAX_LENGTH) return analyzeText(text);
  let terms = fieldTerms.get(text);
  if (terms === undefined) {
    terms = analyzeText(text);
    if (fieldTerms.size >= FIELD_MEMO_LIMIT) fieldTerms.clear();
    fieldTerms.set(text, terms);
  }
  return terms;
}

/** The analyser is the whole pipeline: MiniSearch's term processor only passes terms through. */
function miniSearchOptions(storeText: boolean): MiniSearchOptions<SparseDoc> {
  return {
    idField: 'id',
    fields: [...SPARSE_FIELDS],
    storeFields: storeText ? ['role', 'filters', ...SPARSE_FIELDS] : ['role', 'filters'],
    extractField: (doc, field) => {
      const value = (doc as unknown as Record<string, unknown>)[field];
      // Stored filters are copied so that later changes by the caller do not leak into the index.
      return field === 'filters' && value !== undefined ? structuredClone(value) : value;
    },
    tokenize: (text) => analyzeField(text),
    processTerm: (term) => term,
    autoVacuum: false,
  };
}

/** Splits an already analysed query (terms never contain spaces). */
const splitTerms = (query: string): string[] => query.split(' ');
const keepTerm = (term: string): string => term;

/**
 * BM25F sparse index over {@link SparseDoc}s, backed by MiniSearch (BM25+ per field, summed with per-field boosts).
 * Every {@link SPARSE_FIELDS} field is indexed through {@link analyzeText}; queries go through the same analyser.
 * Terms combine with OR by default (docs matching some of the terms still rank, by BM25 and by how many distinct
 * query terms they match, see `coordination`), or with AND (`combineWith: 'and'`). No prefix or fuzzy matching:
 * terms match exactly after analysis. Scores are unbounded BM25 sums, comparable within one search only.
 *
 * Persist with `saveSparseIndex` / `toJSON()`, load with `readSparseIndex` / `loadSparseIndex`.
 *
 * @example
 * ```ts
 * const index = new MiniSearchSparseIndex();
 * index.add([{ id: 'tab_21', role: 'table', title: 'Table 2: Hyper-parameters', labels: 'Table 2', filters: { page_idx: 6 } }]);
 * index.search('Tab. 2', { k: 5 }); // [{ id: 'tab_21', score: …, matched: { title: ['table_2', '2'], labels: ['table_2', '2'] } }]
 * ```
 */
export class MiniSearchSparseIndex implements SparseIndex {
  private mini: MiniSearch<SparseDoc>;
  private readonly boosts: Record<SparseField, number>;
  private readonly bm25: SparseBm25Params;
  private readonly combineWith: SparseCombineWith;
  private readonly coordination: boolean;
  private readonly storeText: boolean;
  /** Insertion position of every id: breaks score ties, the same way before and after a round trip. */
  private readonly ordinal = new Map<string, number>();

  /** Creates an empty index. */
  constructor(options: MiniSearchSparseIndexOptions = {}) {
    const resolved = { ...MINISEARCH_SPARSE_INDEX_DEFAULTS, ...definedOnly(options) };
    this.boosts = checkedBoosts(resolved.boosts, 'Sparse index boosts');
    this.bm25 = checkedBm25({ ...DEFAULT_SPARSE_BM25, ...definedOnly(resolved.bm25) });
    this.combineWith = checkedCombineWith(resolved.combineWith);
    this.coordination = resolved.coordination === true;
    this.storeText = resolved.storeText;
    this.mini = new MiniSearch<SparseDoc>(miniSearchOptions(this.storeText));
  }

  /** File the index was loaded from, named in `INDEX_CORRUPT` errors found at search time. */
  private sourceFile: string | undefined;

  /**
   * Rebuilds an index from a validated persisted file. Prefer `loadSparseIndex`, which validates it first.
   *
   * @param file - The persisted index, as validated by `sparseIndexFileSchema`.
   * @param source - File it was read from, named in errors.
   * @throws Error when MiniSearch cannot read the index (`loadSparseIndex` turns it into `INDEX_CORRUPT`).
   */
  static fromFile(file: SparseIndexFile, source?: string): MiniSearchSparseIndex {
    const index = new MiniSearchSparseIndex({
      boosts: file.boosts,
      bm25: file.params.bm25,
      combineWith: file.params.combine_with,
      coordination: file.params.coordination,
      storeText: file.params.store_text,
    });
    // Documents, field lengths and stored fields are restored by MiniSearch; the term index lazily (see LazyTermIndex):
    // a search converts only the postings of its own terms, so loading does not rebuild the whole radix tree.
    const { index: terms, ...rest } = file.index;
    const mini = MiniSearch.loadJS<SparseDoc>({ ...rest, index: [] } as unknown as AsPlainObject, miniSearchOptions(index.storeText));
    const internals = mini as unknown as { _index?: { get?: unknown } };
    if (typeof internals._index?.get === 'function') {
      internals._index = new LazyTermIndex(terms);
      index.mini = mini;
    } else {
      // A MiniSearch without the private `_index` this relies on: restore everything the documented way.
      index.mini = MiniSearch.loadJS<SparseDoc>(file.index as AsPlainObject, miniSearchOptions(index.storeText));
    }
    // Short ids are enumerated in ascending order: the order documents were added in.
    for (const id of Object.values(file.index.documentIds)) index.ordinal.set(id, index.ordinal.size);
    index.sourceFile = source;
    return index;
  }

  /** Number of indexed docs. */
  get size(): number {
    return this.mini.documentCount;
  }

  /** True when a doc with this id is indexed. */
  has(id: string): boolean {
    return this.ordinal.has(id);
  }

  /**
   * Indexes docs. Ids must be unique (among the docs and against the index); on a duplicate nothing is added.
   *
   * @throws DocTreeError `INTERNAL` for a missing or duplicate id (the record builder guarantees unique ids).
   */
  add(docs: readonly SparseDoc[]): void {
    const batch = new Set<string>();
    for (const doc of docs) {
      const id: unknown = (doc as { id?: unknown } | null | undefined)?.id;
      if (typeof id !== 'string' || id.length === 0) {
        throw new DocTreeError('INTERNAL', `SparseIndex.add: doc without a string id (${JSON.stringify(id)})`);
      }
      if (this.ordinal.has(id) || batch.has(id)) {
        throw new DocTreeError('INTERNAL', `SparseIndex.add: duplicate id ${JSON.stringify(id)}`, { nodeId: id, details: { id } });
      }
      batch.add(id);
    }
    for (const doc of docs) {
      this.mini.add(doc);
      this.ordinal.set(doc.id, this.ordinal.size);
    }
  }

  /**
   * Searches with BM25F: best first, at most `k` hits, each with the analysed query terms it matched per field
   * (terms as indexed: `revenu`, `table_2`). `filter` is applied before the cut to `k`; it sees the stored doc
   * (`id`, `role`, `filters`, and the text fields when the index was built with `storeText`). An empty query, a query
   * of stopwords only, or `k < 1` gives `[]`. Ties keep the order docs were added in.
   *
   * @throws DocTreeError `CONFIG_INVALID` for unknown fields or negative boosts in `options.boosts`.
   */
  search(query: string, options: MiniSearchSparseSearchOptions): SparseHit[] {
    const limit = Math.floor(options.k);
    if (!(limit > 0) || this.mini.documentCount === 0) return [];
    const terms = analyzeQuery(typeof query === 'string' ? query : '');
    if (terms.length === 0) return [];
    const boosts = options.boosts === undefined ? this.boosts : checkedBoosts({ ...this.boosts, ...options.boosts }, 'Sparse search boosts');
    // MiniSearch reads a boost of 0 as "default 1": fields turned off are left out of the search instead.
    const fields = SPARSE_FIELDS.filter((field) => boosts[field] > 0);
    if (fields.length === 0) return [];
    const combineWith = checkedCombineWith(options.combineWith ?? this.combineWith);
    const filter = options.filter;
    let results: SearchResult[];
    try {
      results = this.mini.search(terms.join(' '), {
        fields,
        boost: boosts,
        bm25: this.bm25,
        combineWith: combineWith === 'and' ? 'AND' : 'OR',
        prefix: false,
        fuzzy: false,
        tokenize: splitTerms,
        processTerm: keepTerm,
        ...(filter === undefined ? {} : { filter: (result: SearchResult) => filter(this.storedDoc(result)) }),
      });
    } catch (error) {
      if (DocTreeError.isInstance(error) || this.sourceFile === undefined) throw error;
      // Only a loaded index can hold malformed postings (a file trusted without full validation).
      throw new DocTreeError('INDEX_CORRUPT', `Sparse index cannot be searched: ${(error as Error).message}`, { file: this.sourceFile, cause: error });
    }
    if (this.coordination && terms.length > 1) {
      for (const result of results) result.score *= result.queryTerms.length / terms.length;
    }
    const corrupt = results.find((result) => !Number.isFinite(result.score));
    if (corrupt !== undefined) {
      throw new DocTreeError('INDEX_CORRUPT', `Sparse index scores doc ${JSON.stringify(corrupt.id)} as ${String(corrupt.score)}: bad term frequencies`, {
        ...(this.sourceFile === undefined ? {} : { file: this.sourceFile }),
        nodeId: String(corrupt.id),
      });
    }
    const position = (id: string): number => this.ordinal.get(id) ?? Number.MAX_SAFE_INTEGER;
    results.sort((a, b) => b.score - a.score || position(a.id as string) - position(b.id as string));
    return results.slice(0, limit).map((result) => ({ id: result.id as string, score: result.score, matched: matchedByField(result, terms) }));
  }

  /**
   * Serialises the index: `{ format: 'doctree.sparse', version: 1, analyzer_version, boosts, params, index }`, where
   * `index` is MiniSearch's own JSON form. `JSON.stringify` it, or write it with `saveSparseIndex`; do not mutate it
   * (it shares arrays with the live index).
   */
  toJSON(): SparseIndexFile {
    return {
      format: SPARSE_INDEX_FORMAT,
      version: SPARSE_INDEX_FORMAT_VERSION,
      analyzer_version: SPARSE_ANALYZER_VERSION,
      boosts: { ...this.boosts },
      params: { bm25: { ...this.bm25 }, combine_with: this.combineWith, coordination: this.coordination, store_text: this.storeText },
      index: this.mini.toJSON() as unknown as SparseIndexFile['index'],
    };
  }

  private storedDoc(result: SearchResult): SparseDoc {
    const stored = result as unknown as SparseStoredDoc & { id: string };
    const doc: SparseDoc = { id: stored.id, role: stored.role, filters: stored.filters ?? {} };
    if (this.storeText) {
      for (const field of SPARSE_FIELDS) {
        const value = stored[field];
        if (value !== undefined) doc[field] = value;
      }
    }
    return doc;
  }
}

/**
 * Inverts MiniSearch's `match` (term → fields) into field → terms, fields in {@link SPARSE_FIELDS} order, terms in query
 * order. `match` is a plain object keyed by terms: only its own properties count (a query term `constructor` that this
 * doc did not match must not find `Object.prototype.constructor`).
 */
function matchedByField(result: SearchResult, terms: readonly string[]): Partial<Record<SparseField, string[]>> {
  const byField = new Map<SparseField, string[]>();
  for (const term of terms) {
    const fields: unknown = Object.hasOwn(result.match, term) ? result.match[term] : undefined;
    if (!Array.isArray(fields)) continue;
    for (const field of fields as string[]) {
      const list = byField.get(field as SparseField);
      if (list === undefined) byField.set(field as SparseField, [term]);
      else if (!list.includes(term)) list.push(term);
    }
  }
  const matched: Partial<Record<SparseField, string[]>> = {};
  for (const field of SPARSE_FIELDS) {
    const list = byField.get(field);
    if (list !== undefined) matched[field] = list;
  }
  return matched;
}
