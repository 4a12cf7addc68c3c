import { DocTreeError, pageFromIndex } from '@doctree/schema';
import type { DocTreeNode, Hit } from '@doctree/schema';
import { z } from 'zod';
import type { HubToolCard } from '../context/tool-context.js';
import type { DocNavigator } from '../navigation/doc-navigator.js';
import { expandRoles, nodeHit, shorten } from '../hits/node-hit.js';

/**
 * The section a caller names: a node id (`sec_7`), a numbering (`2.1`, `Item 7`) or a heading to search
 * (`Sustainability`) — the best BM25F match among sections, headings weighted most.
 *
 * @throws DocTreeError `TOOL_ARGS_INVALID` when nothing is given or nothing matches.
 */
export function findSection(nav: DocNavigator, ref: { node_id?: string | undefined; title?: string | undefined }): DocTreeNode {
  if (ref.node_id) return nav.require(ref.node_id);
  const title = ref.title?.trim();
  if (!title) throw new DocTreeError('TOOL_ARGS_INVALID', 'name the section with node_id or title');
  const byNumber = nav.sectionIdByNumber(title.replace(/\.$/, ''));
  if (byNumber && nav.node(byNumber)) return nav.node(byNumber)!;
  const lower = title.toLowerCase();
  const exact = nav.nodesWithRole('section').find((s) => (s.title ?? '').toLowerCase().replace(/^[0-9.]+\s+/, '') === lower || (s.title ?? '').toLowerCase() === lower);
  if (exact) return exact;
  const hits = nav.index.sparseCoarse.search(title, { k: 1, filter: (doc) => doc.role === 'section', boosts: { heading: 6, headings_path: 1, body: 0.3, caption_bag: 0.3 } });
  const found = hits[0] ? nav.node(hits[0].id) : undefined;
  if (!found) throw new DocTreeError('TOOL_ARGS_INVALID', `no section matches ${JSON.stringify(title)}`, { hint: 'Give the section node_id, its numbering (2.1) or words of its heading.' });
  return found;
}

/** One child as listed by `structure.children`. */
export interface ChildInfo {
  /** 1-based position among the listed children. */
  position: number;
  node_id: string;
  role: string;
  /** Heading of a child section. */
  title?: string;
  label?: string;
  /** Short text (heading, caption or the start of the text). */
  text: string;
  /** 1-based page. */
  page: number;
}

/** Arguments of `structure.children`. */
export const StructureChildrenArgsSchema = z
  .object({
    /** The parent node (section) id. */
    node_id: z.string().min(1).optional(),
    /** Or the section's numbering / heading words. */
    title: z.string().min(1).max(300).optional(),
    /** Keep only these roles (`section` for sub-headings, or groups `figure`, `text`). */
    roles: z.array(z.string().min(1)).max(20).optional(),
    /** Most children listed. */
    limit: z.number().int().min(1).max(500).default(50),
  })
  .refine((a) => a.node_id !== undefined || a.title !== undefined, { message: 'give node_id or title', path: ['node_id'] });
/** Parsed {@link StructureChildrenArgsSchema}. */
export type StructureChildrenArgs = z.infer<typeof StructureChildrenArgsSchema>;

/** Data of `structure.children`. */
export interface StructureChildrenData {
  parent: { node_id: string; title?: string; page: number };
  children: ChildInfo[];
}

/** Zod schema of {@link StructureChildrenData} (the declared output of `structure.children`). */
export const StructureChildrenDataSchema: z.ZodType<StructureChildrenData> = z.object({
  parent: z.object({ node_id: z.string(), title: z.string().optional(), page: z.number().int() }),
  children: z.array(
    z.object({
      position: z.number().int(),
      node_id: z.string(),
      role: z.string(),
      title: z.string().optional(),
      label: z.string().optional(),
      text: z.string(),
      page: z.number().int(),
    }),
  ),
});

/** Short text of a node for listings. */
export function nodeLabelText(nav: DocNavigator, node: DocTreeNode): string {
  if (node.role === 'section') return node.title ?? '';
  if (node.role === 'table' || node.role === 'image' || node.role === 'chart') return shorten(nav.captionOf(node)?.text ?? node.label ?? node.role, 160);
  return shorten(node.text, 160);
}

/** `structure.children`: the ordered children of a section, e.g. to answer "the first sub-heading of …". */
export const structureChildrenCard: HubToolCard<StructureChildrenArgs, StructureChildrenData> = {
  id: 'structure.children',
  description:
    'Lists the ordered children of a section (by node_id, numbering or heading words): sub-sections, paragraphs, lists, tables, figures, with page and short text. Args: node_id or title, roles, limit.',
  args: StructureChildrenArgsSchema,
  output: StructureChildrenDataSchema,
  kind: 'structure',
  async run(args, context) {
    const nav = context.nav;
    const parent = findSection(nav, args);
    const roles = expandRoles(args.roles);
    const children = nav.childrenOf(parent).filter((c) => !roles || roles.includes(c.role)).slice(0, args.limit);
    const listed: ChildInfo[] = children.map((child, i) => ({
      position: i + 1,
      node_id: child.node_id,
      role: child.role,
      ...(child.title ? { title: child.title } : {}),
      ...(child.label ? { label: child.label } : {}),
      text: nodeLabelText(nav, child),
      page: pageFromIndex(nav.pageIdxOf(child)),
    }));
    const hits: Hit[] = children.map((child, i) => nodeHit(nav, child, { method: 'structure.children', score: 1 / (i + 1), extra: { position: i + 1, parent_id: parent.node_id } }));
    return {
      hits,
      data: { parent: { node_id: parent.node_id, ...(parent.title ? { title: parent.title } : {}), page: pageFromIndex(nav.pageIdxOf(parent)) }, children: listed },
    };
  },
};
