import { DocTreeError, SECTION_VARIANT_SUFFIX } from '@doctree/schema';
import type { DenseCoarseRecord, DenseLeafRecord, DocTreeNode } from '@doctree/schema';
import { analyzeText, findUnits, findYears, tableHeader, tableRowLabels } from '@doctree/index';
import type { DocIndex, DocView } from '@doctree/index';
import { readTable, type TableGrid } from '../table/table-reader.js';

/** Roles of figure-like nodes. */
export const FIGURE_ROLES: ReadonlySet<string> = new Set(['image', 'chart']);

/** The id `map` holds under `key` as its own string property (id maps are JSON objects; keys come from questions). */
function ownId(map: Readonly<Record<string, string>>, key: string): string | undefined {
  const id: unknown = Object.hasOwn(map, key) ? map[key] : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Descriptive text fields of a node used by rerank features (all plain strings, possibly empty). */
export interface NodeSurface {
  /** Own title: a section heading, the caption of a figure/table, else empty. */
  title: string;
  /** Heading path of the node (`2 Method > 2.3 Training`). */
  path: string;
  /** `Figure 3`, `Table 2` (own label, or the label of the captioned object). */
  label: string;
  /** Table header and row labels (tables), or the child surface of a section (child headings, captions, schemas). */
  schema: string;
  /** Body text: own text for leaves, table text for tables, the gist for sections. */
  body: string;
  /** Units found in the node (`%`, `$`, `millions`…). */
  units: string[];
  /** Years mentioned by the node (table header years, section years…). */
  years: number[];
}

/**
 * Navigation helpers over a loaded {@link DocIndex} (docs/design/index-features.md §3.5): nodes, sections, siblings,
 * nodes on a page, captions, referrers, parsed tables and analysed surfaces, each computed once and cached.
 * Get the shared instance of an index with {@link navigatorFor}.
 */
export class DocNavigator {
  readonly #pages = new Map<number, DocTreeNode[]>();
  readonly #tables = new Map<string, TableGrid>();
  readonly #surfaces = new Map<string, NodeSurface>();
  readonly #terms = new Map<string, ReadonlySet<string>>();
  readonly #byRole = new Map<string, DocTreeNode[]>();
  #referrers: Map<string, string[]> | undefined;
  #sectionsByPage: Map<number, DocTreeNode[]> | undefined;

  /** Wraps an index; prefer {@link navigatorFor}, which caches one navigator per index. */
  constructor(readonly index: DocIndex) {}

  /** The tree view of the index. */
  get view(): DocView {
    return this.index.view;
  }

  /** Document id. */
  get docId(): string {
    return this.index.tree.doc.doc_id;
  }

  /** Number of pages of the document. */
  get pageCount(): number {
    return this.index.tree.doc.page_count;
  }

  /** The node with this id, or undefined. */
  node(id: string): DocTreeNode | undefined {
    return this.index.view.node(id);
  }

  /**
   * The node with this id.
   *
   * @throws DocTreeError `TOOL_ARGS_INVALID` naming the id when the document has no such node.
   */
  require(id: string): DocTreeNode {
    const node = this.index.view.node(id);
    if (!node) {
      throw new DocTreeError('TOOL_ARGS_INVALID', `node ${JSON.stringify(id)} is not in document ${this.docId}`, {
        nodeId: id,
        hint: 'Use a node_id returned by a retrieval tool (e.g. sec_3, t_12, tab_2).',
      });
    }
    return node;
  }

  /** 0-based page where a node starts (`page_span[0]`, as in the index records' `filters.page_idx`). */
  pageIdxOf(node: DocTreeNode): number {
    return node.page_span[0];
  }

  /** The parent node (undefined for the root). */
  parentOf(node: DocTreeNode): DocTreeNode | undefined {
    return node.parent_id ? this.node(node.parent_id) : undefined;
  }

  /** Nearest enclosing section (or the document root); a section's own section is its parent section. */
  sectionOf(node: DocTreeNode): DocTreeNode | undefined {
    return this.index.view.sectionOf(node);
  }

  /** Ordered children of a node. */
  childrenOf(node: DocTreeNode): DocTreeNode[] {
    return node.children.map((id) => this.node(id)).filter((n): n is DocTreeNode => n !== undefined);
  }

  /** Up to `max` siblings nearest to the node in its parent's order, alternating previous / next (previous first). */
  nearestSiblings(node: DocTreeNode, max: number): DocTreeNode[] {
    const parent = this.parentOf(node);
    if (!parent || max <= 0) return [];
    const siblings = this.childrenOf(parent);
    const at = siblings.findIndex((s) => s.node_id === node.node_id);
    const out: DocTreeNode[] = [];
    for (let d = 1; out.length < max && (at - d >= 0 || at + d < siblings.length); d++) {
      const before = siblings[at - d];
      const after = siblings[at + d];
      if (before) out.push(before);
      if (after && out.length < max) out.push(after);
    }
    return out;
  }

  /** Content nodes (not sections) on a 0-based page, in reading order. */
  nodesOnPage(pageIdx: number): DocTreeNode[] {
    let list = this.#pages.get(pageIdx);
    if (!list) {
      list = this.index.graph
        .onPage(pageIdx + 1)
        .map((id) => this.node(id))
        .filter((n): n is DocTreeNode => n !== undefined)
        .sort((a, b) => a.read_order - b.read_order);
      this.#pages.set(pageIdx, list);
    }
    return list;
  }

  /** Nodes of one role, in reading order (cached). */
  nodesWithRole(role: string): readonly DocTreeNode[] {
    let list = this.#byRole.get(role);
    if (!list) {
      list = this.index.tree.nodes.filter((n) => n.role === role);
      this.#byRole.set(role, list);
    }
    return list;
  }

  /** Sections whose heading is on a 0-based page, in reading order. */
  sectionsStartingOn(pageIdx: number): DocTreeNode[] {
    if (!this.#sectionsByPage) {
      this.#sectionsByPage = new Map();
      for (const node of this.index.tree.nodes) {
        if (node.role !== 'section') continue;
        const p = this.pageIdxOf(node);
        const list = this.#sectionsByPage.get(p);
        if (list) list.push(node);
        else this.#sectionsByPage.set(p, [node]);
      }
    }
    return this.#sectionsByPage.get(pageIdx) ?? [];
  }

  /** The caption node of a figure / table, or undefined. */
  captionOf(node: DocTreeNode): DocTreeNode | undefined {
    return node.caption_id ? this.node(node.caption_id) : undefined;
  }

  /** Nodes whose text refers to this one (`see Table 2`), from `referenced_by` and `ref` graph edges. */
  referrersOf(node: DocTreeNode): DocTreeNode[] {
    if (!this.#referrers) {
      this.#referrers = new Map();
      for (const edge of this.index.graph.edges) {
        if (edge.type !== 'ref') continue;
        const src = edge.src.split('#')[0]!;
        const list = this.#referrers.get(edge.dst);
        if (list) {
          if (!list.includes(src)) list.push(src);
        } else this.#referrers.set(edge.dst, [src]);
      }
    }
    const ids = new Set([...node.referenced_by, ...(this.#referrers.get(node.node_id) ?? [])]);
    return [...ids]
      .map((id) => this.node(id))
      .filter((n): n is DocTreeNode => n !== undefined)
      .sort((a, b) => a.read_order - b.read_order);
  }

  /**
   * Node id a label (`Table 2`, `Figure 3`) names, via the index's id maps. Labels come from questions and tool args:
   * only the maps' own entries count (`constructor` names no node, whatever Object.prototype holds).
   */
  resolveLabel(label: string): string | undefined {
    const maps = this.index.idMaps;
    const direct = ownId(maps.label2id, label);
    if (direct) return direct;
    const m = /^\s*(fig(?:ure)?|tab(?:le)?|eq(?:uation)?)\.?\s*([0-9]+[a-z]?)\s*$/i.exec(label);
    if (!m) return undefined;
    const kind = m[1]!.toLowerCase();
    const n = m[2]!;
    if (kind.startsWith('fig')) return ownId(maps.figure, n);
    if (kind.startsWith('tab')) return ownId(maps.table, n);
    return ownId(maps.equation, n);
  }

  /** Node id of the section numbered `numbering` (`2.1`, `Item 7`) in the index's id maps: own entries only. */
  sectionIdByNumber(numbering: string): string | undefined {
    return ownId(this.index.idMaps.section, numbering);
  }

  /** The parsed table of a table node (cached); see {@link readTable}. */
  table(node: DocTreeNode): TableGrid {
    let grid = this.#tables.get(node.node_id);
    if (!grid) {
      grid = readTable(node, { caption: this.captionOf(node)?.text });
      this.#tables.set(node.node_id, grid);
    }
    return grid;
  }

  /** Gist of a section from `summary.json`, or an empty string. */
  gistOf(node: DocTreeNode): string {
    return this.#gists().get(node.node_id) ?? '';
  }

  #gistMap: Map<string, string> | undefined;
  #gists(): Map<string, string> {
    this.#gistMap ??= new Map(this.index.summary.sections.map((s) => [s.node_id, s.gist]));
    return this.#gistMap;
  }

  /** The dense-coarse record of a section (its heading variant), figure or table. */
  coarseRecordOf(node: DocTreeNode): DenseCoarseRecord | undefined {
    if (node.role === 'section') {
      for (const suffix of Object.values(SECTION_VARIANT_SUFFIX)) {
        const record = this.index.denseCoarse.get(`${node.node_id}${suffix}`);
        if (record) return record;
      }
      return undefined;
    }
    return this.index.denseCoarse.get(node.node_id);
  }

  /** The dense-leaf records of a leaf node (one, or its `#cN` chunks in order). */
  leafRecordsOf(node: DocTreeNode): DenseLeafRecord[] {
    const single = this.index.denseLeaf.get(node.node_id);
    if (single) return [single];
    const out: DenseLeafRecord[] = [];
    for (let i = 0; ; i++) {
      const chunk = this.index.denseLeaf.get(`${node.node_id}#c${i}`);
      if (!chunk) break;
      out.push(chunk);
    }
    return out;
  }

  /** Descriptive fields of a node for rerank features and coverage (cached). */
  surface(node: DocTreeNode): NodeSurface {
    const cached = this.#surfaces.get(node.node_id);
    if (cached) return cached;
    const view = this.index.view;
    const record = this.coarseRecordOf(node);
    let surface: NodeSurface;
    if (node.role === 'section' || node.role === 'document') {
      const child = this.index.denseCoarse.get(`${node.node_id}${SECTION_VARIANT_SUFFIX.child}`)?.dense_text ?? '';
      const body = this.gistOf(node);
      surface = {
        title: node.title ?? '',
        path: view.headingPath(node),
        label: node.numbering ?? '',
        schema: child,
        body,
        units: record?.filters.units_set ?? findUnits(body),
        years: record?.filters.years ?? findYears(`${node.title ?? ''} ${body}`),
      };
    } else if (node.role === 'table') {
      const caption = this.captionOf(node)?.text ?? '';
      const grid = this.table(node);
      const header = grid.columns.length > 0 ? grid.columns : tableHeader(node);
      const rowLabels = grid.rowLabels.length > 0 ? grid.rowLabels : tableRowLabels(node);
      surface = {
        title: caption,
        path: view.headingPath(node),
        label: node.label ?? '',
        schema: [...header, ...rowLabels].join('; '),
        body: node.text,
        units: [...new Set([...(record?.filters.units_set ?? []), ...grid.units.filter((u): u is string => u !== null), ...(grid.scale ? [grid.scale] : [])])].sort(),
        years: [...new Set([...(record?.filters.years ?? []), ...findYears(header.join(' '))])].sort((a, b) => a - b),
      };
    } else if (FIGURE_ROLES.has(node.role)) {
      const caption = this.captionOf(node)?.text ?? '';
      surface = {
        title: caption,
        path: view.headingPath(node),
        label: node.label ?? '',
        schema: '',
        body: record?.dense_text ?? caption,
        units: record?.filters.units_set ?? findUnits(caption),
        years: record?.filters.years ?? findYears(caption),
      };
    } else {
      const target = node.caption_of ? this.node(node.caption_of) : undefined;
      surface = {
        title: node.role === 'caption' ? node.text : '',
        path: view.headingPath(node),
        label: node.label ?? target?.label ?? '',
        schema: '',
        body: node.text,
        units: findUnits(node.text),
        years: findYears(node.text),
      };
    }
    this.#surfaces.set(node.node_id, surface);
    return surface;
  }

  /** Analysed terms (the sparse analyser's) of one surface field of a node, cached. */
  terms(node: DocTreeNode, field: keyof Omit<NodeSurface, 'units' | 'years'>): ReadonlySet<string> {
    const key = `${node.node_id}\u0000${field}`;
    let set = this.#terms.get(key);
    if (!set) {
      set = new Set(analyzeText(this.surface(node)[field]));
      this.#terms.set(key, set);
    }
    return set;
  }
}

const NAVIGATORS = new WeakMap<DocIndex, DocNavigator>();

/** The shared {@link DocNavigator} of an index (created on first use, cached while the index lives). */
export function navigatorFor(index: DocIndex): DocNavigator {
  let nav = NAVIGATORS.get(index);
  if (!nav) {
    nav = new DocNavigator(index);
    NAVIGATORS.set(index, nav);
  }
  return nav;
}
