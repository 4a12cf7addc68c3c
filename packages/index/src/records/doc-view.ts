import { DocTreeError, type DocTree, type DocTreeNode } from '@doctree/schema';

/** Read-only navigation helpers over a DocTree: lookups, ancestors, subtree walks. */
export class DocView {
  readonly byId: ReadonlyMap<string, DocTreeNode>;

  /**
   * @throws DocTreeError `SCHEMA_INVALID` when a `parent_id` chain loops (a tree loaded without full validation), so
   * ancestor walks always end.
   */
  constructor(readonly tree: DocTree) {
    this.byId = new Map(tree.nodes.map((n) => [n.node_id, n]));
    const settled = new Set<string>();
    for (const node of tree.nodes) {
      const walk = new Set<string>();
      let current: DocTreeNode | undefined = node;
      while (current && !settled.has(current.node_id)) {
        if (walk.has(current.node_id)) {
          throw new DocTreeError('SCHEMA_INVALID', `invalid DocTree: parent cycle at node ${current.node_id}`, {
            nodeId: current.node_id,
            hint: 'The parent_id chain of this node leads back to it; re-run ingest to rebuild doctree.mm.json.',
          });
        }
        walk.add(current.node_id);
        current = current.parent_id ? this.byId.get(current.parent_id) : undefined;
      }
      for (const id of walk) settled.add(id);
    }
  }

  node(id: string): DocTreeNode | undefined {
    return this.byId.get(id);
  }

  /** Ancestors from the root's child down to the parent (the root itself excluded). */
  ancestors(node: DocTreeNode): DocTreeNode[] {
    const out: DocTreeNode[] = [];
    const seen = new Set<string>([node.node_id]);
    let current = node.parent_id ? this.byId.get(node.parent_id) : undefined;
    // `seen` bounds the walk even on a node that is not part of the tree the constructor checked.
    while (current && current.parent_id !== null && !seen.has(current.node_id)) {
      seen.add(current.node_id);
      out.push(current);
      current = current.parent_id ? this.byId.get(current.parent_id) : undefined;
    }
    return out.reverse();
  }

  /** Nearest section ancestor (or the root). */
  sectionOf(node: DocTreeNode): DocTreeNode | undefined {
    const seen = new Set<string>([node.node_id]);
    let current = node.parent_id ? this.byId.get(node.parent_id) : undefined;
    while (current && current.role !== 'section' && current.role !== 'document') {
      if (seen.has(current.node_id)) return undefined;
      seen.add(current.node_id);
      current = current.parent_id ? this.byId.get(current.parent_id) : undefined;
    }
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
    // Each node once: a `children` list that loops back (or a node listed twice) cannot make the walk endless.
    const seen = new Set<string>([node.node_id]);
    const walk = (n: DocTreeNode): void => {
      for (const id of n.children) {
        const child = this.byId.get(id);
        if (!child || seen.has(id)) continue;
        seen.add(id);
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
