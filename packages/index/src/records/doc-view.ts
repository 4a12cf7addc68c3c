import type { DocTree, DocTreeNode } from '@doctree/schema';

/** Read-only navigation helpers over a DocTree: lookups, ancestors, subtree walks. */
export class DocView {
  readonly byId: ReadonlyMap<string, DocTreeNode>;

  constructor(readonly tree: DocTree) {
    this.byId = new Map(tree.nodes.map((n) => [n.node_id, n]));
  }

  node(id: string): DocTreeNode | undefined {
    return this.byId.get(id);
  }

  /** Ancestors from the root's child down to the parent (the root itself excluded). */
  ancestors(node: DocTreeNode): DocTreeNode[] {
    const out: DocTreeNode[] = [];
    let current = node.parent_id ? this.byId.get(node.parent_id) : undefined;
    while (current && current.parent_id !== null) {
      out.unshift(current);
      current = current.parent_id ? this.byId.get(current.parent_id) : undefined;
    }
    return out;
  }

  /** Nearest section ancestor (or the root). */
  sectionOf(node: DocTreeNode): DocTreeNode | undefined {
    let current = node.parent_id ? this.byId.get(node.parent_id) : undefined;
    while (current && current.role !== 'section' && current.role !== 'document') current = current.parent_id ? this.byId.get(current.parent_id) : undefined;
    return current;
  }

  /** Heading path `A > B > C` of a node (its own title last when it is a section). */
  headingPath(node: DocTreeNode): string {
    const titles = this.ancestors(node).map((a) => a.title ?? '');
    if (node.role === 'section' && node.title) titles.push(node.title);
    return titles.filter(Boolean).join(' > ');
  }

  /** Every descendant in reading order. */
  descendants(node: DocTreeNode): DocTreeNode[] {
    const out: DocTreeNode[] = [];
    const walk = (n: DocTreeNode): void => {
      for (const id of n.children) {
        const child = this.byId.get(id);
        if (!child) continue;
        out.push(child);
        walk(child);
      }
    };
    walk(node);
    return out;
  }

  /** Direct leaf text of a section (children that are not sections), joined. */
  ownText(node: DocTreeNode): string {
    return node.children
      .map((id) => this.byId.get(id))
      .filter((c): c is DocTreeNode => c !== undefined && c.role !== 'section')
      .map((c) => c.text)
      .filter(Boolean)
      .join('\n');
  }

  /** Whole subtree text (headings included). */
  subtreeText(node: DocTreeNode): string {
    return this.tree.text.slice(node.char_span[0], node.char_span[1]);
  }
}

/** Header cells of a table node: the first `header_rows` rows joined per column. */
export function tableHeader(node: DocTreeNode): string[] {
  const rows = node.table?.rows;
  if (!rows || rows.length === 0) return [];
  const headerRows = Math.max(1, node.table?.header_rows ?? 1);
  const width = Math.max(...rows.slice(0, headerRows).map((r) => r.length));
  const out: string[] = [];
  for (let c = 0; c < width; c++) {
    const parts = rows
      .slice(0, headerRows)
      .map((r) => (r[c] ?? '').trim())
      .filter((v, i, all) => v && all.indexOf(v) === i);
    out.push(parts.join(' '));
  }
  return out;
}

/** Row labels of a table: the first cell of every body row. */
export function tableRowLabels(node: DocTreeNode): string[] {
  const rows = node.table?.rows ?? [];
  const headerRows = Math.max(1, node.table?.header_rows ?? 1);
  return rows
    .slice(headerRows)
    .map((r) => (r.find((cell) => cell.trim().length > 0) ?? '').trim())
    .filter((label) => label.length > 0 && !/^[0-9$(),.%\s-]+$/.test(label));
}
