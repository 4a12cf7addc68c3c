import { findYears, type DocTreeNode, type Hit, type RetrieveRequest } from '@doctree/schema';
import { BaseRetriever, analyzeQuery, findUnits } from '@doctree/index';
import type { BaseRetrieverOptions, DocIndex } from '@doctree/index';
import { FIGURE_ROLES, navigatorFor, type DocNavigator, type NodeSurface } from '../navigation/doc-navigator.js';
import { nodeHit } from '../hits/node-hit.js';
import { findLabels } from './query-signals.js';
import { conceptQueryTerms, conceptVariants, DEFAULT_CONCEPTS, type Concept } from '../vocabulary/concept-vocabulary.js';

/** Weights of the table lane's score (each feature is in 0..1). */
export interface TableLaneWeights {
  /** BM25F score over table docs (title, caption, schema, labels, body), divided by the best one. */
  bm25: number;
  /** Cosine of the query with the table's dense record (caption + schema + row labels). */
  dense: number;
  /** Share of the query's terms found in the header and row labels. */
  schema: number;
  /** Share of the asked years found in the header. */
  year: number;
  /** Share of the asked units found in the table (`%`, `$`, `millions`). */
  unit: number;
  /** The query names this table's label (`Table 2`). */
  label: number;
}

/** Weights of the chart lane's score (each feature is in 0..1). */
export interface ChartLaneWeights {
  /** BM25F score over figure docs (title, caption, labels, nearby text), divided by the best one. */
  bm25: number;
  /** Cosine of the query with the figure's dense record (caption + nearby text). */
  dense: number;
  /** Share of the query's terms found in the caption. */
  caption: number;
  /** The query names this figure's label (`Figure 3`). */
  label: number;
  /** The wanted chart type matches (`statistical` charts for chart/trend words, or the `chartType` option). */
  chart_type: number;
}

/** Signals a caller already knows (from the router); merged with those read from the query. */
export interface ObjectSignals {
  /** Years asked for. */
  years?: readonly number[];
  /** Units asked for (`%`, `$`, `millions`…). */
  units?: readonly string[];
  /** Labels asked for (`Table 2`). */
  labels?: readonly string[];
}

/** Options of the {@link TableRetriever} constructor. */
export interface TableRetrieverOptions extends BaseRetrieverOptions {
  /** Feature weights, merged over {@link TABLE_LANE_WEIGHTS}. */
  weights?: Partial<TableLaneWeights>;
  /** Known signals merged with the query's. */
  signals?: ObjectSignals;
  /** Concepts line items may be named by in other words (the domain pack's). Default {@link DEFAULT_CONCEPTS}. */
  concepts?: readonly Concept[];
}

/** Options of the {@link ChartRetriever} constructor. */
export interface ChartRetrieverOptions extends BaseRetrieverOptions {
  /** Feature weights, merged over {@link CHART_LANE_WEIGHTS}. */
  weights?: Partial<ChartLaneWeights>;
  /** Known signals merged with the query's (labels only are used). */
  signals?: ObjectSignals;
  /** Prefer `statistical` charts or plain `image`s; default: charts when the query says chart / graph / plot / trend… */
  chartType?: 'statistical' | 'image';
}

/** Default table lane weights: lexical evidence first, the label overrides everything. */
export const TABLE_LANE_WEIGHTS: TableLaneWeights = { bm25: 0.35, dense: 0.2, schema: 0.25, year: 0.12, unit: 0.08, label: 1 };
/** Default chart lane weights. */
export const CHART_LANE_WEIGHTS: ChartLaneWeights = { bm25: 0.4, dense: 0.25, caption: 0.2, label: 1, chart_type: 0.15 };

const CHART_WORDS = /\b(chart|graph|plot|trend|bar|line|pie|histogram|axis|axes|curve|scatter)s?\b/i;

function splitBase(options: BaseRetrieverOptions): BaseRetrieverOptions {
  return { ...(options.validateHits !== undefined ? { validateHits: options.validateHits } : {}), ...(options.onRetrieve ? { onRetrieve: options.onRetrieve } : {}) };
}

/** Normalised BM25 scores (best = 1) of the sparse coarse docs with the given roles. */
function bm25Scores(index: DocIndex, query: string, roles: ReadonlySet<string>, pages: ReadonlySet<number> | undefined): Map<string, number> {
  const hits = index.sparseCoarse.search(query, { k: 500, filter: (doc) => roles.has(doc.role) && (!pages || pages.has(doc.filters.page_idx ?? -1)) });
  const top = hits[0]?.score ?? 0;
  return new Map(top > 0 ? hits.map((h) => [h.id, h.score / top]) : []);
}

