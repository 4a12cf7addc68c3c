import { escapeRegExp, PageNumberSchema, pageFromIndex } from '@doctree/schema';
import type { DocTreeNode, Hit } from '@doctree/schema';
import { analyzeQuery, analyzeText } from '@doctree/index';
import { z } from 'zod';
import type { HubToolCard } from '../context/tool-context.js';
import { FIGURE_ROLES, type DocNavigator } from '../navigation/doc-navigator.js';
import { nodeHit } from '../hits/node-hit.js';
import { pageFilter } from '../retrieval/lane-args.js';
import { findSection, nodeLabelText } from './structure-children.js';

/** Kinds of document object `structure.count` counts. */
export const COUNTED_OBJECTS = ['figure', 'chart', 'image', 'table', 'equation', 'heading'] as const;

/** Arguments of `structure.count`. */
export const StructureCountArgsSchema = z
  .object({
    /**
     * What to count: `figure` / `image` / `chart` (figure nodes, and figure captions whose figure ingest did not keep),
     * `table` (table nodes and orphan table captions), `equation`, or `heading` (sections whose heading starts with
     * `heading_word`, e.g. "Appendix C").
     */
    object: z.enum(COUNTED_OBJECTS),
    /** For `heading`: the word the headings start with (`appendix`, `chapter`). */
    heading_word: z.string().min(1).max(40).optional(),
    /** Count the pages that hold at least one such object instead of the objects. */
    per_page: z.boolean().default(false),
    /** Keep objects starting on these 1-based pages. */
    pages: z.array(PageNumberSchema).max(200).optional(),
    /** Keep objects inside this section (its numbering or heading words). */
    section_title: z.string().min(1).max(300).optional(),
    /** Words or phrases every counted object must contain (caption, heading or table text), case-insensitive. */
    required: z.array(z.string().min(1).max(80)).max(10).default([]),
    /**
     * Words that narrow what is counted: when some objects' captions / headings / table headers hold one of them, only
     * those are counted; when none do, every object is counted and `qualified` is false.
     */
    qualifiers: z.array(z.string().min(1).max(80)).max(30).default([]),
    /** Most counted items listed (the count itself is not capped). */
    limit: z.number().int().min(1).max(500).default(100),
  })
  .refine((a) => a.object !== 'heading' || a.heading_word !== undefined, { message: 'a heading count needs heading_word', path: ['heading_word'] });
/** Parsed {@link StructureCountArgsSchema}. */
export type StructureCountArgs = z.infer<typeof StructureCountArgsSchema>;

/** One counted object (or, with `per_page`, the first counted object of a page). */
export interface CountedItem {
  node_id: string;
  role: string;
  /** 1-based page where it starts. */
  page: number;
  label?: string;
  /** Its caption, heading or first words. */
  text: string;
}

/** Data of `structure.count`. */
export interface StructureCountData {
  /** The count: objects, or pages holding one (`unit`). */
  total: number;
  unit: 'objects' | 'pages';
  object: StructureCountArgs['object'];
  /** What was counted and where, in words (for traces and answers). */
  description: string;
  /** The counted objects (one per page with `per_page`), in reading order, at most `limit`. */
  items: CountedItem[];
  /** 1-based pages holding a counted object, sorted. */
  pages: number[];
  /** The section counted in, when one was named and found. */
  section?: { node_id: string; title?: string };
  /** True when the qualifiers narrowed the count (some objects matched them). */
  qualified: boolean;
}

/** Zod schema of {@link StructureCountData} (the declared output of `structure.count`). */
export const StructureCountDataSchema: z.ZodType<StructureCountData> = z.object({
  total: z.number().int().nonnegative(),
  unit: z.enum(['objects', 'pages']),
  object: z.enum(COUNTED_OBJECTS),
  description: z.string(),
  items: z.array(z.object({ node_id: z.string(), role: z.string(), page: z.number().int(), label: z.string().optional(), text: z.string() })),
  pages: z.array(z.number().int()),
  section: z.object({ node_id: z.string(), title: z.string().optional() }).optional(),
  qualified: z.boolean(),
});


