import type { DocTree, DocTreeNode, PageFacts, PageSparseDoc } from '@doctree/schema';
import { DocView } from './doc-view.js';
import { findYears } from './text-features.js';

/** The page view of a document: one BM25F document per page with text, and what the index keeps of each page. */
export interface PageRecords {
  /** One document per page with text, ascending by page (`P<1-based page>`, `filters.page_idx`). */
  docs: PageSparseDoc[];
  /** The same pages, in the same order, with the years written on each. */
  pages: PageFacts[];
}

/**
 * Nodes by the page their text belongs to, in reading order, pages ascending: a node's text counts on the page of its
 * first box (else the first page of its span), once — a paragraph or table running over a page break is not indexed
 * twice. The document root is left out.
 */
function nodesByPage(tree: DocTree): Map<number, DocTreeNode[]> {
  const pages = new Map<number, DocTreeNode[]>();
  for (const node of tree.nodes) {
    if (node.role === 'document') continue;
    const pageIdx = node.bboxes[0]?.page_idx ?? node.page_span[0];
    const list = pages.get(pageIdx);
    if (list) list.push(node);
    else pages.set(pageIdx, [node]);
  }
  for (const list of pages.values()) list.sort((a, b) => a.read_order - b.read_order);
  return new Map([...pages].sort((a, b) => a[0] - b[0]));
}

/** Titles of the node's enclosing sections (and the document's own title), outermost first, at most 8 levels. */
function sectionPath(view: DocView, node: DocTreeNode): string {
  const titles: string[] = [];
  let section = view.sectionOf(node);
  for (let depth = 0; section && depth < 8; depth++) {
    const title = section.title ?? '';
    if (title.trim()) titles.unshift(title.trim());
    section = view.sectionOf(section);
  }
  return titles.join(' > ');
}

/** The page document of one page's nodes; undefined when none of them has text. */
function pageDoc(view: DocView, pageIdx: number, nodes: readonly DocTreeNode[]): PageSparseDoc | undefined {
  const body: string[] = [];
  const headings: string[] = [];
  const captions: string[] = [];
  const paths = new Set<string>();
  for (const node of nodes) {
    const text = node.text.trim();
    if (node.role === 'section') {
      if (text) {
        headings.push(text);
        body.push(text);
      }
      continue;
    }
    if (text) body.push(text);
    if (node.role === 'caption' && text) captions.push(text);
    const path = sectionPath(view, node);
    if (path) paths.add(path);
  }
  if (body.length === 0) return undefined;
  return {
    id: `P${pageIdx + 1}`,
    role: 'section',
    body: body.join('\n'),
    ...(headings.length > 0 ? { heading: headings.join('\n') } : {}),
    ...(paths.size > 0 ? { headings_path: [...paths].join('\n') } : {}),
    ...(captions.length > 0 ? { caption: captions.join('\n') } : {}),
    filters: { page_idx: pageIdx },
  };
}

/**
 * Builds the page view of a DocTree: every page with text becomes one BM25F document (`body` = the text of the nodes
 * whose text starts on the page, headings included; `heading` = headings of sections starting there; `headings_path`
 * = the section paths of its nodes; `caption` = figure and table captions on it), with the years written on it (in
 * its body, section paths and captions). Pure: no I/O. The index build persists the result (`sparse_pages.jsonl`,
 * `bm25_pages.json`, `pages.json`) so that a loaded index searches pages without building anything.
 *
 * @example
 * ```ts
 * const { docs, pages } = buildPageRecords(tree);
 * docs[0];  // { id: 'P1', role: 'section', body: 'Annual Report 2023\n…', filters: { page_idx: 0 } }
 * pages[0]; // { page_idx: 0, years: [2023] }
 * ```
 */
export function buildPageRecords(tree: DocTree): PageRecords {
  const view = new DocView(tree);
  const docs: PageSparseDoc[] = [];
  const pages: PageFacts[] = [];
  for (const [pageIdx, nodes] of nodesByPage(tree)) {
    const doc = pageDoc(view, pageIdx, nodes);
    if (!doc) continue;
    docs.push(doc);
    pages.push({ page_idx: pageIdx, years: findYears([doc.body, doc.headings_path, doc.caption].filter(Boolean).join('\n')) });
  }
  return { docs, pages };
}
