import { BBoxSchema, pageFromIndex } from '@doctree/schema';
import type { BBox, DocTreeNode, Hit } from '@doctree/schema';
import { analyzeQuery } from '@doctree/index';
import { z } from 'zod';
import type { HubToolCard } from '../context/tool-context.js';
import type { DocNavigator } from '../navigation/doc-navigator.js';
import { expandRoles, nodeHit } from '../hits/node-hit.js';
import { LaneArgsSchema, pageFilter } from '../retrieval/lane-args.js';
import { findLabels } from '../retrieval/query-signals.js';
import { findSection } from './structure-children.js';

/** A figure region as returned by `figure_finder.find_regions`: where to crop, what it is called. */
export interface FigureRegion {
  node_id: string;
  role: string;
  label?: string;
  /** 1-based page of the first box. */
  page: number;
  page_idx: number;
  /** First box `[x0, y0, x1, y1]` in PDF points (top-left origin), or null when ingest found none. */
  bbox: BBox | null;
  /** Every box with its 1-based page (a figure may span pages). */
  boxes: Array<{ page: number; bbox: BBox }>;
  caption?: string;
  caption_node_id?: string;
  /** Image file relative to the document folder, when extracted. */
  img_path?: string;
  /** `statistical` for charts, `image` otherwise. */
  chart_type: string;
}

/** Arguments of `figure_finder.find_regions`. */
export const FigureFinderArgsSchema = LaneArgsSchema.extend({
  k: z.number().int().min(1).max(1000).default(20),
  /** Roles to find; default images and charts (add `table` for table regions). */
  roles: z.array(z.string().min(1)).max(20).default(['image', 'chart']),
  /** Keep figures inside this section (node id). */
  section_id: z.string().min(1).optional(),
  /** Or the section's numbering / heading words. */
  section_title: z.string().min(1).max(300).optional(),
  /** Keep figures with these labels (`Figure 3`). */
  labels: z.array(z.string().min(1)).max(20).optional(),
});
/** Parsed {@link FigureFinderArgsSchema}. */
export type FigureFinderArgs = z.infer<typeof FigureFinderArgsSchema>;

/** Data of `figure_finder.find_regions`. */
export interface FigureFinderData {
  regions: FigureRegion[];
}

/** Zod schema of a {@link FigureRegion}. */
export const FigureRegionSchema: z.ZodType<FigureRegion> = z.object({
  node_id: z.string(),
  role: z.string(),
  label: z.string().optional(),
  page: z.number().int(),
  page_idx: z.number().int(),
  bbox: BBoxSchema.nullable(),
  boxes: z.array(z.object({ page: z.number().int(), bbox: BBoxSchema })),
  caption: z.string().optional(),
  caption_node_id: z.string().optional(),
  img_path: z.string().optional(),
  chart_type: z.string(),
});

/** Zod schema of {@link FigureFinderData} (the declared output of `figure_finder.find_regions`). */
export const FigureFinderDataSchema: z.ZodType<FigureFinderData> = z.object({ regions: z.array(FigureRegionSchema) });

/** The region record of a figure / chart / table node. */
export function figureRegion(nav: DocNavigator, node: DocTreeNode): FigureRegion {
  const caption = nav.captionOf(node);
  const pageIdx = nav.pageIdxOf(node);
  const record = nav.coarseRecordOf(node);
  return {
    node_id: node.node_id,
    role: node.role,
    ...(node.label ? { label: node.label } : {}),
    page: pageFromIndex(pageIdx),
    page_idx: pageIdx,
    bbox: node.bboxes[0]?.bbox ?? null,
    boxes: node.bboxes.map((b) => ({ page: pageFromIndex(b.page_idx), bbox: b.bbox })),
    ...(caption ? { caption: caption.text, caption_node_id: caption.node_id } : {}),
    ...(node.img_path ? { img_path: node.img_path } : {}),
    chart_type: record?.filters.chart_type ?? (node.role === 'chart' ? 'statistical' : node.role === 'table' ? 'table' : 'image'),
  };
}

/**
 * `figure_finder.find_regions`: images and charts (and tables when asked) on given pages, in a section or with given
 * labels, with page, boxes, caption and image path — what a vision step crops. With a query, figures are ordered by the
 * share of query terms in their caption (named labels first); without one, in reading order.
 */
export const figureFinderCard: HubToolCard<FigureFinderArgs, FigureFinderData> = {
  id: 'figure_finder.find_regions',
  description:
    'Finds figure regions (images, charts; tables when roles include table) on pages (1-based, ± page_window), in a section (section_id or section_title) or by label, with page, bbox, caption and image path. Args: query, pages, page_window, section_id, section_title, labels, roles, k.',
  args: FigureFinderArgsSchema,
  output: FigureFinderDataSchema,
  kind: 'retrieval',
  async run(args, context) {
    const nav = context.nav;
    const roles = expandRoles(args.roles) ?? ['image', 'chart'];
    const pages = pageFilter(args.pages, args.page_window, nav.pageCount);
    const pageSet = pages ? new Set(pages) : undefined;
    const section = args.section_id || args.section_title ? findSection(nav, { node_id: args.section_id, title: args.section_title }) : undefined;
    const inSection = section ? new Set(nav.view.descendants(section).map((n) => n.node_id)) : undefined;
    const labelTargets = new Set([...(args.labels ?? []), ...findLabels(args.query)].map((l) => nav.resolveLabel(l)).filter((id): id is string => id !== undefined));
    const explicitLabels = (args.labels ?? []).length > 0;
    let nodes = roles.flatMap((r) => nav.nodesWithRole(r)).filter((n) => (!pageSet || pageSet.has(nav.pageIdxOf(n))) && (!inSection || inSection.has(n.node_id)));
    if (explicitLabels) nodes = nodes.filter((n) => labelTargets.has(n.node_id));
    const terms = analyzeQuery(args.query);
    const scored = nodes.map((node) => {
      const captionTerms = nav.terms(node, 'title');
      const overlap = terms.length > 0 ? terms.filter((t) => captionTerms.has(t)).length / terms.length : 0;
      const score = (labelTargets.has(node.node_id) ? 1 : 0) + overlap;
      return { node, score };
    });
    scored.sort((a, b) => b.score - a.score || a.node.read_order - b.node.read_order);
    const top = scored.slice(0, args.k);
    const regions = top.map(({ node }) => figureRegion(nav, node));
    const hits: Hit[] = top.map(({ node, score }, i) => nodeHit(nav, node, { method: 'figure_finder.find_regions', score: score + 1e-3 / (i + 1), extra: { chart_type: regions[i]!.chart_type } }));
    return { hits, data: { regions } };
  },
};
