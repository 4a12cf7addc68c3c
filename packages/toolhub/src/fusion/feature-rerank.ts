import type { DocTreeNode, Hit, QueryType, RouterDecision } from '@doctree/schema';
import { UNIT_ALIASES, analyzeQuery, analyzeText, findUnits, findYears, hasNumbers } from '@doctree/index';
import { runSlices } from '../hub/slices.js';
import { FIGURE_ROLES, type DocNavigator } from '../navigation/doc-navigator.js';
import { PageLocator } from '../retrieval/page-locator.js';
import { findLabels } from '../retrieval/query-signals.js';

/** What the question wants, matched against node affordances by the `intent` feature. */
export type RerankIntent = 'table' | 'chart' | 'figure' | 'number' | 'section' | 'text' | 'page';

/** What the rerank knows about the question (usually from the router's decision, see {@link rerankContextFromDecision}). */
export interface RerankContext {
  /** The question (or search text). */
  query: string;
  /** 1-based pages the question names; when absent they are read from the query (`page 5`, `the last page`, `page iv`). */
  page_hints?: readonly number[];
  /** Units asked for (`%`, `$`, `millions`…); added to those found in the query. */
  units?: readonly string[];
  /** Years asked for; added to those found in the query. */
  years?: readonly number[];
  /** Labels named (`Table 2`, `Figure 3`); added to those found in the query. */
  labels?: readonly string[];
  /** Extra keywords; their terms join the query's. */
  keywords?: readonly string[];
  /** Sections in focus (e.g. where an earlier step found something): hits inside them get `same_section`. */
  section_ids?: readonly string[];
  /** What the question wants. */
  intent?: RerankIntent;
}

/**
 * Weights of the feature rerank (docs/design/index-features.md §4 "lightweight rerank features"). The final score is
 * `fused × (fused score / best fused score) + Σ weight × feature`, every feature in 0..1.
 */
export interface RerankWeights {
  /** The normalised fusion (RRF or weighted) score: what the lanes agreed on. */
  fused: number;
  /** `is_title_hit`: share of query terms in the node's title (section heading, figure/table caption). */
  title: number;
  /** `is_path_hit`: share of query terms in the node's heading path. */
  path: number;
  /** `is_label_hit`: the node is the named `Table 2` / `Figure 3` (1), holds or refers to it (0.5 / 0.3). */
  label: number;
  /** `schema_hit`: share of query terms in a table's header and row labels, or a section's child surface. */
  schema: number;
  /** `alias_hit`: a query term is an alias of one of the node's units (`percent` for `%`, `usd` for `$`). */
  alias: number;
  /** `unit_match`: share of the asked units the node carries. */
  unit: number;
  /** Year hits: share of the asked years the node mentions. */
  year: number;
  /** `page_dist`: `1 / (1 + pages to the nearest hinted page)` (0.5 inside a section spanning it). */
  page: number;
  /** `same_section`: the node lies in a section in focus. */
  same_section: number;
  /** `supports_* ∧ intent`: the node's role / affordances fit the intent (1 direct, 0.5 routing section). */
  intent: number;
}

/**
 * Default {@link RerankWeights}: the lanes' agreement dominates and the features reorder near-ties, except for what a
 * question states outright: a named label and a named page. A node on the named page found by one lane (normalised
 * fusion score about 0.5) must beat a node elsewhere that two lanes agree on (1.0), hence `page` 0.6.
 */
export const RERANK_WEIGHTS: RerankWeights = {
  fused: 1,
  title: 0.15,
  path: 0.05,
  label: 0.4,
  schema: 0.1,
  alias: 0.03,
  unit: 0.06,
  year: 0.1,
  page: 0.6,
  same_section: 0.08,
  intent: 0.12,
};

/** Feature names of {@link RerankWeights} (without `fused`). */
export type RerankFeature = Exclude<keyof RerankWeights, 'fused'>;

/** Every rerank feature. */
export const RERANK_FEATURES: readonly RerankFeature[] = ['title', 'path', 'label', 'schema', 'alias', 'unit', 'year', 'page', 'same_section', 'intent'];

