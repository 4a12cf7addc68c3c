import { HitSchema } from '@doctree/schema';
import type { DocTreeNode, Hit } from '@doctree/schema';
import { z } from 'zod';
import type { HubToolCard } from '../context/tool-context.js';
import { FIGURE_ROLES, type DocNavigator } from '../navigation/doc-navigator.js';
import { hitScore, hitVia, nodeHit } from '../hits/node-hit.js';

/** How an expanded candidate relates to the hit it came from. */
export type ExpansionKind = 'parent' | 'sibling' | 'child' | 'same_page' | 'ref' | 'caption' | 'representative';

/** Options of {@link expandHits} (docs/design/index-features.md §4.4, §6 defaults: parent 1, siblings ≤ 2, children ≤ 2, same page ≤ 8). */
export interface ExpandOptions {
  /** Ancestor sections added above each hit. Default 1. */
  parent?: number;
  /** Nearest siblings added per hit. Default 2. */
  siblings?: number;
  /** First children added per section hit. Default 2. */
  children?: number;
  /** Nodes of the hit's page added per hit (nearest in reading order). Default 8. */
  samePage?: number;
  /** Follow `ref` edges: paragraphs referring to a figure/table hit, and figures/tables a paragraph hit refers to. Default true. */
  refs?: boolean;
  /** Attach captions to figure/table hits (and the object to caption hits). Default true. */
  captions?: boolean;
  /** Add a section hit's representatives (top table, image and paragraph of its subtree). Default true. */
  representatives?: boolean;
  /** Expand only the first `top` hits. Default 10. */
  top?: number;
  /** Most candidates returned (hits included). Default 120. */
  maxCandidates?: number;
  /** Score factor of each expansion kind relative to the hit it came from, merged over {@link EXPANSION_DECAY}. */
  decay?: Partial<Record<ExpansionKind, number>>;
}

/** Score factors of expanded candidates: a caption is nearly as good as its table; a node merely on the same page much less. */
export const EXPANSION_DECAY: Readonly<Record<ExpansionKind, number>> = {
  caption: 0.9,
  ref: 0.7,
  representative: 0.7,
  child: 0.6,
  parent: 0.5,
  sibling: 0.5,
  same_page: 0.3,
};

/** Defaults of {@link ExpandOptions}. */
export const EXPAND_DEFAULTS = {
  parent: 1,
  siblings: 2,
  children: 2,
  samePage: 8,
  refs: true,
  captions: true,
  representatives: true,
  top: 10,
  maxCandidates: 120,
} as const;

/** The method of expanded candidates. */
export const EXPAND_METHOD = 'structure.expand';

/**
 * Structure expansion (docs/design/index-features.md §4 "tree expansion"): around the first `top` hits adds their parent section,
 * nearest siblings, first children and representatives (section hits), captions (figure/table hits, and the object of a
 * caption hit), `ref` neighbours (paragraphs referring to a figure/table, and the figure/table a paragraph refers to)
 * and nodes on the same page. Each added candidate scores `decay[kind] × score of its source` and records
 * `extra.expansion` / `extra.expanded_from`; a node reached twice keeps its best score and collects every reason in
 * `extra.via`. Returns the hits and their expansions, best first, at most `maxCandidates`.
 */
export function expandHits(nav: DocNavigator, hits: readonly Hit[], options: ExpandOptions = {}): Hit[] {
  const o = { ...EXPAND_DEFAULTS, ...options };
  const decay = { ...EXPANSION_DECAY, ...options.decay };
  const out = new Map<string, Hit>();
  for (const hit of hits) if (!out.has(hit.node_id)) out.set(hit.node_id, { ...hit, score: hitScore(hit), extra: { ...hit.extra, via: hitVia(hit) } });
  const add = (node: DocTreeNode | undefined, kind: ExpansionKind, from: Hit): void => {
    if (!node || node.role === 'document' || node.node_id === from.node_id) return;
    const score = decay[kind] * hitScore(from);
    const reason = `${EXPAND_METHOD}:${kind}`;
    const existing = out.get(node.node_id);
    if (existing) {
      const via = hitVia(existing);
      const nextVia = via.includes(reason) ? via : [...via, reason];
      const better = existing.method === EXPAND_METHOD && score > hitScore(existing);
      const extra = better ? { ...existing.extra, expansion: kind, expanded_from: from.node_id, via: nextVia } : { ...existing.extra, via: nextVia };
      out.set(node.node_id, { ...existing, ...(better ? { score } : {}), extra });
      return;
    }
    const created = nodeHit(nav, node, { method: EXPAND_METHOD, score: Math.max(0, score), extra: { expansion: kind, expanded_from: from.node_id, via: [reason] } });
    out.set(node.node_id, { ...created, score: Math.max(0, score) });
  };
  for (const hit of hits.slice(0, o.top)) {
    const node = nav.node(hit.node_id);
    if (!node) continue;
    // captions and the objects they describe
    if (o.captions) {
      if (FIGURE_ROLES.has(node.role) || node.role === 'table') add(nav.captionOf(node), 'caption', hit);
      if (node.role === 'caption' && node.caption_of) add(nav.node(node.caption_of), 'caption', hit);
    }
    // ref edges
    if (o.refs) {
      if (FIGURE_ROLES.has(node.role) || node.role === 'table') for (const r of nav.referrersOf(node).slice(0, 3)) add(r, 'ref', hit);
      for (const ref of node.refs.slice(0, 3)) add(nav.node(ref.target), 'ref', hit);
    }
    // section: representatives and children
    if (node.role === 'section' || node.role === 'document') {
      if (o.representatives) {
        const reps = nav.coarseRecordOf(node)?.subtree_sketch?.representatives;
        for (const id of [reps?.top_table, reps?.top_image, reps?.top_paragraph]) if (id) add(nav.node(id), 'representative', hit);
      }
      for (const child of nav.childrenOf(node).slice(0, o.children)) add(child, 'child', hit);
    }
    // parents
    let parent = nav.parentOf(node);
    for (let level = 0; level < o.parent && parent && parent.role !== 'document'; level++) {
      add(parent, 'parent', hit);
      parent = nav.parentOf(parent);
    }
    for (const sibling of nav.nearestSiblings(node, o.siblings)) add(sibling, 'sibling', hit);
    if (node.role !== 'section' && node.role !== 'document' && o.samePage > 0) {
      const onPage = nav.nodesOnPage(hit.page_idx).filter((n) => n.node_id !== node.node_id);
      onPage.sort((a, b) => Math.abs(a.read_order - node.read_order) - Math.abs(b.read_order - node.read_order) || a.read_order - b.read_order);
      for (const n of onPage.slice(0, o.samePage)) add(n, 'same_page', hit);
    }
  }
  const originals = new Set(hits.map((h) => h.node_id));
  const all = [...out.values()];
  const kept = all.filter((h) => originals.has(h.node_id));
  const expansions = all.filter((h) => !originals.has(h.node_id)).sort((a, b) => hitScore(b) - hitScore(a));
  const room = Math.max(0, o.maxCandidates - kept.length);
  return [...kept, ...expansions.slice(0, room)].sort((a, b) => hitScore(b) - hitScore(a));
}

