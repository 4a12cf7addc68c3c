import type { DocTreeNode, Observation } from '@doctree/schema';
import { tableCells } from '@doctree/toolhub';
import { anchorSpan, cutAtWord, nodeBBox, nodePage } from './node-anchors.js';
import type { NodeObserver, ObservableIndex, ObserveContext } from './observer-types.js';
import { structureTable } from './table-structure.js';

/** Options of {@link TableObserver}. */
export interface TableObserverOptions {
  /** Body rows kept per table; longer tables are cut (the markdown says how many rows were left out). Default 400. */
  maxRows?: number;
  /** Preceding text nodes (same section, same page) searched for a scale such as `(in millions)`. Default 2. */
  contextNodes?: number;
}

/** Defaults of {@link TableObserverOptions}. */
export const TABLE_OBSERVER_DEFAULTS = { maxRows: 400, contextNodes: 2 } as const satisfies Required<TableObserverOptions>;

/** Most characters of the table text kept in the payload (supports cite rows inside it). */
const MAX_TEXT_CHARS = 16_000;

/**
 * Parses a table node into columns and body rows with a unit per column and the table's scale (`(Millions)`,
 * `in thousands`), plus a Markdown preview. Reads the grid with `tableCells` of `@doctree/toolhub` (the rows the
 * ingester stored, else the HTML `table_body` with rowspan/colspan and multi-row headers, else the ` | `-separated
 * text). The payload keeps the table's canonical text and its span so that answers can cite exact rows.
 */
export class TableObserver implements NodeObserver {
  private readonly options: Required<TableObserverOptions>;

  /** @param options row cap and how much nearby text is searched for a scale. */
  constructor(options: TableObserverOptions = {}) {
    this.options = { ...TABLE_OBSERVER_DEFAULTS, ...options };
  }

  /** Table nodes. */
  accepts(node: DocTreeNode): boolean {
    return node.role === 'table';
  }

  /** Observes one table node. */
  async observe(node: DocTreeNode, index: ObservableIndex, _context?: ObserveContext): Promise<Observation> {
    const { view, tree } = index;
    // The stored grid (ingested rows, else the HTML, else the ` | ` text); header rows only where the producer declared them.
    const cells = tableCells(node);
    const grid = cells.rows;
    const headerRows = cells.source === 'text' ? 0 : (cells.headerRows ?? 0);
    const caption = node.caption_id ? view.node(node.caption_id)?.text : undefined;
    const context = this.context(node, index);
    const table = structureTable(grid, {
      headerRows,
      ...(caption ? { caption } : {}),
      context,
      maxRows: this.options.maxRows,
    });
    const text = node.text ? cutAtWord(node.text, MAX_TEXT_CHARS) : undefined;
    const span = text ? anchorSpan(tree, text, node.char_span) : undefined;
    return {
      node_id: node.node_id,
      modality: 'table',
      page: nodePage(node),
      bbox: nodeBBox(node),
      payload: {
        kind: 'table',
        ...(caption ? { caption } : {}),
        columns: table.columns,
        rows: table.rows,
        units: table.units,
        ...(table.scale ? { scale: `${table.scale}s` } : {}),
        markdown: table.markdown,
        ...(text ? { text } : {}),
        ...(span ? { char_span: span } : {}),
      },
    };
  }

  /** Section heading path and the text nodes right before the table on its page. */
  private context(node: DocTreeNode, index: ObservableIndex): string[] {
    const { view } = index;
    const out = view.ancestors(node).map((a) => a.title ?? '').filter(Boolean).reverse();
    const parent = node.parent_id ? view.node(node.parent_id) : undefined;
    if (!parent) return out;
    const siblings = parent.children;
    const at = siblings.indexOf(node.node_id);
    let taken = 0;
    for (let i = at - 1; i >= 0 && taken < this.options.contextNodes; i--) {
      const sibling = view.node(siblings[i]!);
      if (!sibling || sibling.role === 'table' || sibling.role === 'section') break;
      if (sibling.page_span[1] < node.page_span[0]) break;
      if (sibling.text) {
        out.push(sibling.text.slice(0, 400));
        taken++;
      }
    }
    return out;
  }
}