/** Names a plan may use for each feature (seed spellings such as `is_title_hit`, `unit_match`, `toc_distance`). */
const FEATURE_ALIASES: Readonly<Record<string, RerankFeature>> = {
  title: 'title', is_title_hit: 'title', title_hit: 'title',
  path: 'path', is_path_hit: 'path', path_hit: 'path',
  label: 'label', is_label_hit: 'label', label_hit: 'label', object: 'label',
  schema: 'schema', schema_hit: 'schema', table_schema: 'schema',
  alias: 'alias', alias_hit: 'alias', aliases: 'alias',
  unit: 'unit', units: 'unit', unit_match: 'unit',
  year: 'year', years: 'year', year_match: 'year', time: 'year',
  page: 'page', page_dist: 'page', page_distance: 'page', page_hint: 'page',
  same_section: 'same_section', section: 'same_section', toc_distance: 'same_section', tree_prior: 'same_section',
  intent: 'intent', affordance: 'intent', affordances: 'intent', supports: 'intent', intent_bonus: 'intent',
};

/** Maps plan feature names (`year`, `unit_match`, `toc_distance`…) to rerank features; unknown names are returned apart. */
export function resolveRerankFeatures(names: readonly string[]): { features: RerankFeature[]; unknown: string[] } {
  const features = new Set<RerankFeature>();
  const unknown: string[] = [];
  for (const name of names) {
    const key = name.trim().toLowerCase();
    // Plan text: own entries only, so `constructor` or `toString` is an unknown feature, not a function.
    const feature = Object.hasOwn(FEATURE_ALIASES, key) ? FEATURE_ALIASES[key] : undefined;
    if (feature) features.add(feature);
    else unknown.push(name);
  }
  return { features: [...features], unknown };
}

/** Options of {@link rerankHits}. */
export interface RerankOptions {
  /** Weights merged over {@link RERANK_WEIGHTS}. */
  weights?: Partial<RerankWeights>;
  /** Features to use (plan names accepted, see {@link resolveRerankFeatures}); empty or absent = all. */
  features?: readonly string[];
}

/** The intent of a planner template. */
export function intentFromQueryType(type: QueryType): RerankIntent | undefined {
  switch (type) {
    case 'table_number':
      return 'table';
    case 'chart':
      return 'chart';
    case 'figure_count':
      return 'figure';
    case 'layout':
      return 'page';
    case 'summary':
      return 'section';
    default:
      return undefined;
  }
}

/** A {@link RerankContext} from the router's decision: page hints, units, years, object labels, keywords and intent. */
export function rerankContextFromDecision(question: string, decision: RouterDecision): RerankContext {
  const labels = decision.signals.objects.map((o) => o.label).filter((l): l is string => typeof l === 'string' && l.length > 0);
  const intent = intentFromQueryType(decision.query_type);
  return {
    query: question,
    page_hints: decision.signals.page_hints,
    units: decision.signals.units,
    years: decision.signals.years,
    labels,
    keywords: decision.signals.keywords,
    ...(intent ? { intent } : {}),
  };
}

function share<T>(wanted: readonly T[], have: ReadonlySet<T> | readonly T[]): number {
  if (wanted.length === 0) return 0;
  const set = have instanceof Set ? have : new Set(have as readonly T[]);
  return wanted.filter((w) => set.has(w)).length / wanted.length;
}

/** Prepared question side of the features (computed once per rerank). */
interface QuerySide {
  terms: string[];
  units: string[];
  years: number[];
  labelTargets: Set<string>;
  hints: number[];
  sections: Set<string>;
  intent?: RerankIntent;
}

/** 1-based pages a question names (page numbers, ordinals, the last page, printed labels), as the page locator reads them. */
export function pageHintsFromQuery(nav: DocNavigator, query: string): number[] {
  return new PageLocator(nav.index)
    .locatePages(query)
    .filter((p) => p.distance === 0)
    .map((p) => p.page);
}

