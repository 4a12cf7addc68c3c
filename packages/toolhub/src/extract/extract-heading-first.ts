import { pageFromIndex } from '@doctree/schema';
import type { DocTreeNode, Hit } from '@doctree/schema';
import { z } from 'zod';
import type { HubToolCard } from '../context/tool-context.js';
import type { DocNavigator } from '../navigation/doc-navigator.js';
import { nodeHit } from '../hits/node-hit.js';
import { findSection } from '../structure/structure-children.js';

/** What `extract.heading_first` looks for under a section. */
export type FirstKind = 'sub_heading' | 'item' | 'paragraph' | 'any';

/** The first thing found under a section. */
export interface FirstFound {
  node_id: string;
  role: string;
  /** The sub-heading's title, the list item's text, or the paragraph's text. */
  text: string;
  /** 1-based page. */
  page: number;
  /** For list items: 1-based position of the item in its list. */
  item_index?: number;
}

/** Data of `extract.heading_first`. */
export interface HeadingFirstData {
  section: { node_id: string; title?: string; page: number };
  kind: FirstKind;
  /** What was found, or null (with `reason`). */
  first: FirstFound | null;
  reason?: string;
}

/** Zod schema of {@link HeadingFirstData} (the card's declared output). */
export const HeadingFirstDataSchema: z.ZodType<HeadingFirstData> = z.object({
  section: z.object({ node_id: z.string(), title: z.string().optional(), page: z.number().int() }),
  kind: z.enum(['sub_heading', 'item', 'paragraph', 'any']),
  first: z.object({ node_id: z.string(), role: z.string(), text: z.string(), page: z.number().int(), item_index: z.number().int().optional() }).nullable(),
  reason: z.string().optional(),
});

/** Items of a list node's text: one per line, bullets and numbering (`•`, `-`, `1.`, `(a)`) removed. */
export function listItems(text: string): string[] {
  return text
    .split(/\n+/)
    .map((line) => line.replace(/^\s*(?:[-–•*·▪◦]|\(?[0-9]{1,3}[.)]|\(?[a-z][.)])\s+/i, '').trim())
    .filter((line) => line.length > 0);
}

/**
 * The first sub-heading (`sub_heading`), list item (`item`), paragraph (`paragraph`) or content node (`any`) under a
 * section, in reading order (items and paragraphs are searched in the whole subtree; sub-headings among the direct
 * children, then deeper).
 */
export function findFirst(nav: DocNavigator, section: DocTreeNode, kind: FirstKind): FirstFound | null {
  const page = (n: DocTreeNode): number => pageFromIndex(nav.pageIdxOf(n));
  if (kind === 'sub_heading') {
    const sub = nav.childrenOf(section).find((c) => c.role === 'section') ?? nav.view.descendants(section).find((c) => c.role === 'section');
    return sub ? { node_id: sub.node_id, role: sub.role, text: sub.title ?? sub.text, page: page(sub) } : null;
  }
  const descendants = nav.view.descendants(section);
  if (kind === 'item') {
    const list = descendants.find((d) => d.role === 'list' && listItems(d.text).length > 0);
    if (!list) return null;
    return { node_id: list.node_id, role: 'list', text: listItems(list.text)[0]!, page: page(list), item_index: 1 };
  }
  const wanted = kind === 'paragraph' ? (d: DocTreeNode): boolean => d.role === 'paragraph' : (d: DocTreeNode): boolean => d.role !== 'section' && (d.text.trim().length > 0 || d.role === 'table' || d.role === 'image' || d.role === 'chart');
  const found = descendants.find((d) => wanted(d) && d.role !== 'caption');
  return found ? { node_id: found.node_id, role: found.role, text: found.text || found.label || found.role, page: page(found) } : null;
}

/** Arguments of `extract.heading_first`. */
export const HeadingFirstArgsSchema = z
  .object({
    /** The section node id. */
    node_id: z.string().min(1).optional(),
    /** Or its numbering (`2.1`) / heading words (`Sustainability`). */
    title: z.string().min(1).max(300).optional(),
    /** What to find: the first sub-heading (default), list item, paragraph, or any content. */
    kind: z.enum(['sub_heading', 'item', 'paragraph', 'any']).default('sub_heading'),
  })
  .refine((a) => a.node_id !== undefined || a.title !== undefined, { message: 'give node_id or title', path: ['node_id'] });
/** Parsed {@link HeadingFirstArgsSchema}. */
export type HeadingFirstArgs = z.infer<typeof HeadingFirstArgsSchema>;

/** `extract.heading_first`: "the first sub-heading / item under section X" (see {@link findFirst}). */
export const extractHeadingFirstCard: HubToolCard<HeadingFirstArgs, HeadingFirstData> = {
  id: 'extract.heading_first',
  description:
    'Finds the first sub-heading, list item, paragraph or content node under a section (node_id, numbering or heading words). Args: node_id or title, kind (sub_heading | item | paragraph | any).',
  args: HeadingFirstArgsSchema,
  output: HeadingFirstDataSchema,
  kind: 'extract',
  async run(args, context) {
    const nav = context.nav;
    const section = findSection(nav, args);
    const first = findFirst(nav, section, args.kind);
    const hits: Hit[] = [];
    if (first) hits.push(nodeHit(nav, nav.require(first.node_id), { method: 'extract.heading_first', score: 1, extra: { kind: args.kind, asked_section: section.node_id } }));
    return {
      hits,
      data: {
        section: { node_id: section.node_id, ...(section.title ? { title: section.title } : {}), page: pageFromIndex(nav.pageIdxOf(section)) },
        kind: args.kind,
        first,
        ...(first ? {} : { reason: `${section.node_id} has no ${args.kind.replace('_', '-')} under it` }),
      },
    };
  },
};
