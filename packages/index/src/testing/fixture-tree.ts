import { DocTreeSchema } from '@doctree/schema';
import type { DocTree, DocTreeNode, TableData } from '@doctree/schema';

/** One node of a fixture: the DocTree node fields that matter, its parent and its page. */
export interface FixtureNode extends Partial<Omit<DocTreeNode, 'node_id' | 'role' | 'table'>> {
  node_id: string;
  role: DocTreeNode['role'];
  /** Parent node id (`null` for the root). */
  parent: string | null;
  /** 0-based page. Default 0. */
  page?: number;
  /** Table cells; the HTML is generated from `rows` when only rows are given. */
  table?: Partial<TableData> & { rows?: string[][] };
}

/** Document-level fields of a fixture. */
export interface FixtureDocument {
  doc_id: string;
  title: string;
  page_count: number;
  /** sha256 recorded as the source's. Default 64 × `a`. */
  source_sha256?: string;
  /** `generator` of the tree. Default `fixture`. */
  generator?: string;
  /** Printed page labels by 0-based page. */
  page_labels?: Readonly<Record<number, string>>;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A plain HTML table of rows (header rows in `<thead>` with `<th>` cells). */
export function rowsToHtml(rows: readonly (readonly string[])[], headerRows = 1): string {
  const tr = (cells: readonly string[], tag: 'th' | 'td'): string => `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
  const head = rows.slice(0, headerRows).map((r) => tr(r, 'th')).join('');
  const body = rows.slice(headerRows).map((r) => tr(r, 'td')).join('');
  return `<table>${head ? `<thead>${head}</thead>` : ''}<tbody>${body}</tbody></table>`;
}

/**
 * Builds a valid DocTree (checked with `DocTreeSchema`) from a flat node list in reading order: children lists,
 * canonical text and char spans, one box per node on its page, `referenced_by` from `refs`, section page spans and
 * char spans covering their subtrees. Leaves get `level` = their section's + 1 unless given.
 */
export function buildFixtureTree(doc: FixtureDocument, specs: readonly FixtureNode[]): DocTree {
  let text = '';
  const nodes: DocTreeNode[] = specs.map((spec, i) => {
    const { parent, page: pageOption, table, ...rest } = spec;
    const own = spec.text ?? (spec.role === 'section' || spec.role === 'document' ? spec.title ?? '' : '');
    if (text && own) text += '\n\n';
    const start = text.length;
    text += own;
    const page = pageOption ?? 0;
    const node: DocTreeNode = {
      children: [],
      level: spec.role === 'document' ? 0 : 1,
      page_span: [page, page],
      bboxes: spec.role === 'document' ? [] : [{ page_idx: page, bbox: [72, 80 + (i % 40) * 16, 540, 94 + (i % 40) * 16] }],
      read_order: i,
      char_span: [start, text.length],
      refs: [],
      referenced_by: [],
      source_block_ids: [],
      ...rest,
      text: own,
      parent_id: parent,
    };
    if (table) {
      const rows = table.rows;
      node.table = {
        html: table.html ?? (rows ? rowsToHtml(rows, table.header_rows ?? 1) : ''),
        header_rows: table.header_rows ?? 1,
        ...(rows ? { rows } : {}),
        ...(table.markdown ? { markdown: table.markdown } : {}),
      };
    }
    return node;
  });
  const byId = new Map(nodes.map((n) => [n.node_id, n]));
  for (const node of nodes) {
    if (node.parent_id) byId.get(node.parent_id)?.children.push(node.node_id);
    for (const ref of node.refs) byId.get(ref.target)?.referenced_by.push(node.node_id);
  }
  // Levels: sections one below their parent section; leaves one below their section.
  for (const node of nodes) {
    const spec = specs.find((s) => s.node_id === node.node_id)!;
    if (spec.level !== undefined || node.role === 'document') continue;
    const parent = node.parent_id ? byId.get(node.parent_id) : undefined;
    node.level = (parent?.level ?? 0) + 1;
  }
  for (const node of [...nodes].reverse()) {
    for (const id of node.children) {
      const child = byId.get(id)!;
      node.char_span = [node.char_span[0], Math.max(node.char_span[1], child.char_span[1])];
      if (node.role !== 'document') node.page_span = [Math.min(node.page_span[0], child.page_span[0]), Math.max(node.page_span[1], child.page_span[1])];
    }
  }
  const root = nodes.find((n) => n.parent_id === null)!;
  root.char_span = [0, text.length];
  root.page_span = [0, Math.max(0, doc.page_count - 1)];
  return DocTreeSchema.parse({
    format: 'doctree.mm',
    version: 1,
    doc: {
      doc_id: doc.doc_id,
      title: doc.title,
      source: { filename: `${doc.doc_id}.pdf`, kind: 'pdf', sha256: doc.source_sha256 ?? 'a'.repeat(64), bytes: 1000 },
      page_count: doc.page_count,
      pages: Array.from({ length: doc.page_count }, (_, p) => ({
        page_idx: p,
        width: 612,
        height: 792,
        has_text_layer: true,
        ...(doc.page_labels?.[p] !== undefined ? { label: doc.page_labels[p] } : {}),
      })),
    },
    text,
    root_id: root.node_id,
    nodes,
    generator: doc.generator ?? 'fixture',
  });
}