/** The label kind word of a caption (`Figure 3` → figure, `Table 2` → table), or undefined. */
function captionKind(caption: DocTreeNode): 'figure' | 'table' | undefined {
  const label = caption.label ?? /^\s*((?:fig(?:ure)?|table|tab)\.?\s*[0-9]+[a-z]?)/i.exec(caption.text)?.[1];
  if (!label) return undefined;
  return /^tab/i.test(label.trim()) ? 'table' : /^fig/i.test(label.trim()) ? 'figure' : undefined;
}

/** The candidate nodes of an object kind, in reading order (captions stand for figures / tables ingest did not keep). */
function candidates(nav: DocNavigator, args: StructureCountArgs): DocTreeNode[] {
  if (args.object === 'heading') {
    const word = args.heading_word!.trim().toLowerCase();
    const starts = new RegExp(`^\\s*(?:[0-9]+(?:\\.[0-9]+)*\\.?\\s+)?${escapeRegExp(word)}(?:\\s+([A-Z]|[0-9]+(?:\\.[0-9]+)*|[IVXLC]+)\\b|\\s*[:.–—-]|\\s*$)`, 'i');
    const seen = new Set<string>();
    const out: DocTreeNode[] = [];
    for (const s of nav.nodesWithRole('section')) {
      const m = starts.exec(s.title ?? '');
      if (!m) continue;
      // "Appendix A" twice (a contents page, then the appendix) counts once.
      const key = (m[1] ?? s.title ?? '').trim().toUpperCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(s);
    }
    return out;
  }
  if (args.object === 'equation') return [...nav.nodesWithRole('equation')];
  const wanted = args.object === 'table' ? 'table' : 'figure';
  const objects = args.object === 'table' ? [...nav.nodesWithRole('table')] : FIGURE_ROLES_LIST.flatMap((r) => [...nav.nodesWithRole(r)]);
  const labelled = new Set(objects.map((o) => o.label).filter((l): l is string => l !== undefined).map((l) => l.toLowerCase()));
  const orphans = nav.nodesWithRole('caption').filter((c) => {
    if (captionKind(c) !== wanted) return false;
    const target = c.caption_of ? nav.node(c.caption_of) : undefined;
    if (target && (wanted === 'table' ? target.role === 'table' : FIGURE_ROLES.has(target.role))) return false;
    return !(c.label && labelled.has(c.label.toLowerCase()));
  });
  return [...objects, ...orphans].sort((a, b) => a.read_order - b.read_order);
}

const FIGURE_ROLES_LIST = [...FIGURE_ROLES];

/** The text an object is matched against: caption and label (figures), caption and table text, heading, or own text. */
function matchText(nav: DocNavigator, node: DocTreeNode): string {
  if (node.role === 'section') return node.title ?? '';
  const caption = nav.captionOf(node)?.text ?? '';
  if (node.role === 'table') return `${caption}\n${node.label ?? ''}\n${node.text}`;
  if (FIGURE_ROLES.has(node.role)) return `${caption}\n${node.label ?? ''}`;
  return `${node.label ?? ''}\n${node.text}`;
}

/** 0-based pages a node covers. */
function pagesOf(node: DocTreeNode): number[] {
  const out: number[] = [];
  for (let p = node.page_span[0]; p <= node.page_span[1]; p++) out.push(p);
  return out;
}

/**
 * `structure.count`: counts document objects from the DocTree — figures, charts, images, tables, equations, or
 * headings that start with a word ("Appendix …") — in the whole document, in a section or on pages, optionally only
 * those whose caption / heading / table text holds required words or the question's qualifying words, or the pages
 * holding such objects. Counting from the tree sees every object, not only the ones retrieval returned.
 */