function prepare(nav: DocNavigator, context: RerankContext): QuerySide {
  const text = [context.query, ...(context.keywords ?? [])].join(' ');
  const labels = [...new Set([...findLabels(context.query), ...(context.labels ?? [])])];
  return {
    terms: analyzeQuery(text),
    units: [...new Set([...findUnits(context.query), ...(context.units ?? [])])],
    years: [...new Set([...findYears(context.query), ...(context.years ?? [])])],
    labelTargets: new Set(labels.map((l) => nav.resolveLabel(l)).filter((id): id is string => id !== undefined)),
    hints: context.page_hints ? [...context.page_hints] : pageHintsFromQuery(nav, context.query),
    sections: new Set(context.section_ids ?? []),
    ...(context.intent ? { intent: context.intent } : {}),
  };
}

/** The features of one node for a prepared question, each in 0..1. */
function features(nav: DocNavigator, node: DocTreeNode, q: QuerySide, pageIdx: number): Record<RerankFeature, number> {
  const surface = nav.surface(node);
  const ancestors = (): DocTreeNode[] => [node, ...nav.view.ancestors(node)];
  let label = 0;
  if (q.labelTargets.size > 0) {
    if (q.labelTargets.has(node.node_id) || (node.caption_of && q.labelTargets.has(node.caption_of))) label = 1;
    else if (node.role === 'section' && [...q.labelTargets].some((t) => { const target = nav.node(t); return target !== undefined && nav.sectionOf(target)?.node_id === node.node_id; })) label = 0.5;
    else if (node.refs.some((r) => q.labelTargets.has(r.target))) label = 0.3;
  }
  let alias = 0;
  if (surface.units.length > 0 && q.terms.length > 0) {
    const aliasTerms = new Set(analyzeText(surface.units.map((u) => `${u} ${UNIT_ALIASES[u] ?? ''}`).join(' ')));
    alias = q.terms.some((t) => aliasTerms.has(t)) ? 1 : 0;
  }
  let page = 0;
  if (q.hints.length > 0) {
    const distance = Math.min(...q.hints.map((h) => Math.abs(h - 1 - pageIdx)));
    page = 1 / (1 + distance);
    if (distance > 0 && q.hints.some((h) => h - 1 >= node.page_span[0] && h - 1 <= node.page_span[1])) page = Math.max(page, 0.5);
  }
  const sameSection = q.sections.size > 0 && ancestors().some((a) => q.sections.has(a.node_id)) ? 1 : 0;
  return {
    title: share(q.terms, nav.terms(node, 'title')),
    path: share(q.terms, nav.terms(node, 'path')),
    label,
    schema: share(q.terms, nav.terms(node, 'schema')),
    alias,
    unit: share(q.units, surface.units),
    year: share(q.years, new Set([...surface.years, ...(node.role === 'section' ? [] : findYears(node.text))])),
    page,
    same_section: sameSection,
    intent: q.intent ? intentFit(nav, node, q.intent) : 0,
  };
}