/** Arguments of `structure.expand`. */
export const StructureExpandArgsSchema = z
  .object({
    /** Hits to expand (best first), e.g. the fused ranking. */
    hits: z.array(HitSchema).max(2000).optional(),
    /** Or node ids to expand (each scored 1, in the given order). */
    node_ids: z.array(z.string().min(1)).max(500).optional(),
    parent: z.number().int().min(0).max(5).default(EXPAND_DEFAULTS.parent),
    siblings: z.number().int().min(0).max(20).default(EXPAND_DEFAULTS.siblings),
    children: z.number().int().min(0).max(50).default(EXPAND_DEFAULTS.children),
    same_page: z.number().int().min(0).max(100).default(EXPAND_DEFAULTS.samePage),
    refs: z.boolean().default(true),
    captions: z.boolean().default(true),
    representatives: z.boolean().default(true),
    top: z.number().int().min(1).max(500).default(EXPAND_DEFAULTS.top),
    max_candidates: z.number().int().min(1).max(5000).default(EXPAND_DEFAULTS.maxCandidates),
  })
  .refine((a) => (a.hits?.length ?? 0) + (a.node_ids?.length ?? 0) > 0, { message: 'give hits or node_ids to expand', path: ['hits'] });
/** Parsed {@link StructureExpandArgsSchema}. */
export type StructureExpandArgs = z.infer<typeof StructureExpandArgsSchema>;

/** Data of `structure.expand`. */
export interface StructureExpandData {
  /** Candidates added by expansion (not among the input hits). */
  added: Array<{ node_id: string; expansion: string; expanded_from: string }>;
}

/** Zod schema of {@link StructureExpandData} (the declared output of `structure.expand`). */
export const StructureExpandDataSchema: z.ZodType<StructureExpandData> = z.object({
  added: z.array(z.object({ node_id: z.string(), expansion: z.string(), expanded_from: z.string() })),
});

/** `structure.expand`: the tree neighbourhood of hits as candidates (see {@link expandHits}). */
export const structureExpandCard: HubToolCard<StructureExpandArgs, StructureExpandData> = {
  id: 'structure.expand',
  description:
    'Adds the tree neighbourhood of hits: parent section, ≤2 siblings, ≤2 children and representatives of sections, captions of figures/tables, referring paragraphs (ref edges), ≤8 nodes on the same page. Args: hits or node_ids, parent, siblings, children, same_page, refs, captions, top, max_candidates.',
  args: StructureExpandArgsSchema,
  output: StructureExpandDataSchema,
  kind: 'structure',
  async run(args, context) {
    const nav = context.nav;
    const base: Hit[] = args.hits ? [...args.hits] : [];
    for (const id of args.node_ids ?? []) if (!base.some((h) => h.node_id === id)) base.push(nodeHit(nav, nav.require(id), { method: EXPAND_METHOD, score: 1, extra: { via: ['input'] } }));
    for (const hit of base) nav.require(hit.node_id);
    const hits = expandHits(nav, base, {
      parent: args.parent,
      siblings: args.siblings,
      children: args.children,
      samePage: args.same_page,
      refs: args.refs,
      captions: args.captions,
      representatives: args.representatives,
      top: args.top,
      maxCandidates: args.max_candidates,
    });
    const inputs = new Set(base.map((h) => h.node_id));
    const added = hits
      .filter((h) => !inputs.has(h.node_id))
      .map((h) => ({ node_id: h.node_id, expansion: String(h.extra['expansion'] ?? ''), expanded_from: String(h.extra['expanded_from'] ?? '') }));
    return { hits, data: { added } };
  },
};
