/**
 * A small, dependency-free HTML table reader: turns the `table_body` HTML of MinerU (and of Markdown
 * documents, and of DocTree table nodes) into a grid of cell texts, and that grid into a GitHub-flavoured Markdown
 * preview. The DocTree artifact stores tables as HTML, so its codec lives here; ingest (MinerU, Markdown, PDF
 * adapters) and toolhub (table reader) both use it.
 */

/** A table read from HTML: a rectangular grid of cell texts and how many leading rows are headers. */
export interface HtmlTable {
  /** Rows of cell texts; every row has the same length. Spanned cells repeat the text of their origin cell. */
  rows: string[][];
  /** Number of leading header rows (rows inside `<thead>`, or rows made of `<th>` cells only). */
  headerRows: number;
}

/**
 * Limits of {@link parseHtmlTable}, so that a hostile span or a huge table cannot blow up memory: spans are clamped
 * to `maxSpan`, cells past `maxColumns` are dropped, rows past `maxRows` are ignored.
 */
export const HTML_TABLE_LIMITS = {
  /** Largest `colspan` honoured (the HTML limit); larger values are clamped. `rowspan` is bounded by the row count. */
  maxSpan: 1000,
  /** Most columns produced. */
  maxColumns: 1000,
  /** Most rows read. */
  maxRows: 10_000,
} as const;

/**
 * Named character references decoded by {@link decodeHtmlEntities}. A Map, looked up with names read from documents:
 * `&constructor;` or `&toString;` are unknown names, not properties inherited from Object.prototype.
 */
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
    shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–',
    minus: '−', lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„', laquo: '«', raquo: '»',
    bull: '•', middot: '·', deg: '°', plusmn: '±', times: '×', divide: '÷', le: '≤', ge: '≥', ne: '≠', asymp: '≈',
    equiv: '≡', infin: '∞', sum: '∑', prod: '∏', radic: '√', part: '∂', int: '∫', larr: '←', rarr: '→', uarr: '↑',
    darr: '↓', harr: '↔', rArr: '⇒', lArr: '⇐', hArr: '⇔', forall: '∀', exist: '∃', isin: '∈', notin: '∉', sub: '⊂',
    sup: '⊃', cap: '∩', cup: '∪', and: '∧', or: '∨', not: '¬', prime: '′', Prime: '″', permil: '‰', dagger: '†',
    Dagger: '‡', sect: '§', para: '¶', micro: 'µ', euro: '€', pound: '£', yen: '¥', cent: '¢', curren: '¤',
    frac12: '½', frac14: '¼', frac34: '¾', sup1: '¹', sup2: '²', sup3: '³', ordf: 'ª', ordm: 'º', iexcl: '¡',
    iquest: '¿', alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ',
    iota: 'ι', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', omicron: 'ο', pi: 'π', rho: 'ρ', sigma: 'σ',
    tau: 'τ', upsilon: 'υ', phi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω', Alpha: 'Α', Beta: 'Β', Gamma: 'Γ', Delta: 'Δ',
    Theta: 'Θ', Lambda: 'Λ', Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω', auml: 'ä', ouml: 'ö', uuml: 'ü',
    Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß', eacute: 'é', egrave: 'è', ecirc: 'ê', aacute: 'á', agrave: 'à',
    acirc: 'â', iacute: 'í', oacute: 'ó', uacute: 'ú', ntilde: 'ñ', ccedil: 'ç', Eacute: 'É', Ccedil: 'Ç', Ntilde: 'Ñ',
  }),
);

const ENTITY_RE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

function codePointText(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

/**
 * Decodes HTML character references: numeric (`&#8212;`, `&#x2014;`) and the common named ones
 * (`&amp;`, `&nbsp;`, `&le;`, Greek letters…). Unknown names are left as written.
 */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY_RE, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (dec !== undefined) return codePointText(Number.parseInt(dec, 10));
    if (hex !== undefined) return codePointText(Number.parseInt(hex, 16));
    return (name !== undefined ? NAMED_ENTITIES.get(name) : undefined) ?? whole;
  });
}

/** Escapes text for HTML element content and attribute values (`&`, `<`, `>`, `"`, `'`). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/**
 * Tags, comments, doctype/CDATA and processing instructions; everything between them is text. Quoted
 * attribute values may hold `>` but not `<`, so a failed match never scans past the next `<` (linear time
 * on hostile input such as thousands of unclosed quotes).
 */