/** Cosines (clamped to ≥ 0) of the query with the coarse records of the given nodes. */
async function denseScores(index: DocIndex, query: string, ids: ReadonlySet<string>, signal: AbortSignal | undefined): Promise<Map<string, number>> {
  if (!index.embedder || query.trim().length === 0 || ids.size === 0 || index.vectors.coarse.info.size === 0) return new Map();
  const vector = await index.embedder.embedQuery(query, signal ? { signal } : {});
  const hits = index.vectors.coarse.search(vector, { k: ids.size, filter: (id) => ids.has(id) });
  return new Map(hits.map((h) => [h.id, Math.max(0, h.score)]));
}

function share<T>(wanted: readonly T[], have: ReadonlySet<T>): number {
  if (wanted.length === 0) return 0;
  return wanted.filter((w) => have.has(w)).length / wanted.length;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/** The `k` best by score, ties in input order (the order the base retriever's stable sort keeps). */
function bestK<T extends { score: number }>(scored: readonly T[], k: number): T[] {
  return [...scored].sort((a, b) => b.score - a.score).slice(0, k);
}

function candidates(nav: DocNavigator, roles: readonly string[], request: RetrieveRequest): DocTreeNode[] {
  const pages = request.pageIdx && request.pageIdx.length > 0 ? new Set(request.pageIdx) : undefined;
  const allowed = request.roles && request.roles.length > 0 ? new Set(request.roles) : undefined;
  return roles
    .filter((r) => !allowed || allowed.has(r))
    .flatMap((r) => nav.nodesWithRole(r))
    .filter((n) => !pages || pages.has(nav.pageIdxOf(n)));
}

/**
 * The `table_index.search` lane: scores every table by BM25F, dense similarity, query terms in its header and row
 * labels, asked years in the header, asked units, and a named label (`Table 2` wins outright). `extra` carries the
 * table's `columns`, `scale`, `currency`, `n_rows`, its affordances and the `features` that scored it.
 */
export class TableRetriever extends BaseRetriever {
  readonly name = 'table_index.search';
  readonly #nav: DocNavigator;
  readonly #weights: TableLaneWeights;
  readonly #signals: ObjectSignals;
  readonly #concepts: readonly Concept[];

  constructor(
    readonly index: DocIndex,
    options: TableRetrieverOptions = {},
  ) {
    super(splitBase(options));
    this.#nav = navigatorFor(index);
    this.#weights = { ...TABLE_LANE_WEIGHTS, ...options.weights };
    this.#signals = options.signals ?? {};
    this.#concepts = options.concepts ?? DEFAULT_CONCEPTS;
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const nodes = candidates(this.#nav, ['table'], request);
    if (nodes.length === 0) return [];
    const pages = request.pageIdx && request.pageIdx.length > 0 ? new Set(request.pageIdx) : undefined;
    // Line items are matched in the document's words too: "capex" also searches "purchases of property, plant and equipment".
    const expansion = conceptQueryTerms(request.query, { concepts: this.#concepts });
    const bm25 = bm25Scores(this.index, expansion.length > 0 ? `${request.query} ${expansion.join(' ')}` : request.query, new Set(['table']), pages);
    const dense = await denseScores(this.index, request.query, new Set(nodes.map((n) => n.node_id)), request.signal);
    const variantTerms = conceptVariants(request.query, this.#concepts).map((v) => analyzeQuery(v));
    const years = [...new Set([...findYears(request.query), ...(this.#signals.years ?? [])])];
    const units = [...new Set([...findUnits(request.query), ...(this.#signals.units ?? [])])];
    const labelTargets = new Set([...findLabels(request.query), ...(this.#signals.labels ?? [])].map((l) => this.#nav.resolveLabel(l)).filter(Boolean));
    const w = this.#weights;
    const scored: Array<{ node: DocTreeNode; score: number; features: Record<string, number>; surface: NodeSurface }> = [];
    for (const node of nodes) {
      const surface = this.#nav.surface(node);
      const features = {
        bm25: bm25.get(node.node_id) ?? 0,
        dense: dense.get(node.node_id) ?? 0,
        schema: Math.max(...variantTerms.map((terms) => share(terms, this.#nav.terms(node, 'schema')))),
        year: share(years, new Set(surface.years)),
        unit: share(units, new Set(surface.units)),
        label: labelTargets.has(node.node_id) ? 1 : 0,
      };
      const score = w.bm25 * features.bm25 + w.dense * features.dense + w.schema * features.schema + w.year * features.year + w.unit * features.unit + w.label * features.label;
      if (score > 0) scored.push({ node, score, features, surface });
    }
    // Hits (snippets, table grids) only for the best k: the base retriever keeps no more.
    const hits: Hit[] = [];
    for (const { node, score, features, surface } of bestK(scored, request.k)) {
      const grid = this.#nav.table(node);
      const record = this.#nav.coarseRecordOf(node);
      hits.push(
        nodeHit(this.#nav, node, {
          method: this.name,
          score,
          extra: {
            columns: grid.columns.slice(0, 16),
            n_rows: grid.body.length,
            ...(grid.scale ? { scale: grid.scale } : {}),
            ...(grid.currency ? { currency: grid.currency } : {}),
            units: surface.units,
            affordances: record?.affordances ?? {},
            features: Object.fromEntries(Object.entries(features).map(([k, v]) => [k, round(v)])),
          },
        }),
      );
    }
    return hits;
  }
}

/**
 * The `chart_index.search` lane: scores images and charts by BM25F, dense similarity, query terms in the caption, a
 * named label (`Figure 3` wins outright) and the wanted chart type. `extra` carries `chart_type` (`statistical` for
 * charts, `image` otherwise), `caption`, `img_path` and the `features` that scored it.
 */
export class ChartRetriever extends BaseRetriever {
  readonly name = 'chart_index.search';
  readonly #nav: DocNavigator;
  readonly #weights: ChartLaneWeights;
  readonly #signals: ObjectSignals;
  readonly #chartType: 'statistical' | 'image' | undefined;

  constructor(
    readonly index: DocIndex,
    options: ChartRetrieverOptions = {},
  ) {
    super(splitBase(options));
    this.#nav = navigatorFor(index);
    this.#weights = { ...CHART_LANE_WEIGHTS, ...options.weights };
    this.#signals = options.signals ?? {};
    this.#chartType = options.chartType;
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const nodes = candidates(this.#nav, [...FIGURE_ROLES], request);
    if (nodes.length === 0) return [];
    const pages = request.pageIdx && request.pageIdx.length > 0 ? new Set(request.pageIdx) : undefined;
    const bm25 = bm25Scores(this.index, request.query, FIGURE_ROLES, pages);
    const dense = await denseScores(this.index, request.query, new Set(nodes.map((n) => n.node_id)), request.signal);
    const terms = analyzeQuery(request.query);
    const labelTargets = new Set([...findLabels(request.query), ...(this.#signals.labels ?? [])].map((l) => this.#nav.resolveLabel(l)).filter(Boolean));
    const wanted = this.#chartType ?? (CHART_WORDS.test(request.query) ? 'statistical' : undefined);
    const w = this.#weights;
    const scored: Array<{ node: DocTreeNode; score: number; features: Record<string, number>; chartType: string; record: ReturnType<DocNavigator['coarseRecordOf']> }> = [];
    for (const node of nodes) {
      const record = this.#nav.coarseRecordOf(node);
      const chartType = record?.filters.chart_type ?? (node.role === 'chart' ? 'statistical' : 'image');
      const features = {
        bm25: bm25.get(node.node_id) ?? 0,
        dense: dense.get(node.node_id) ?? 0,
        caption: share(terms, this.#nav.terms(node, 'title')),
        label: labelTargets.has(node.node_id) ? 1 : 0,
        chart_type: wanted !== undefined && wanted === chartType ? 1 : 0,
      };
      const score = w.bm25 * features.bm25 + w.dense * features.dense + w.caption * features.caption + w.label * features.label + w.chart_type * features.chart_type;
      if (score > 0) scored.push({ node, score, features, chartType, record });
    }
    const hits: Hit[] = [];
    for (const { node, score, features, chartType, record } of bestK(scored, request.k)) {
      const caption = this.#nav.captionOf(node)?.text;
      hits.push(
        nodeHit(this.#nav, node, {
          method: this.name,
          score,
          extra: {
            chart_type: chartType,
            ...(caption ? { caption } : {}),
            ...(node.img_path ? { img_path: node.img_path } : {}),
            affordances: record?.affordances ?? {},
            features: Object.fromEntries(Object.entries(features).map(([k, v]) => [k, round(v)])),
          },
        }),
      );
    }
    return hits;
  }
}
