import { z } from 'zod';
import { BBoxSchema, CharSpanSchema, PageIdxSchema, PageSpanSchema } from './common.js';
import { IngestWarningSchema, OutlineEntrySchema, PageInfoSchema, SourceInfoSchema } from './content-list.js';

/** Current format version of `doctree.mm.json`. */
export const DOCTREE_VERSION = 1;

/**
 * Node id prefixes: `sec_` sections (the document root is `sec_0`), `t_` text paragraphs, `img_` images,
 * `tab_` tables, `eq_` equations, `list_` lists, `cap_` captions, `code_` code listings.
 * Leaf chunks of a long node add a `#cN` suffix in index records (`t_230#c0`), never in the tree.
 */
export const NodeIdSchema = z
  .string()
  .regex(/^(sec|t|img|tab|eq|list|cap|code)_[0-9]+$/, 'node_id must look like sec_12, t_230, img_3, tab_2, eq_1, list_4, cap_7 or code_1');
export type NodeId = z.infer<typeof NodeIdSchema>;

/** What a node is. */
export const NodeRoleSchema = z.enum([
  'document',
  'section',
  'paragraph',
  'list',
  'table',
  'image',
  'chart',
  'equation',
  'caption',
  'code',
  'footnote',
  'reference',
]);
export type NodeRole = z.infer<typeof NodeRoleSchema>;

/** A box on one page. */
export const PageBoxSchema = z.object({ page_idx: PageIdxSchema, bbox: BBoxSchema });
export type PageBox = z.infer<typeof PageBoxSchema>;

/** A `Figure 3` / `Table 2` reference from a node to another. */
export const NodeRefSchema = z.object({
  label: z.string().min(1),
  target: NodeIdSchema,
  /** Character span of the mention inside the referring node's text. */
  char_span: CharSpanSchema.optional(),
});
export type NodeRef = z.infer<typeof NodeRefSchema>;

/** Parsed table cells; `rows[0]` holds the header row(s) when `header_rows` > 0. */
export const TableDataSchema = z.object({
  html: z.string(),
  markdown: z.string().optional(),
  header_rows: z.number().int().nonnegative().default(1),
  rows: z.array(z.array(z.string())).optional(),
});
export type TableData = z.infer<typeof TableDataSchema>;

/** One node of the tree. */
export const DocTreeNodeSchema = z.object({
  node_id: NodeIdSchema,
  role: NodeRoleSchema,
  parent_id: NodeIdSchema.nullable(),
  children: z.array(NodeIdSchema),
  /** Section depth: 0 for the document root, 1 for top-level sections; leaves take their section's level + 1. */
  level: z.number().int().nonnegative(),
  title: z.string().optional(),
  /** Own text (for sections: the heading only; the body lives in children). */
  text: z.string().default(''),
  /** Numbering of a section heading, e.g. `2.3`, `Item 7`. */
  numbering: z.string().optional(),
  /** `Figure 3`, `Table 2` on figures, tables and their captions. */
  label: z.string().optional(),
  page_span: PageSpanSchema,
  /** Boxes per page (a node spanning pages has several). */
  bboxes: z.array(PageBoxSchema),
  /** Position in reading order over all nodes. */
  read_order: z.number().int().nonnegative(),
  /** Span of this node's own text in `DocTree.text`; for sections, the whole subtree. */
  char_span: CharSpanSchema,
  /** Caption node of a figure/table. */
  caption_id: NodeIdSchema.optional(),
  /** For captions: the figure/table they describe. */
  caption_of: NodeIdSchema.optional(),
  /** Mentions of figures/tables in this node's text. */
  refs: z.array(NodeRefSchema).default([]),
  /** Nodes that mention this one (inverse of `refs`). */
  referenced_by: z.array(NodeIdSchema).default([]),
  table: TableDataSchema.optional(),
  /** Image file path relative to the document folder, when extracted. */
  img_path: z.string().optional(),
  /** Content-list blocks this node was made from. */
  source_block_ids: z.array(z.string()).default([]),
  /** How the node was derived when not from a heading (e.g. `outline`, `toc`, `page_group`). */
  derived_from: z.enum(['heading', 'outline', 'toc', 'page_group', 'root', 'empty_page']).optional(),
});
export type DocTreeNode = z.infer<typeof DocTreeNodeSchema>;

/** Document-level metadata of a tree. */
export const DocumentMetaSchema = z.object({
  doc_id: z.string().min(1),
  title: z.string().optional(),
  source: SourceInfoSchema,
  page_count: z.number().int().nonnegative(),
  pages: z.array(PageInfoSchema),
  outline: z.array(OutlineEntrySchema).default([]),
});
export type DocumentMeta = z.infer<typeof DocumentMetaSchema>;

