import { EvidencePackSchema, HitSchema, pageFromIndex } from '@doctree/schema';
import type { DocTreeNode, EvidenceItem, EvidencePack, Hit, RouterDecision } from '@doctree/schema';
import { analyzeText, cosine, estimateTokens, findUnits, termFrequencies } from '@doctree/index';
import { z } from 'zod';
import { runSlices } from '../hub/slices.js';
import type { HubToolCard } from '../context/tool-context.js';
import { FIGURE_ROLES, type DocNavigator } from '../navigation/doc-navigator.js';
import { gistWithoutTitle, hitScore, hitVia } from '../hits/node-hit.js';
import { tableGridToMarkdown } from '../table/table-reader.js';
import { conceptMatch, conceptsIn, DEFAULT_CONCEPTS, type Concept } from '../vocabulary/concept-vocabulary.js';

/** What the plan needs the evidence to show; each entry becomes one need (`object:Table 2`, `year:2023`…). */
export interface PackNeeds {
  /** Labels of objects (`Table 2`, `Figure 3`). */
  objects?: readonly string[];
  /** Units (`%`, `$`, `millions`). */
  units?: readonly string[];
  /** Years. */
  years?: readonly number[];
  /** Keywords or phrases (`capital expenditures`). */
  keywords?: readonly string[];
  /** 1-based pages. */
  pages?: readonly number[];
}

/** What packed evidence may carry besides a node's own text (docs/design/index-features.md §5 "observer packaging"). */
export type PackAttachment = 'caption' | 'table_header' | 'cells' | 'gist' | 'heading_path';

/** Every attachment. */
export const PACK_ATTACHMENTS: readonly PackAttachment[] = ['caption', 'table_header', 'cells', 'gist', 'heading_path'];

/** Options of {@link packEvidence} (plan `pack` fields: `mmr_lambda`, `ctx_tokens`, `per_page_limit`, `attach`). */
export interface PackOptions {
  /** Token budget of the whole pack. Default 1500. */
  budgetTokens?: number;
  /** MMR trade-off: 1 = relevance only, 0 = novelty only. Default 0.72 (docs/design/index-features.md §6). */
  lambda?: number;
  /** Most items from one page. Default 2. */
  perPageLimit?: number;
  /** What figure/table/section items carry; default caption, table header, cells and gist. Unknown names are ignored. */
  attach?: readonly string[];
  /** Most items in the pack. Default 24. */
  maxItems?: number;
  /** Most items per role (`{ section: 3 }`). Default none. */
  roleLimits?: Readonly<Record<string, number>>;
  /** Table rows rendered when `cells` is attached. Default 25. */
  tableRows?: number;
  /** Tokens of a section's gist kept (docs/design/index-features.md §5: sections carry a very short gist). Default 60. */
  sectionTokens?: number;
  /** An item that does not fit is cut to the remaining budget when at least this many tokens remain. Default 40. */
  minItemTokens?: number;
  /** Needs the coverage is computed against. Default none (coverage is 1 for a non-empty pack). */
  needs?: PackNeeds;
  /** Concepts a keyword need may be covered by in other words (the domain pack's). Default {@link DEFAULT_CONCEPTS}. */
  concepts?: readonly Concept[];
}

/** Defaults of {@link PackOptions}. */
export const PACK_DEFAULTS = {
  budgetTokens: 1500,
  lambda: 0.72,
  perPageLimit: 2,
  attach: ['caption', 'table_header', 'cells', 'gist'] as readonly string[],
  maxItems: 24,
  tableRows: 25,
  sectionTokens: 60,
  minItemTokens: 40,
} as const;

/**
 * The evidence text of a node (docs/design/index-features.md §5): a table's caption, column header and cells (`attach`); a figure's label and
 * caption; a section's heading and its gist cut to `sectionTokens`; a leaf's own text (the matching chunk for chunk
 * hits). `heading_path` prefixes the node's path.
 */