export const structureCountCard: HubToolCard<StructureCountArgs, StructureCountData> = {
  id: 'structure.count',
  description:
    'Counts document objects from the tree (figure, chart, image, table, equation, or heading starting with heading_word) in the document, a section (section_title) or on 1-based pages; required words must occur in each counted object, qualifiers narrow the count when some objects hold them; per_page counts pages holding one. Args: object, heading_word, per_page, pages, section_title, required, qualifiers, limit.',
  args: StructureCountArgsSchema,
  output: StructureCountDataSchema,
  kind: 'structure',
  async run(args, context) {
    const nav = context.nav;
    const pageSet = (() => {
      const pages = pageFilter(args.pages, 0, nav.pageCount);
      return pages ? new Set(pages) : undefined;
    })();
    const section = args.section_title ? findSection(nav, { title: args.section_title }) : undefined;
    const inSection = section ? new Set(nav.view.descendants(section).map((n) => n.node_id)) : undefined;
    let nodes = candidates(nav, args).filter((n) => (!pageSet || pagesOf(n).some((p) => pageSet.has(p))) && (!inSection || inSection.has(n.node_id)));
    const required = args.required.map((r) => new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(r.trim()).replace(/\s+/g, '\\s+')}(?![A-Za-z0-9])`, 'i'));
    if (required.length > 0) nodes = nodes.filter((n) => required.every((r) => r.test(matchText(nav, n))));
    const qualifierTerms = [...new Set(args.qualifiers.flatMap((q) => analyzeQuery(q)))];
    let qualified = false;
    if (qualifierTerms.length > 0) {
      const matching = nodes.filter((n) => {
        const terms = new Set(analyzeText(matchText(nav, n)));
        return qualifierTerms.some((t) => terms.has(t));
      });
      if (matching.length > 0) {
        nodes = matching;
        qualified = true;
      }
    }
    const pages = [...new Set(nodes.flatMap((n) => pagesOf(n).filter((p) => !pageSet || pageSet.has(p))))].sort((a, b) => a - b);
    let listed = nodes;
    if (args.per_page) {
      const firstOnPage = new Map<number, DocTreeNode>();
      for (const n of nodes) for (const p of pagesOf(n)) if ((!pageSet || pageSet.has(p)) && !firstOnPage.has(p)) firstOnPage.set(p, n);
      listed = [...new Set(pages.map((p) => firstOnPage.get(p)!))];
    }
    const items: CountedItem[] = listed.slice(0, args.limit).map((n) => ({
      node_id: n.node_id,
      role: n.role,
      page: pageFromIndex(nav.pageIdxOf(n)),
      ...(n.label ? { label: n.label } : {}),
      text: nodeLabelText(nav, n),
    }));
    const total = args.per_page ? pages.length : nodes.length;
    const what = args.object === 'heading' ? `"${args.heading_word}" heading(s)` : `${args.object}(s)`;
    const where = [section ? `in "${section.title ?? section.node_id}"` : '', args.pages && args.pages.length > 0 ? `on page(s) ${args.pages.join(', ')}` : '', required.length > 0 ? `containing ${args.required.map((r) => JSON.stringify(r)).join(', ')}` : '', qualified ? `matching ${qualifierTerms.join('/')}` : '']
      .filter(Boolean)
      .join(' ');
    const description = args.per_page ? `${total} page(s) holding ${what}${where ? ` ${where}` : ''}` : `${total} ${what}${where ? ` ${where}` : ''}`;
    const hits: Hit[] = listed.slice(0, args.limit).map((n, i) => nodeHit(nav, n, { method: 'structure.count', score: 1 / (i + 1), extra: { counted: true } }));
    return {
      hits,
      data: {
        total,
        unit: args.per_page ? 'pages' : 'objects',
        object: args.object,
        description,
        items,
        pages: pages.map(pageFromIndex),
        ...(section ? { section: { node_id: section.node_id, ...(section.title ? { title: section.title } : {}) } } : {}),
        qualified,
      },
    };
  },
};