/** A cycle found by {@link treeCycles}: the node where it closes, its index in `nodes`, the field and the ids around it. */
interface TreeCycle {
  nodeId: string;
  index: number;
  via: 'parent_id' | 'children';
  path: string[];
}

/**
 * Cycles in the `parent_id` chains and in the `children` lists of a tree's nodes (at most one of each kind reported per
 * cycle). Iterative and linear in nodes plus children, so a cyclic tree is reported instead of walked forever.
 */
function treeCycles(nodes: readonly { node_id: string; parent_id: string | null; children: readonly string[] }[]): TreeCycle[] {
  const out: TreeCycle[] = [];
  const indexOf = new Map<string, number>();
  nodes.forEach((n, i) => indexOf.set(n.node_id, i));
  const byId = new Map(nodes.map((n) => [n.node_id, n]));
  // parent_id chains: follow each chain until a node already settled; meeting one of this walk's own nodes is a cycle.
  const settled = new Set<string>();
  for (const node of nodes) {
    const walk: string[] = [];
    const onWalk = new Set<string>();
    let id: string | null = node.node_id;
    while (id !== null && !settled.has(id) && !onWalk.has(id) && byId.has(id)) {
      walk.push(id);
      onWalk.add(id);
      id = byId.get(id)!.parent_id;
    }
    if (id !== null && onWalk.has(id)) out.push({ nodeId: id, index: indexOf.get(id)!, via: 'parent_id', path: [...walk.slice(walk.indexOf(id)), id] });
    for (const w of walk) settled.add(w);
  }
  // children lists: depth-first with an explicit stack; a child still on the stack closes a cycle.
  const state = new Map<string, 'open' | 'done'>();
  for (const node of nodes) {
    if (state.has(node.node_id)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: node.node_id, next: 0 }];
    state.set(node.node_id, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const children = byId.get(top.id)?.children ?? [];
      if (top.next >= children.length) {
        state.set(top.id, 'done');
        stack.pop();
        continue;
      }
      const child = children[top.next++]!;
      const seen = state.get(child);
      if (seen === 'open') {
        const ids = stack.map((s) => s.id);
        out.push({ nodeId: child, index: indexOf.get(child)!, via: 'children', path: [...ids.slice(ids.indexOf(child)), child] });
      } else if (seen === undefined && byId.has(child)) {
        state.set(child, 'open');
        stack.push({ id: child, next: 0 });
      }
    }
  }
  return out;
}

/** `doctree.mm.json`: the navigable tree of one document. */
export const DocTreeSchema = z
  .object({
    format: z.literal('doctree.mm'),
    version: z.literal(DOCTREE_VERSION),
    doc: DocumentMetaSchema,
    /** Canonical document text; every node's `char_span` points into it. */
    text: z.string(),
    root_id: NodeIdSchema,
    /** All nodes in reading order. */
    nodes: z.array(DocTreeNodeSchema),
    warnings: z.array(IngestWarningSchema).default([]),
    generator: z.string(),
  })
  .superRefine((tree, ctx) => {
    const ids = new Set<string>();
    tree.nodes.forEach((node, i) => {
      if (ids.has(node.node_id)) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'node_id'], message: `duplicate node_id ${node.node_id}` });
      ids.add(node.node_id);
      if (node.char_span[1] > tree.text.length) {
        ctx.addIssue({ code: 'custom', path: ['nodes', i, 'char_span'], message: `char_span ends past the document text (${tree.text.length} chars)` });
      }
    });
    if (!ids.has(tree.root_id)) ctx.addIssue({ code: 'custom', path: ['root_id'], message: `root_id ${tree.root_id} is not a node` });
    tree.nodes.forEach((node, i) => {
      if (node.parent_id !== null && !ids.has(node.parent_id)) {
        ctx.addIssue({ code: 'custom', path: ['nodes', i, 'parent_id'], message: `unknown parent ${node.parent_id}` });
      }
      node.children.forEach((child, j) => {
        if (!ids.has(child)) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'children', j], message: `unknown child ${child}` });
      });
    });
    for (const cycle of treeCycles(tree.nodes)) {
      ctx.addIssue({
        code: 'custom',
        path: ['nodes', cycle.index, cycle.via],
        message: `${cycle.via === 'parent_id' ? 'parent' : 'children'} cycle at node ${cycle.nodeId} (${cycle.path.slice(0, 6).join(' → ')}${cycle.path.length > 6 ? ' → …' : ''}): a node cannot be its own ancestor; re-run ingest to rebuild doctree.mm.json`,
      });
    }
  });
export type DocTree = z.infer<typeof DocTreeSchema>;
