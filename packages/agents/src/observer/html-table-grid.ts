/**
 * A compact HTML table reader for table nodes that carry only `table.html` (trees written before `table.rows`
 * existed, or by other producers). Trees written by `@doctree/ingest` already hold the parsed grid in
 * `table.rows`; the TableObserver uses that first. `@doctree/ingest` has the full parser (`parseHtmlTable`), which
 * agents cannot import (layering) — this one keeps to what observing needs: rows, cells, `colspan`/`rowspan`,
 * `<thead>`/`<th>` header rows, character references and `<br>` inside cells.
 */

/** A grid read from HTML: every row has the same length; spanned positions repeat the origin cell's text. */
export interface HtmlGrid {
  rows: string[][];
  /** Leading rows inside `<thead>` or made of `<th>` cells only. */
  headerRows: number;
}

const MAX_SPAN = 1000;
const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', minus: '−', hellip: '…',
  rsquo: '’', lsquo: '‘', ldquo: '“', rdquo: '”', euro: '€', pound: '£', yen: '¥', cent: '¢', deg: '°', times: '×',
  plusmn: '±', le: '≤', ge: '≥', copy: '©', reg: '®', trade: '™', middot: '·', bull: '•', sect: '§', para: '¶',
};

function decode(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]{2,8}));/gi, (whole, dec?: string, hex?: string, name?: string) => {
    const code = dec ? Number.parseInt(dec, 10) : hex ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    return (name && ENTITIES[name.toLowerCase()]) ?? whole;
  });
}

function span(attrs: string, name: string): number {
  const m = new RegExp(`\\b${name}\\s*=\\s*["']?(\\d+)`, 'i').exec(attrs);
  if (!m) return 1;
  const n = Number.parseInt(m[1]!, 10);
  return n === 0 && name === 'rowspan' ? 0 : Math.min(Math.max(1, n), MAX_SPAN);
}

interface RawCell {
  text: string;
  header: boolean;
  colspan: number;
  rowspan: number;
}

/**
 * Parses `<table>` HTML into a rectangular grid. Never throws; HTML without rows gives `{ rows: [], headerRows: 0 }`.
 * Nested tables contribute their text to the enclosing cell; `<script>`, `<style>` and `<caption>` are ignored.
 */
export function parseHtmlGrid(html: string): HtmlGrid {
  const cleaned = html.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<(script|style|caption)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  const raw: Array<{ cells: RawCell[]; head: boolean }> = [];
  let depth = 0;
  let inHead = false;
  let row: { cells: RawCell[]; head: boolean } | undefined;
  let cell: RawCell | undefined;
  const closeCell = (): void => {
    if (cell && row) row.cells.push({ ...cell, text: decode(cell.text).replace(/\s+/g, ' ').trim() });
    cell = undefined;
  };
  const closeRow = (): void => {
    closeCell();
    if (row && row.cells.length > 0) raw.push(row);
    row = undefined;
  };
  let last = 0;
  for (const m of cleaned.matchAll(/<(\/?)([a-z][a-z0-9]*)([^>]*)>/gi)) {
    if (cell) cell.text += cleaned.slice(last, m.index);
    last = m.index + m[0].length;
    const closing = m[1] === '/';
    const name = m[2]!.toLowerCase();
    if (name === 'table') {
      depth += closing ? -1 : 1;
      if (cell) cell.text += ' ';
      if (closing && depth <= 0) closeRow();
      continue;
    }
    if (depth > 1) {
      if (cell) cell.text += ' ';
      continue;
    }
    if (name === 'thead') {
      closeRow();
      inHead = !closing;
    } else if (name === 'tbody' || name === 'tfoot') {
      closeRow();
      inHead = false;
    } else if (name === 'tr') {
      closeRow();
      if (!closing) row = { cells: [], head: inHead };
    } else if (name === 'td' || name === 'th') {
      closeCell();
      if (closing) continue;
      row ??= { cells: [], head: inHead };
      cell = { text: '', header: name === 'th', colspan: span(m[3]!, 'colspan'), rowspan: span(m[3]!, 'rowspan') };
    } else if (cell && /^(br|p|div|li)$/.test(name)) {
      cell.text += ' ';
    }
  }
  if (cell) cell.text += cleaned.slice(last);
  closeRow();

  const grid: Array<Array<string | undefined>> = raw.map(() => []);
  let width = 0;
  raw.forEach((r, i) => {
    let c = 0;
    for (const rc of r.cells) {
      while (grid[i]![c] !== undefined) c++;
      const down = rc.rowspan === 0 ? raw.length - i : Math.min(rc.rowspan, raw.length - i);
      for (let dr = 0; dr < down; dr++) for (let dc = 0; dc < rc.colspan; dc++) grid[i + dr]![c + dc] ??= rc.text;
      c += rc.colspan;
      width = Math.max(width, c);
    }
  });
  let headerRows = 0;
  while (headerRows < raw.length && (raw[headerRows]!.head || raw[headerRows]!.cells.every((c) => c.header))) headerRows++;
  return { rows: grid.map((r) => Array.from({ length: width }, (_, c) => r[c] ?? '')), headerRows };
}
