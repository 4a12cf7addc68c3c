/**
 * A small, dependency-free reader of HTML tables (`table_body` of MinerU blocks and of DocTree table nodes):
 * rows and cells, `rowspan` / `colspan` expanded into a rectangular grid, header rows, entities decoded.
 */

/** A table read from HTML. */
export interface HtmlTableGrid {
  /** Rectangular grid of cell texts; a spanned cell repeats its text in every slot it covers. */
  rows: string[][];
  /** Leading header rows: rows inside `<thead>`, or rows made of `<th>` cells only. */
  headerRows: number;
}

/** Limits of {@link parseHtmlTable}, so that a hostile span cannot blow up memory. */
export const HTML_TABLE_LIMITS = {
  /** Largest `colspan` / `rowspan` honoured. */
  maxSpan: 200,
  /** Most columns produced. */
  maxColumns: 200,
  /** Most rows produced. */
  maxRows: 10_000,
} as const;

/** Named character references; a Map, so that names read from documents (`&constructor;`) never find Object.prototype. */
const ENTITIES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ', mdash: '—', ndash: '–',
    minus: '−', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', euro: '€', pound: '£', yen: '¥', cent: '¢',
    deg: '°', plusmn: '±', times: '×', divide: '÷', le: '≤', ge: '≥', permil: '‰', dagger: '†', Dagger: '‡', sect: '§',
    middot: '·', bull: '•', copy: '©', reg: '®', trade: '™', micro: 'µ', frac12: '½', frac14: '¼', frac34: '¾',
  }),
);

/** Decodes HTML character references (numeric and the common named ones); unknown names stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,15}));/g, (whole, dec?: string, hex?: string, name?: string) => {
    const code = dec !== undefined ? Number.parseInt(dec, 10) : hex !== undefined ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    return (name !== undefined ? ENTITIES.get(name) : undefined) ?? whole;
  });
}

interface RawCell {
  text: string;
  colspan: number;
  rowspan: number;
  header: boolean;
}

interface RawRow {
  cells: RawCell[];
  inHead: boolean;
}

const TAG_RE = /<!--[\s\S]*?-->|<\/?([A-Za-z][A-Za-z0-9]*)\b([^>]*)>|([^<]+)|</g;
const BREAKING = new Set(['br', 'p', 'div', 'li', 'tr', 'hr']);

function spanOf(attributes: string, name: 'colspan' | 'rowspan'): number {
  const m = new RegExp(`\\b${name}\\s*=\\s*["']?\\s*([0-9]+)`, 'i').exec(attributes);
  const n = m ? Number.parseInt(m[1]!, 10) : 1;
  return Number.isFinite(n) && n >= 1 ? Math.min(n, HTML_TABLE_LIMITS.maxSpan) : 1;
}

/**
 * Parses the first `<table>` of an HTML fragment (or bare `<tr>` rows) into a rectangular grid. Tolerates unclosed
 * `<td>` / `<tr>`, nested tags inside cells (their text is kept; `<br>` and block tags become spaces) and nested
 * tables (their text joins the enclosing cell). Header rows are the `<thead>` rows, else the leading rows made of
 * `<th>` cells only.
 *
 * @example
 * ```ts
 * parseHtmlTable('<table><tr><th rowspan="2">(Millions)</th><th colspan="2">Year</th></tr><tr><th>2023</th><th>2022</th></tr></table>');
 * // { rows: [['(Millions)', 'Year', 'Year'], ['(Millions)', '2023', '2022']], headerRows: 2 }
 * ```
 */
export function parseHtmlTable(html: string): HtmlTableGrid {
  const rows: RawRow[] = [];
  let depth = 0;
  let inHead = false;
  let row: RawRow | undefined;
  let cell: RawCell | undefined;
  const closeCell = (): void => {
    if (cell && row) row.cells.push({ ...cell, text: cell.text.replace(/\s+/g, ' ').trim() });
    cell = undefined;
  };
  const closeRow = (): void => {
    closeCell();
    if (row && row.cells.length > 0 && rows.length < HTML_TABLE_LIMITS.maxRows) rows.push(row);
    row = undefined;
  };
  const sawTable = /<table\b/i.test(html);
  if (!sawTable) depth = 1;
  for (const m of html.matchAll(TAG_RE)) {
    const tag = m[1]?.toLowerCase();
    const closing = m[0].startsWith('</');
    if (m[3] !== undefined || m[0] === '<') {
      if (cell && depth >= 1) cell.text += decodeEntities(m[3] ?? '<');
      continue;
    }
    if (!tag) continue;
    if (tag === 'table') {
      if (closing) {
        depth--;
        if (depth === 0) {
          closeRow();
          break;
        }
      } else {
        depth++;
        if (depth > 1 && cell) cell.text += ' ';
      }
      continue;
    }
    if (depth !== 1) {
      if (cell && (BREAKING.has(tag) || tag === 'td' || tag === 'th')) cell.text += ' ';
      continue;
    }
    if (tag === 'thead') inHead = !closing;
    else if (tag === 'tbody' || tag === 'tfoot') inHead = false;
    else if (tag === 'tr') {
      closeRow();
      if (!closing) row = { cells: [], inHead };
    } else if (tag === 'td' || tag === 'th') {
      closeCell();
      if (!closing) {
        row ??= { cells: [], inHead };
        cell = { text: '', colspan: spanOf(m[2] ?? '', 'colspan'), rowspan: spanOf(m[2] ?? '', 'rowspan'), header: tag === 'th' };
      }
    } else if (cell && BREAKING.has(tag)) cell.text += ' ';
  }
  closeRow();
  return layOut(rows);
}

/** Places cells on a grid honouring row and column spans; pads rows to the widest. */
function layOut(rows: readonly RawRow[]): HtmlTableGrid {
  const grid: Array<Array<string | undefined>> = rows.map(() => []);
  rows.forEach((raw, r) => {
    let c = 0;
    for (const cell of raw.cells) {
      while (grid[r]![c] !== undefined) c++;
      if (c >= HTML_TABLE_LIMITS.maxColumns) break;
      const rowspan = Math.min(cell.rowspan, rows.length - r);
      const colspan = Math.min(cell.colspan, HTML_TABLE_LIMITS.maxColumns - c);
      for (let dr = 0; dr < rowspan; dr++) for (let dc = 0; dc < colspan; dc++) grid[r + dr]![c + dc] = cell.text;
      c += colspan;
    }
  });
  const width = Math.max(0, ...grid.map((r) => r.length));
  const out = grid.map((r) => Array.from({ length: width }, (_, c) => r[c] ?? ''));
  let headerRows = 0;
  while (headerRows < rows.length && rows[headerRows]!.inHead) headerRows++;
  if (headerRows === 0) while (headerRows < rows.length - 1 && rows[headerRows]!.cells.every((cell) => cell.header)) headerRows++;
  return { rows: out, headerRows };
}