function intentFit(nav: DocNavigator, node: DocTreeNode, intent: RerankIntent): number {
  const record = nav.coarseRecordOf(node);
  const aff = record?.affordances ?? {};
  switch (intent) {
    case 'table':
      return node.role === 'table' ? 1 : node.role === 'section' && aff.supports_ROUTE_TO_table ? 0.5 : 0;
    case 'chart':
      return node.role === 'chart' ? 1 : node.role === 'image' ? 0.5 : aff.supports_TREND ? 0.5 : 0;
    case 'figure':
      return FIGURE_ROLES.has(node.role) ? 1 : node.role === 'caption' || (node.role === 'section' && aff.supports_ROUTE_TO_image) ? 0.5 : 0;
    case 'number':
      return node.role === 'table' || aff.has_numbers || (node.role !== 'section' && hasNumbers(node.text)) ? 1 : 0;
    case 'section':
      return node.role === 'section' ? 1 : 0;
    case 'text':
      return node.role === 'paragraph' || node.role === 'list' ? 1 : 0;
    case 'page':
      return 0;
  }
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Feature rerank of fused hits (docs/design/index-features.md §4): every hit gets `score = fused·norm + Σ weight·feature` with the features
 * of {@link RerankWeights}; `extra.features` keeps the non-zero features and `extra.fused_norm` the normalised fusion
 * score, so the order can be explained. Hits whose node is not in the document keep their fused score. Returns a new
 * array, best first (ties keep the fused order).
 */
export function rerankHits(nav: DocNavigator, hits: readonly Hit[], context: RerankContext, options: RerankOptions = {}): Hit[] {
  return runSlices(rerankSteps(nav, hits, context, options));
}

/** The work of {@link rerankHits}, yielding between its slices (see `runSlices`). */
export function* rerankSteps(nav: DocNavigator, hits: readonly Hit[], context: RerankContext, options: RerankOptions): Generator<void, Hit[]> {
  const weights = { ...RERANK_WEIGHTS, ...options.weights };
  const enabled = new Set(options.features && options.features.length > 0 ? resolveRerankFeatures(options.features).features : RERANK_FEATURES);
  const q = prepare(nav, context);
  yield;
  const top = Math.max(0, ...hits.map((h) => h.score ?? h.score_raw));
  const scored: Array<{ hit: Hit; i: number }> = [];
  for (const [i, hit] of hits.entries()) {
    const norm = top > 0 ? Math.max(0, hit.score ?? hit.score_raw) / top : 0;
    const node = nav.node(hit.node_id);
    if (!node) {
      scored.push({ hit: { ...hit, score: weights.fused * norm, extra: { ...hit.extra, fused_norm: round(norm) } }, i });
      continue;
    }
    const f = features(nav, node, q, hit.page_idx);
    let score = weights.fused * norm;
    const kept: Record<string, number> = {};
    for (const name of RERANK_FEATURES) {
      if (!enabled.has(name) || f[name] === 0) continue;
      score += weights[name] * f[name];
      kept[name] = round(f[name]);
    }
    scored.push({ hit: { ...hit, score, extra: { ...hit.extra, fused_norm: round(norm), features: kept } }, i });
    yield;
  }
  return scored.sort((a, b) => (b.hit.score ?? 0) - (a.hit.score ?? 0) || a.i - b.i).map((s) => s.hit);
}

/** Options of {@link diversifyHits}. */
export interface DiversifyOptions {
  /** Factor lost per hit already taken from the same group: the n-th hit of a group scores `score·(1 − penalty)^n`. Default 0.15. */
  penalty?: number;
}

/** Defaults of {@link DiversifyOptions}. */
export const DIVERSIFY_DEFAULTS = { penalty: 0.15 } as const;

/**
 * Re-orders hits so that one section (or page) does not fill the top: greedily takes the hit with the best
 * `score·(1 − penalty)^taken(group)`, where the group is the hit's section (`extra.section_id`, or the node itself) or
 * its page. Sets `score` to the discounted value and keeps the previous one in `extra.score_before_diversity`.
 */
export function diversifyHits(hits: readonly Hit[], by: 'section' | 'page', options: DiversifyOptions = {}): Hit[] {
  const { penalty } = { ...DIVERSIFY_DEFAULTS, ...options };
  const factor = Math.min(1, Math.max(0, 1 - penalty));
  const groups = new Map<string, Hit[]>();
  for (const hit of [...hits].sort((a, b) => (b.score ?? b.score_raw) - (a.score ?? a.score_raw))) {
    const section = hit.extra['section_id'];
    const key = by === 'page' ? `p${hit.page_idx}` : typeof section === 'string' ? section : hit.node_id;
    const list = groups.get(key);
    if (list) list.push(hit);
    else groups.set(key, [hit]);
  }
  const taken = new Map<string, number>();
  const out: Hit[] = [];
  while (out.length < hits.length) {
    let bestKey: string | undefined;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const [key, list] of groups) {
      const head = list[0];
      if (!head) continue;
      const adjusted = (head.score ?? head.score_raw) * factor ** (taken.get(key) ?? 0);
      if (adjusted > bestScore) {
        bestScore = adjusted;
        bestKey = key;
      }
    }
    if (bestKey === undefined) break;
    const hit = groups.get(bestKey)!.shift()!;
    taken.set(bestKey, (taken.get(bestKey) ?? 0) + 1);
    out.push({ ...hit, score: bestScore, extra: { ...hit.extra, score_before_diversity: hit.score ?? hit.score_raw } });
  }
  return out;
}