const TOKEN_RE = /<!--[\s\S]*?(?:-->|$)|<(\/?)([A-Za-z][A-Za-z0-9:-]*)((?:[^<>"']|"[^"<]*"|'[^'<]*')*)>|<![^<>]*>|<\?[^<>]*>/g;
const ATTR_RE = /([A-Za-z_:][A-Za-z0-9_.:-]*)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
/** Elements whose boundaries separate words inside a cell. */
const BREAKING = new Set(['br', 'p', 'div', 'li', 'ul', 'ol', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'td', 'th', 'table', 'blockquote', 'pre', 'section']);
/** Elements whose content is never cell text. */
const SKIPPED = new Set(['script', 'style', 'caption', 'colgroup', 'template', 'title', 'head']);

function attributes(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of raw.matchAll(ATTR_RE)) out.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
  return out;
}

function spanValue(value: string | undefined, max: number): number {
  if (value === undefined) return 1;
  const n = Number.parseInt(value.trim(), 10);
  if (!Number.isFinite(n) || n < 0) return 1;
  return Math.min(n, max);
}

interface RawCell {
  text: string;
  header: boolean;
  colspan: number;
  /** 0 means "to the end of the table". */
  rowspan: number;
}

interface RawRow {
  cells: RawCell[];
  inHead: boolean;
}

function cleanCell(text: string): string {
  return decodeHtmlEntities(text).replace(/\s+/g, ' ').trim();
}

/** Reads the `<tr>`/`<td>`/`<th>` structure of the outermost table(s); nested tables become cell text. */
function readRows(html: string): RawRow[] {
  const rows: RawRow[] = [];
  let depth = 0;
  let section: 'thead' | 'tbody' | 'tfoot' | undefined;
  let row: RawRow | undefined;
  let cell: RawCell | undefined;
  let skipping: string | undefined;
  let skipDepth = 0;

  const closeCell = (): void => {
    if (cell && row) row.cells.push({ ...cell, text: cleanCell(cell.text) });
    cell = undefined;
  };
  const closeRow = (): void => {
    closeCell();
    if (row && rows.length < HTML_TABLE_LIMITS.maxRows) rows.push(row);
    row = undefined;
  };
  const appendText = (text: string): void => {
    if (cell) cell.text += text;
  };

  let last = 0;
  for (const m of html.matchAll(TOKEN_RE)) {
    if (!skipping) appendText(html.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[2]?.toLowerCase();
    if (name === undefined) continue; // comment, doctype, CDATA, processing instruction
    const closing = m[1] === '/';
    if (skipping) {
      if (name === skipping) skipDepth += closing ? -1 : m[0].endsWith('/>') ? 0 : 1;
      if (skipDepth <= 0) skipping = undefined;
      continue;
    }
    if (SKIPPED.has(name) && !closing) {
      if (!m[0].endsWith('/>')) {
        skipping = name;
        skipDepth = 1;
      }
      continue;
    }
    // Structure counts at depth 0 (fragments without <table>) and 1 (the outer table).
    const structural = depth <= 1;
    if (name === 'table') {
      if (!closing) {
        depth++;
        if (depth > 1) appendText(' ');
      } else if (depth > 0) {
        depth--;
        if (depth === 0) {
          closeRow();
          section = undefined;
        } else appendText(' ');
      }
      continue;
    }
    if (!structural) {
      if (BREAKING.has(name)) appendText(' ');
      continue;
    }
    if (name === 'thead' || name === 'tbody' || name === 'tfoot') {
      closeRow();
      section = closing ? undefined : name;
      continue;
    }
    if (name === 'tr') {
      closeRow();
      if (!closing) row = { cells: [], inHead: section === 'thead' };
      continue;
    }
    if (name === 'td' || name === 'th') {
      closeCell();
      if (closing) continue;
      row ??= { cells: [], inHead: section === 'thead' };
      const attrs = attributes(m[3] ?? '');
      const rowspan = attrs.has('rowspan') ? spanValue(attrs.get('rowspan'), Number.MAX_SAFE_INTEGER) : 1;
      cell = { text: '', header: name === 'th', colspan: Math.max(1, spanValue(attrs.get('colspan'), HTML_TABLE_LIMITS.maxSpan)), rowspan };
      continue;
    }
    if (BREAKING.has(name)) appendText(' ');
  }
  if (!skipping) appendText(html.slice(last));
  closeRow();
  return rows;
}

/**
 * Header rows of a table that marks none but draws a multi-level header with `<td>` (as MinerU does):
 * its first row has a cell spanning columns and a cell spanning rows; the rows that rowspan covers are the header.
 */
function spannedHeaderRows(raw: readonly RawRow[]): number {
  const first = raw.find((r) => r.cells.length > 0);
  if (!first || !first.cells.some((c) => c.colspan > 1)) return 0;
  const down = first.cells.reduce((max, c) => Math.max(max, c.rowspan), 1);
  return down > 1 ? down : 0;
}

/**
 * Parses an HTML table into a rectangular grid of cell texts. Robust to what converters emit:
 * `<html><body>` wrappers, `<thead>`/`<tbody>`/`<tfoot>`, `<th>`/`<td>`, missing end tags, upper-case
 * tags, quoted or bare attributes, `colspan`/`rowspan` (spanned positions repeat the cell's text;
 * `rowspan="0"` spans to the last row), character references, tags inside cells (`<b>`, `<br>`, `<sup>`,
 * nested tables: their text joins the cell), comments, `<caption>`, `<script>` and `<style>` (ignored).
 * Cell text has whitespace collapsed and trimmed. Rows without any cell are dropped; short rows are
 * padded with empty strings. Never throws: a string without a table gives `{ rows: [], headerRows: 0 }`.
 *
 * `headerRows` counts the leading rows that sit in `<thead>` or consist of `<th>` cells only. A table that
 * marks no header but whose first row has both a `colspan` and a `rowspan` cell (a two-level header drawn
 * with `<td>`, as MinerU writes them) gets the rows that `rowspan` covers as header rows.
 *
 * @example
 * ```ts
 * parseHtmlTable('<table><tr><th colspan="2">Revenue</th></tr><tr><td>2023</td><td>1&nbsp;000</td></tr></table>');
 * // → { rows: [['Revenue', 'Revenue'], ['2023', '1 000']], headerRows: 1 }
 * ```
 */
export function parseHtmlTable(html: string): HtmlTable {
  const raw = readRows(html);
  const grid: Array<Array<string | undefined>> = raw.map(() => []);
  const ownHeader: boolean[] = raw.map((r) => r.inHead || (r.cells.length > 0 && r.cells.every((c) => c.header)));
  let width = 0;
  for (let r = 0; r < raw.length; r++) {
    const line = grid[r]!;
    let c = 0;
    for (const cell of raw[r]!.cells) {
      while (line[c] !== undefined) c++;
      if (c >= HTML_TABLE_LIMITS.maxColumns) break;
      const rowspan = cell.rowspan === 0 ? raw.length - r : Math.min(cell.rowspan, raw.length - r);
      const colspan = Math.min(cell.colspan, HTML_TABLE_LIMITS.maxColumns - c);
      for (let dr = 0; dr < Math.max(1, rowspan); dr++) {
        const target = grid[r + dr]!;
        for (let dc = 0; dc < colspan; dc++) if (target[c + dc] === undefined) target[c + dc] = cell.text;
      }
      c += colspan;
      width = Math.max(width, c);
    }
  }
  const rows: string[][] = [];
  let headerRows = 0;
  let inHeader = true;
  for (let r = 0; r < raw.length; r++) {
    const line = grid[r]!;
    if (line.length === 0) continue; // a <tr> with no cells and nothing spanning into it
    const isHeader = raw[r]!.cells.length === 0 ? inHeader && headerRows > 0 : ownHeader[r]!;
    if (inHeader && isHeader) headerRows++;
    else inHeader = false;
    rows.push(Array.from({ length: width }, (_, c) => line[c] ?? ''));
  }
  if (headerRows === 0) headerRows = Math.min(spannedHeaderRows(raw), rows.length);
  return { rows, headerRows };
}

function markdownCell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

/**
 * Renders a grid as a GitHub-flavoured Markdown pipe table. GFM tables have exactly one header row:
 * several header rows are folded into one (`Revenue / 2023`, repeated parts from spans said once);
 * with `headerRows` 0 the first row becomes the header, as GFM needs one. `|` in cells becomes `\|`
 * (other backslashes are kept, so LaTeX stays readable) and line breaks become spaces. Returns `''` for a
 * table without cells.
 *
 * @example
 * ```ts
 * tableToMarkdown([['Year', 'Revenue'], ['2023', '10']], 1);
 * // | Year | Revenue |
 * // | --- | --- |
 * // | 2023 | 10 |
 * ```
 */
export function tableToMarkdown(rows: readonly (readonly string[])[], headerRows: number): string {
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  if (width === 0) return '';
  const pad = (r: readonly string[]): string[] => Array.from({ length: width }, (_, c) => markdownCell(r[c] ?? ''));
  const headCount = Math.min(Math.max(1, Math.floor(headerRows)), rows.length);
  const head = rows.slice(0, headCount).map(pad);
  const header = Array.from({ length: width }, (_, c) => {
    const parts: string[] = [];
    for (const r of head) {
      const part = r[c]!;
      if (part !== '' && parts[parts.length - 1] !== part) parts.push(part);
    }
    return parts.join(' / ');
  });
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.slice(headCount).map((r) => line(pad(r)))].join('\n');
}

/**
 * The `<table>…</table>` part of an HTML string (MinerU wraps tables in `<html><body>`); the trimmed
 * input when it holds no complete table element.
 */
export function extractTableHtml(html: string): string {
  const start = html.search(/<table[\s>]/i);
  const end = html.toLowerCase().lastIndexOf('</table>');
  if (start < 0 || end < start) return html.trim();
  return html.slice(start, end + '</table>'.length);
}

/** Builds `<table>` HTML from a grid (cell text escaped); the first `headerRows` rows go into `<thead>` as `<th>`. */
export function gridToHtml(rows: readonly (readonly string[])[], headerRows: number): string {
  const row = (cells: readonly string[], tag: 'th' | 'td'): string => `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
  const head = rows.slice(0, headerRows);
  const body = rows.slice(headerRows);
  return `<table>${head.length > 0 ? `<thead>${head.map((r) => row(r, 'th')).join('')}</thead>` : ''}<tbody>${body.map((r) => row(r, 'td')).join('')}</tbody></table>`;
}
