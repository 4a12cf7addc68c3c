import { DocTreeError, PageIndexDocumentSchema, parseWith, type DocSummary, type DocTree, type DocTreeNode, type PageIndexDocument, type PageIndexNode } from '@doctree/schema';

/**
 * PageIndex interop: a DocTree (sections with page spans and gists) as a PageIndex tree
 * `{doc_name, doc_description, structure:[{title, node_id, start_index, end_index, summary, nodes}]}` with 1-based,
 * inclusive page ranges, and a PageIndex tree back as a Markdown document with page markers that DocTree ingests.
 */

/** File names PageIndex gives its trees (`<name>_structure.json`): read as PageIndex input by collections. */
export const PAGEINDEX_FILE = /_structure\.json$/i;

/**
 * The PageIndex tree of a DocTree: every section node (not the root) with its title, its 1-based page range, its gist
 * from `summary.json` when there is one, and its section children. Node ids are numbered `0000`, `0001`… in reading
 * order, as PageIndex does.
 */
export function toPageIndex(tree: DocTree, options: { docName: string; description: string; summary?: DocSummary }): PageIndexDocument {
  const byId = new Map(tree.nodes.map((n) => [n.node_id, n]));
  const gists = new Map((options.summary?.sections ?? []).map((s) => [s.node_id, s.gist]));
  let counter = 0;
  const convert = (node: DocTreeNode): PageIndexNode => {
    const out: PageIndexNode = {
      title: node.title ?? node.text.slice(0, 80),
      node_id: String(counter++).padStart(4, '0'),
      start_index: node.page_span[0] + 1,
      end_index: node.page_span[1] + 1,
    };
    const gist = gists.get(node.node_id);
    if (gist) out.summary = gist;
    const children = sectionChildren(node);
    if (children.length > 0) out.nodes = children.map(convert);
    return out;
  };
  const sectionChildren = (node: DocTreeNode): DocTreeNode[] =>
    node.children.map((id) => byId.get(id)).filter((n): n is DocTreeNode => n !== undefined && n.role === 'section');
  const root = byId.get(tree.root_id);
  return { doc_name: options.docName, doc_description: options.description, structure: root ? sectionChildren(root).map(convert) : [] };
}

/**
 * Reads a PageIndex tree from JSON text.
 *
 * @throws DocTreeError `SCHEMA_INVALID` naming the file and field.
 */
export function parsePageIndex(text: string, file: string): PageIndexDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('SCHEMA_INVALID', 'not valid JSON', { file, cause, hint: 'Expected a PageIndex tree: {doc_name, doc_description, structure: [...]}.' });
  }
  return parseWith(PageIndexDocumentSchema, raw, { file, what: 'PageIndex tree' });
}

/** Deepest nesting read from a PageIndex tree (deeper nodes are flattened into their ancestor at this depth). */
const MAX_DEPTH = 64;

/**
 * A PageIndex tree as Markdown DocTree ingests: each node a heading (`#` by depth, at most six) placed on its
 * `start_index` page with a `<!-- page N -->` marker, followed by its summary. Pages only move forward: a node that
 * starts before the current page stays on it. Heading text is written on one line, so a title cannot open a block.
 */
export function pageIndexToMarkdown(doc: PageIndexDocument): string {
  const lines: string[] = [];
  let page = 1;
  lines.push('<!-- page 1 -->');
  const oneLine = (text: string): string => text.replace(/[\r\n\f]+/g, ' ').trim();
  const visit = (node: PageIndexNode, depth: number): void => {
    if (node.start_index > page) {
      page = node.start_index;
      lines.push('', `<!-- page ${page} -->`);
    }
    const title = oneLine(node.title) || `Section ${node.node_id}`;
    lines.push('', `${'#'.repeat(Math.min(6, depth))} ${title}`);
    if (node.summary) lines.push('', oneLine(node.summary));
    for (const child of node.nodes ?? []) visit(child, Math.min(depth + 1, MAX_DEPTH));
  };
  for (const node of doc.structure) visit(node, 1);
  return `${lines.join('\n')}\n`;
}