export function evidenceText(nav: DocNavigator, node: DocTreeNode, attach: ReadonlySet<string>, options: { tableRows?: number; sectionTokens?: number; chunkId?: string } = {}): string {
  const parts: string[] = [];
  if (attach.has('heading_path')) {
    const path = nav.view.headingPath(node);
    if (path) parts.push(`[${path}]`);
  }
  if (node.role === 'table') {
    const grid = nav.table(node);
    const caption = nav.captionOf(node)?.text;
    if (attach.has('caption')) parts.push(caption ?? node.label ?? 'Table');
    else if (node.label) parts.push(node.label);
    if (grid.scale || grid.currency) parts.push(`(values in ${[grid.currency, grid.scale].filter(Boolean).join(' ')})`);
    if (attach.has('cells') && grid.columns.length > 0) parts.push(`\n${tableGridToMarkdown(grid, options.tableRows ?? PACK_DEFAULTS.tableRows)}`);
    else if (attach.has('table_header') && grid.columns.length > 0) parts.push(`Columns: ${grid.columns.filter(Boolean).join(' | ')}`);
    else if (grid.columns.length === 0 && node.text) parts.push(node.text);
  } else if (FIGURE_ROLES.has(node.role)) {
    const caption = nav.captionOf(node)?.text;
    parts.push(caption && attach.has('caption') ? caption : node.label ?? (node.role === 'chart' ? 'Chart' : 'Image'));
    if (!caption) {
      const record = nav.coarseRecordOf(node);
      if (record?.dense_text) parts.push(record.dense_text);
    }
  } else if (node.role === 'section' || node.role === 'document') {
    parts.push(node.title ?? '');
    const gist = attach.has('gist') ? gistWithoutTitle(nav.gistOf(node), node.title) : '';
    if (gist) parts.push(`— ${cutToTokens(gist, options.sectionTokens ?? PACK_DEFAULTS.sectionTokens)}`);
  } else {
    const chunk = options.chunkId ? nav.index.denseLeaf.get(options.chunkId)?.raw_text : undefined;
    parts.push(chunk ?? node.text);
  }
  return parts.filter(Boolean).join(' ').trim();
}

/** Cuts text to about `tokens` tokens at a word boundary, with `…`. */
function cutToTokens(text: string, tokens: number): string {
  const chars = Math.max(0, tokens * 4 - 1);
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars);
  const space = cut.lastIndexOf(' ');
  return `${space > chars * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** The needs of a router decision: labelled objects, other objects' text and keywords as keywords, units, years, pages. */
export function needsFromDecision(decision: RouterDecision, options: { maxKeywords?: number } = {}): PackNeeds {
  const objects = decision.signals.objects.filter((o) => o.label).map((o) => o.label!);
  const objectTexts = decision.signals.objects.filter((o) => !o.label && o.kind !== 'page').map((o) => o.text);
  return {
    objects,
    units: decision.signals.units,
    years: decision.signals.years,
    keywords: [...new Set([...objectTexts, ...decision.signals.keywords])].slice(0, options.maxKeywords ?? 4),
    pages: decision.signals.page_hints,
  };
}

/** Need strings of {@link PackNeeds}, in a stable order: `object:…`, `unit:…`, `year:…`, `keyword:…`, `page:…`. */
export function needList(needs: PackNeeds | undefined): string[] {
  if (!needs) return [];
  return [
    ...new Set([
      ...(needs.objects ?? []).map((o) => `object:${o}`),
      ...(needs.units ?? []).map((u) => `unit:${u}`),
      ...(needs.years ?? []).map((y) => `year:${y}`),
      ...(needs.keywords ?? []).filter((k) => k.trim()).map((k) => `keyword:${k.trim()}`),
      ...(needs.pages ?? []).map((p) => `page:${p}`),
    ]),
  ];
}

/** Result of {@link computeCoverage}. */
export interface Coverage {
  coverage: number;
  needs_covered: string[];
  needs_missing: string[];
}

/**
 * Evidence text, term frequencies and tokens of a node under packing options, cached per navigator (every stage and
 * question of a document packs many of the same candidates).
 */
interface Packable {
  text: string;
  tf: ReturnType<typeof termFrequencies>;
  tokens: number;
}
const PACKABLE = new WeakMap<DocNavigator, Map<string, Packable>>();
/** Most cached evidence texts per navigator (the cache starts over beyond it). */
const PACKABLE_MAX = 20_000;

function packable(nav: DocNavigator, node: DocTreeNode, attach: ReadonlySet<string>, tableRows: number, sectionTokens: number, chunkId: string | undefined): Packable {
  let cache = PACKABLE.get(nav);
  if (!cache) PACKABLE.set(nav, (cache = new Map()));
  const key = `${node.node_id}\u0000${[...attach].sort().join(',')}\u0000${tableRows}\u0000${sectionTokens}\u0000${chunkId ?? ''}`;
  let found = cache.get(key);
  if (!found) {
    const text = evidenceText(nav, node, attach, { tableRows, sectionTokens, ...(chunkId ? { chunkId } : {}) });
    found = { text, tf: termFrequencies(text), tokens: estimateTokens(text) };
    if (cache.size >= PACKABLE_MAX) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/** Analysed terms of evidence texts, cached per navigator (coverage is measured on every pack). */
const TEXT_TERMS = new WeakMap<DocNavigator, Map<string, ReadonlySet<string>>>();

function textTerms(nav: DocNavigator, text: string): ReadonlySet<string> {
  let cache = TEXT_TERMS.get(nav);
  if (!cache) TEXT_TERMS.set(nav, (cache = new Map()));
  let terms = cache.get(text);
  if (!terms) {
    terms = new Set(analyzeText(text));
    if (cache.size >= PACKABLE_MAX) cache.clear();
    cache.set(text, terms);
  }
  return terms;
}

/**
 * How much of the needs a set of evidence items shows: an object is covered by an item that is (or captions) the
 * labelled node or names the label; a unit by an item whose text or node carries it; a year by an item mentioning it;
 * a keyword when one item holds all its terms (two thirds for phrases of four terms or more); a page by an item on it.
 * Without needs, coverage is 1 when there is evidence and 0 otherwise.
 */
export function computeCoverage(nav: DocNavigator, items: readonly EvidenceItem[], needs: PackNeeds | undefined, knownConcepts: readonly Concept[] = DEFAULT_CONCEPTS): Coverage {
  const list = needList(needs);
  if (list.length === 0) return { coverage: items.length > 0 ? 1 : 0, needs_covered: [], needs_missing: [] };
  const prepared = items.map((item) => {
    const node = nav.node(item.node_id);
    const surface = node ? nav.surface(node) : undefined;
    return {
      item,
      node,
      lower: item.text.toLowerCase(),
      terms: textTerms(nav, item.text),
      units: new Set([...findUnits(item.text), ...(surface?.units ?? [])]),
    };
  });
  const covered: string[] = [];
  const missing: string[] = [];
  for (const need of list) {
    const colon = need.indexOf(':');
    const kind = need.slice(0, colon);
    const value = need.slice(colon + 1);
    let ok = false;
    if (kind === 'object') {
      const target = nav.resolveLabel(value);
      const lowerLabel = value.toLowerCase();
      ok = prepared.some((p) => (target !== undefined && (p.item.node_id === target || p.node?.caption_of === target)) || (p.node?.label ?? '').toLowerCase() === lowerLabel || p.lower.includes(lowerLabel));
    } else if (kind === 'unit') {
      ok = prepared.some((p) => p.units.has(value) || (value === '%' && p.lower.includes('%')));
    } else if (kind === 'year') {
      ok = prepared.some((p) => new RegExp(`\\b${value}\\b`).test(p.item.text));
    } else if (kind === 'keyword') {
      const wanted = [...new Set(analyzeText(value))];
      const needed = wanted.length >= 4 ? Math.ceil((wanted.length * 2) / 3) : wanted.length;
      ok = wanted.length === 0 || prepared.some((p) => wanted.filter((t) => p.terms.has(t)).length >= needed);
      // A keyword naming a reporting concept is covered by evidence naming it in other words ("capex" by "Purchases
      // of property, plant and equipment"; the shared concept vocabulary).
      if (!ok) {
        const concepts = conceptsIn(value, knownConcepts);
        ok = concepts.length > 0 && prepared.some((p) => conceptMatch(p.item.text, concepts).score > 0);
      }
    } else if (kind === 'page') {
      ok = prepared.some((p) => p.item.page === Number(value));
    }
    (ok ? covered : missing).push(need);
  }
  return { coverage: covered.length / list.length, needs_covered: covered, needs_missing: missing };
}

/**
 * MMR knapsack packing (docs/design/index-features.md §6, λ ≈ 0.72): repeatedly takes the candidate with the best
 * `λ · relevance − (1 − λ) · max similarity to what is already packed` (relevance = score / best score, similarity =
 * cosine of term frequencies) that still fits the token budget, the per-page limit, the role limits and `maxItems`; an
 * item too large for the remaining budget is cut when at least `minItemTokens` remain, skipped otherwise. Returns an
 * `EvidencePack` with the coverage of `needs`.
 */
export function packEvidence(nav: DocNavigator, candidates: readonly Hit[], options: PackOptions = {}): EvidencePack {
  return runSlices(packSteps(nav, candidates, options));
}

/** The work of {@link packEvidence}, yielding between its slices (see `runSlices`). */
export function* packSteps(nav: DocNavigator, candidates: readonly Hit[], options: PackOptions): Generator<void, EvidencePack> {
  const o = { ...PACK_DEFAULTS, ...options };
  const attach = new Set(o.attach.filter((a) => (PACK_ATTACHMENTS as readonly string[]).includes(a)));
  const seen = new Set<string>();
  const pool: Array<{ hit: Hit; node: DocTreeNode } & Packable> = [];
  for (const hit of candidates) {
    const node = nav.node(hit.node_id);
    if (seen.has(hit.node_id) || !node) continue;
    seen.add(hit.node_id);
    const record = typeof hit.extra['record_id'] === 'string' ? (hit.extra['record_id'] as string) : undefined;
    const chunkId = record && /#c[0-9]+$/.test(record) ? record : undefined;
    const c = { hit, node, ...packable(nav, node, attach, o.tableRows, o.sectionTokens, chunkId) };
    if (c.text.length > 0) pool.push(c);
    yield;
  }
  const top = Math.max(0, ...pool.map((c) => hitScore(c.hit)));
  const relevance = (c: (typeof pool)[number]): number => (top > 0 ? Math.max(0, hitScore(c.hit)) / top : 0);
  const items: EvidenceItem[] = [];
  const perPage = new Map<number, number>();
  const perRole = new Map<string, number>();
  let used = 0;
  const remaining = new Set(pool.map((_, i) => i));
  // highest similarity of each candidate to the packed items, updated once per packed item
  const maxSimilarity = new Float64Array(pool.length);
  while (remaining.size > 0 && items.length < o.maxItems && used < o.budgetTokens) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const i of remaining) {
      const value = o.lambda * relevance(pool[i]!) - (1 - o.lambda) * maxSimilarity[i]!;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    remaining.delete(best);
    const c = pool[best]!;
    const page = c.hit.page_idx;
    if ((perPage.get(page) ?? 0) >= o.perPageLimit) continue;
    const roleLimit = o.roleLimits?.[c.node.role];
    if (roleLimit !== undefined && (perRole.get(c.node.role) ?? 0) >= roleLimit) continue;
    let text = c.text;
    let tokens = c.tokens;
    const left = o.budgetTokens - used;
    if (tokens > left) {
      if (left < o.minItemTokens) continue;
      text = cutToTokens(text, left);
      tokens = estimateTokens(text);
    }
    used += tokens;
    perPage.set(page, (perPage.get(page) ?? 0) + 1);
    perRole.set(c.node.role, (perRole.get(c.node.role) ?? 0) + 1);
    for (const i of remaining) maxSimilarity[i] = Math.max(maxSimilarity[i]!, cosine(pool[i]!.tf, c.tf));
    items.push({ node_id: c.node.node_id, page: pageFromIndex(page), role: c.node.role, text, tokens, score: hitScore(c.hit), via: hitVia(c.hit) });
    yield;
  }
  yield;
  const coverage = computeCoverage(nav, items, o.needs, options.concepts);
  return { items, total_tokens: used, budget_tokens: Math.max(1, Math.floor(o.budgetTokens)), ...coverage };
}

/** Arguments of `pack.mmr_knapsack`. */
export const PackArgsSchema = z.object({
  /** Candidates (hits, best first), e.g. the expanded ranking. */
  candidates: z.array(HitSchema).max(5000),
  /** Token budget. */
  ctx_tokens: z.number().int().min(1).max(200_000).default(PACK_DEFAULTS.budgetTokens),
  /** MMR λ. */
  mmr_lambda: z.number().min(0).max(1).default(PACK_DEFAULTS.lambda),
  /** Most items per page. */
  per_page_limit: z.number().int().min(1).max(100).default(PACK_DEFAULTS.perPageLimit),
  /** Attachments: caption, table_header, cells, gist, heading_path. */
  attach: z.array(z.string()).max(10).optional(),
  /** Most items. */
  max_items: z.number().int().min(1).max(500).default(PACK_DEFAULTS.maxItems),
  /** Most items per role. */
  role_limits: z.record(z.string(), z.number().int().min(0)).optional(),
  /** Needs for coverage. */
  needs: z
    .object({
      objects: z.array(z.string()).optional(),
      units: z.array(z.string()).optional(),
      years: z.array(z.number().int()).optional(),
      keywords: z.array(z.string()).optional(),
      pages: z.array(z.number().int().positive()).optional(),
    })
    .optional(),
});
/** Parsed {@link PackArgsSchema}. */
export type PackArgs = z.infer<typeof PackArgsSchema>;

/** `pack.mmr_knapsack`: evidence pack under a token budget with coverage (see {@link packEvidence}). */
export const packMmrKnapsackCard: HubToolCard<PackArgs, EvidencePack> = {
  id: 'pack.mmr_knapsack',
  description:
    'Packs candidates into evidence under a token budget with MMR (λ≈0.72) and a per-page limit; tables carry caption, header and cells, sections their gist; reports coverage of the needs (objects, units, years, keywords, pages). Args: candidates, ctx_tokens, mmr_lambda, per_page_limit, attach, max_items, role_limits, needs.',
  args: PackArgsSchema,
  output: EvidencePackSchema,
  kind: 'pack',
  async run(args, context) {
    const pack = packEvidence(context.nav, args.candidates, {
      budgetTokens: args.ctx_tokens,
      lambda: args.mmr_lambda,
      perPageLimit: args.per_page_limit,
      maxItems: args.max_items,
      ...(args.attach && args.attach.length > 0 ? { attach: args.attach } : {}),
      ...(args.role_limits ? { roleLimits: args.role_limits } : {}),
      ...(args.needs ? { needs: args.needs } : {}),
      ...(context.domain ? { concepts: context.domain.concepts } : {}),
    });
    const byId = new Map(args.candidates.map((h) => [h.node_id, h] as const));
    const hits = pack.items.map((i) => byId.get(i.node_id)).filter((h): h is Hit => h !== undefined);
    return { hits, data: pack };
  },
};
