import type { IngestWarning } from '@doctree/schema';
import { extractTableHtml, parseHtmlTable } from '../mineru/html-table.js';
import { imagesOnLine, inlineText } from './markdown-inline.js';
import type { MarkdownImage, MarkdownLinkRefs } from './markdown-inline.js';

/**
 * A line-based Markdown block reader (CommonMark/GFM subset, no dependency): headings (ATX and setext),
 * paragraphs, bullet and ordered lists, GFM pipe tables, HTML tables, images on their own line, fenced
 * and indented code, `$$…$$` / `\[…\]` display math, blockquotes, thematic breaks, HTML comments, YAML
 * front matter, link reference definitions, and page breaks (`<!-- page N -->`, form feed).
 */

/** Where a block sits: page and the first/last source line on that page (0-based). */
export interface MdPosition {
  page: number;
  first: number;
  last: number;
}

/** One block read from Markdown. */
export type MdBlock = MdPosition &
  (
    | { kind: 'heading'; level: number; text: string }
    | { kind: 'paragraph'; text: string }
    | { kind: 'quote'; text: string }
    | { kind: 'list'; items: string[]; ordered: boolean }
    | { kind: 'table'; rows: string[][]; headerRows: number; html?: string }
    | { kind: 'image'; image: MarkdownImage }
    | { kind: 'code'; body: string; lang?: string }
    | { kind: 'math'; latex: string }
  );

/** What {@link readMarkdownBlocks} found. */
export interface MdDocument {
  blocks: MdBlock[];
  /** Source lines on each page (the virtual page height follows it). */
  pageLines: number[];
  warnings: IngestWarning[];
}

/** A form feed becomes a line of its own holding only this. */
const FORM_FEED = '\f';
const PAGE_MARKER_RE = /^\s*<!--\s*page(?:[\s:#-]*(\d+))?\s*-->\s*$/i;
const ATX_RE = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_RE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_RE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE_RE = /^( {0,3})(`{3,}|~{3,})[ \t]*([^`]*?)[ \t]*$/;
const QUOTE_RE = /^ {0,3}> ?/;
const LIST_RE = /^([ \t]*)([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*)|[ \t]*$)/;
const DELIMITER_RE = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const LINK_DEF_RE = /^ {0,3}\[([^\]^][^\]]*)\]:\s*<?(\S+?)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*$/;
const HTML_TABLE_RE = /^\s*<table[\s>]/i;
const COMMENT_START_RE = /^\s*<!--/;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function indentOf(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === ' ') n++;
    else if (c === '\t') n += 4 - (n % 4);
    else break;
  }
  return n;
}

/** Splits a pipe-table row into cells on unescaped `|` (outer pipes optional). */
export function splitTableRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && s[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

function isTableStart(lines: readonly string[], i: number): boolean {
  const head = lines[i];
  const delimiter = lines[i + 1];
  if (head === undefined || delimiter === undefined || !head.includes('|') || !delimiter.includes('|')) return false;
  if (!DELIMITER_RE.test(delimiter)) return false;
  return splitTableRow(head).length === splitTableRow(delimiter).length;
}

/** Lines that end a paragraph (besides blank lines). */
function startsBlock(lines: readonly string[], i: number): boolean {
  const line = lines[i]!;
  return (
    line === FORM_FEED ||
    ATX_RE.test(line) ||
    FENCE_RE.test(line) ||
    QUOTE_RE.test(line) ||
    THEMATIC_RE.test(line) ||
    COMMENT_START_RE.test(line) ||
    HTML_TABLE_RE.test(line) ||
    /^\s*(\$\$|\\\[)/.test(line) ||
    (LIST_RE.test(line) && indentOf(line) < 4) ||
    isTableStart(lines, i)
  );
}

/** Link reference definitions of the whole document. */
function linkRefs(lines: readonly string[]): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of lines) {
    const m = LINK_DEF_RE.exec(line);
    if (m) refs.set(m[1]!.trim().toLowerCase(), m[2]!);
  }
  return refs;
}

class Reader {
  readonly blocks: MdBlock[] = [];
  readonly warnings: IngestWarning[] = [];
  readonly pageLines: number[] = [0];
  private page = 0;
  /** Index in `lines` of the first line of the current page. */
  private pageStart = 0;

  constructor(
    private readonly lines: string[],
    private readonly refs: MarkdownLinkRefs,
  ) {}

  private pos(first: number, last: number): MdPosition {
    return { page: this.page, first: first - this.pageStart, last: Math.max(first, last) - this.pageStart };
  }

  private push(block: MdBlock): void {
    this.blocks.push(block);
  }

  private breakPage(at: number, requested: number | undefined, marker: string): void {
    this.pageLines[this.page] = Math.max(this.pageLines[this.page] ?? 0, at - this.pageStart);
    let next = this.page + 1;
    if (requested !== undefined) {
      const target = requested - 1;
      if (target === this.page && this.blocks.every((b) => b.page !== this.page)) next = this.page; // `<!-- page 1 -->` at the top
      else if (target > this.page) next = target;
      else {
        this.warnings.push({
          code: 'PAGE_MARKER_OUT_OF_ORDER',
          page_idx: this.page + 1,
          message: `${marker.trim()} follows page ${this.page + 1}; treated as page ${this.page + 2}.`,
        });
      }
    }
    for (let p = this.page + 1; p <= next; p++) this.pageLines[p] ??= 0;
    this.page = next;
    this.pageStart = at + 1;
  }

  read(): void {
    const { lines } = this;
    let i = this.frontMatterEnd();
    while (i < lines.length) {
      const line = lines[i]!;
      if (line === FORM_FEED) {
        this.breakPage(i, undefined, 'form feed');
        i++;
        continue;
      }
      if (isBlank(line)) {
        i++;
        continue;
      }
      const marker = PAGE_MARKER_RE.exec(line);
      if (marker) {
        this.breakPage(i, marker[1] !== undefined ? Number(marker[1]) : undefined, line);
        i++;
        continue;
      }
      if (COMMENT_START_RE.test(line)) {
        i = this.comment(i);
        continue;
      }
      if (FENCE_RE.test(line)) {
        i = this.fenced(i);
        continue;
      }
      if (/^\s*(\$\$|\\\[)/.test(line)) {
        const next = this.math(i);
        if (next !== undefined) {
          i = next;
          continue;
        }
      }
      const atx = ATX_RE.exec(line);
      if (atx) {
        const text = inlineText(atx[2] ?? '', this.refs);
        if (text) this.push({ kind: 'heading', level: atx[1]!.length, text, ...this.pos(i, i) });
        i++;
        continue;
      }
      if (THEMATIC_RE.test(line) || LINK_DEF_RE.test(line)) {
        i++;
        continue;
      }
      if (QUOTE_RE.test(line)) {
        i = this.quote(i);
        continue;
      }
      if (HTML_TABLE_RE.test(line)) {
        i = this.htmlTable(i);
        continue;
      }
      if (LIST_RE.test(line) && indentOf(line) < 4) {
        i = this.list(i);
        continue;
      }
      if (isTableStart(lines, i)) {
        i = this.pipeTable(i);
        continue;
      }
      if (indentOf(line) >= 4) {
        i = this.indentedCode(i);
        continue;
      }
      i = this.paragraph(i);
    }
    this.pageLines[this.page] = Math.max(this.pageLines[this.page] ?? 0, lines.length - this.pageStart);
  }

  /** YAML front matter (`---` … `---`/`...` at the very top) is metadata, not content. */
  private frontMatterEnd(): number {
    if (this.lines[0]?.trim() !== '---' || !/^[\w-]+\s*:/.test(this.lines[1] ?? '')) return 0;
    for (let j = 1; j < Math.min(this.lines.length, 200); j++) {
      const t = this.lines[j]!.trim();
      if (t === '---' || t === '...') return j + 1;
      if (this.lines[j] === FORM_FEED) break;
    }
    return 0;
  }

  private comment(i: number): number {
    let j = i;
    while (j < this.lines.length && !this.lines[j]!.includes('-->')) j++;
    if (j >= this.lines.length) {
      this.warnings.push({ code: 'MARKDOWN_UNCLOSED_COMMENT', page_idx: this.page, message: `An HTML comment opened on line ${i + 1} is never closed; the rest of the document is ignored.` });
      return j;
    }
    const after = this.lines[j]!.slice(this.lines[j]!.lastIndexOf('-->') + 3);
    if (after.trim() !== '') {
      this.lines[j] = after; // text after the comment on the same line is content
      return j;
    }
    return j + 1;
  }

  private fenced(i: number): number {
    const open = FENCE_RE.exec(this.lines[i]!)!;
    const indent = open[1]!.length;
    const fence = open[2]!;
    const lang = open[3]!.split(/\s+/)[0]?.replace(/^\{?\.?|\}$/g, '');
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    const body: string[] = [];
    let j = i + 1;
    while (j < this.lines.length && !close.test(this.lines[j]!)) {
      const line = this.lines[j]!;
      body.push(line.slice(Math.min(indent, indentOf(line))));
      j++;
    }
    if (j >= this.lines.length) {
      this.warnings.push({ code: 'MARKDOWN_UNCLOSED_FENCE', page_idx: this.page, message: `The code fence opened on line ${i + 1} is never closed; it runs to the end of the document.` });
    }
    this.push({ kind: 'code', body: body.join('\n').replace(/\s+$/, ''), ...(lang ? { lang } : {}), ...this.pos(i, Math.min(j, this.lines.length - 1)) });
    return j + 1;
  }

  private indentedCode(i: number): number {
    const body: string[] = [];
    let j = i;
    let lastCode = i;
    while (j < this.lines.length && this.lines[j] !== FORM_FEED && (isBlank(this.lines[j]!) || indentOf(this.lines[j]!) >= 4)) {
      if (!isBlank(this.lines[j]!)) lastCode = j;
      j++;
    }
    for (let k = i; k <= lastCode; k++) {
      const line = this.lines[k]!;
      let cut = 0;
      let width = 0;
      while (cut < line.length && width < 4) {
        width += line[cut] === '\t' ? 4 - (width % 4) : 1;
        cut++;
      }
      body.push(line.slice(cut));
    }
    this.push({ kind: 'code', body: body.join('\n').replace(/\s+$/, ''), ...this.pos(i, lastCode) });
    return lastCode + 1;
  }

  /** `$$…$$` or `\[…\]`; undefined when it never closes (then the line is ordinary text). */
  private math(i: number): number | undefined {
    const first = this.lines[i]!.trim();
    const [open, close] = first.startsWith('$$') ? ['$$', '$$'] : ['\\[', '\\]'];
    const rest = first.slice(open.length);
    if (rest.trimEnd().endsWith(close) && rest.trim().length >= close.length) {
      const latex = rest.trimEnd().slice(0, -close.length).trim();
      if (latex) this.push({ kind: 'math', latex, ...this.pos(i, i) });
      return i + 1;
    }
    const body: string[] = rest.trim() ? [rest] : [];
    for (let j = i + 1; j < this.lines.length; j++) {
      const line = this.lines[j]!;
      if (line === FORM_FEED || isBlank(line)) return undefined; // display math does not span blank lines
      const t = line.trimEnd();
      if (t.endsWith(close)) {
        body.push(t.slice(0, -close.length));
        const latex = body.join('\n').trim();
        if (latex) this.push({ kind: 'math', latex, ...this.pos(i, j) });
        return j + 1;
      }
      body.push(line);
    }
    return undefined;
  }

  private quote(i: number): number {
    const inner: string[] = [];
    let j = i;
    while (j < this.lines.length) {
      const line = this.lines[j]!;
      if (QUOTE_RE.test(line)) {
        let s = line;
        while (QUOTE_RE.test(s)) s = s.replace(QUOTE_RE, '');
        inner.push(s);
      } else if (!isBlank(line) && line !== FORM_FEED && inner.length > 0 && !isBlank(inner[inner.length - 1]!) && !startsBlock(this.lines, j)) {
        inner.push(line); // lazy continuation
      } else break;
      j++;
    }
    let start = i;
    let para: string[] = [];
    const flush = (end: number): void => {
      const text = inlineText(para.map((l) => l.trim().replace(/\\$/, '')).join(' '), this.refs);
      if (text) this.push({ kind: 'quote', text, ...this.pos(start, end) });
      para = [];
    };
    inner.forEach((line, k) => {
      if (isBlank(line)) {
        if (para.length > 0) flush(i + k - 1);
        start = i + k + 1;
      } else {
        if (para.length === 0) start = i + k;
        para.push(line.replace(/^\s{0,3}(#{1,6}\s+|[-*+]\s+|\d{1,9}[.)]\s+)/, ''));
      }
    });
    if (para.length > 0) flush(j - 1);
    return j;
  }

  private htmlTable(i: number): number {
    let j = i;
    while (j < this.lines.length && !/<\/table>/i.test(this.lines[j]!) && !(j > i && (isBlank(this.lines[j]!) || this.lines[j] === FORM_FEED))) j++;
    const closed = j < this.lines.length && /<\/table>/i.test(this.lines[j]!);
    const end = closed ? j : j - 1;
    // an HTML block ends at a blank line (CommonMark); close a table cut short there
    const html = extractTableHtml(this.lines.slice(i, end + 1).join('\n') + (closed ? '' : '</table>'));
    const { rows, headerRows } = parseHtmlTable(html);
    if (rows.length > 0) this.push({ kind: 'table', rows, headerRows, html, ...this.pos(i, end) });
    return end + 1;
  }

  private pipeTable(i: number): number {
    const header = splitTableRow(this.lines[i]!);
    const width = header.length;
    const cell = (text: string): string => inlineText(text, this.refs);
    const rows: string[][] = [header.map(cell)];
    let j = i + 2;
    while (j < this.lines.length) {
      const line = this.lines[j]!;
      if (isBlank(line) || !line.includes('|') || line === FORM_FEED || (startsBlock(this.lines, j) && !isTableStart(this.lines, j))) break;
      const cells = splitTableRow(line).map(cell);
      rows.push(Array.from({ length: width }, (_, c) => cells[c] ?? ''));
      j++;
    }
    this.push({ kind: 'table', rows, headerRows: 1, ...this.pos(i, j - 1) });
    return j;
  }

  private list(i: number): number {
    const items: Array<{ depth: number; text: string[] }> = [];
    const stack: number[] = [];
    let ordered = false;
    let contentIndent = 0;
    let j = i;
    let last = i;
    while (j < this.lines.length) {
      const line = this.lines[j]!;
      if (line === FORM_FEED || PAGE_MARKER_RE.test(line)) break;
      if (isBlank(line)) {
        let k = j + 1;
        while (k < this.lines.length && isBlank(this.lines[k]!)) k++;
        const next = this.lines[k];
        if (next === undefined || next === FORM_FEED) break;
        const nextItem = LIST_RE.test(next) && !THEMATIC_RE.test(next);
        if (!(nextItem && indentOf(next) < contentIndent + 4) && indentOf(next) < Math.max(2, contentIndent)) break;
        j = k;
        continue;
      }
      const m = THEMATIC_RE.test(line) ? null : LIST_RE.exec(line);
      if (m && (items.length === 0 || indentOf(line) < contentIndent + 4)) {
        const indent = indentOf(m[1]!);
        // a top-level item of the other kind (bullet vs ordered) starts a new list
        if (items.length > 0 && indent <= (stack[0] ?? 0) && /\d/.test(m[2]!) !== ordered) break;
        while (stack.length > 0 && stack[stack.length - 1]! > indent) stack.pop();
        if (stack.length === 0 || stack[stack.length - 1]! < indent) stack.push(indent);
        if (items.length === 0) ordered = /\d/.test(m[2]!);
        contentIndent = indent + m[2]!.length + Math.min(Math.max(1, (m[3] ?? ' ').length), 4);
        items.push({ depth: stack.length - 1, text: [m[4] ?? ''] });
      } else if (items.length > 0 && (indentOf(line) >= 2 || (!isBlank(this.lines[j - 1]!) && !startsBlock(this.lines, j)))) {
        items[items.length - 1]!.text.push(line.trim());
      } else break;
      last = j;
      j++;
    }
    const list = items
      .map((item) => ({ depth: item.depth, text: inlineText(item.text.map((t) => t.replace(/\\$/, '')).join(' '), this.refs) }))
      .filter((item) => item.text !== '')
      .map((item) => `${'  '.repeat(item.depth)}${item.text}`);
    if (list.length > 0) this.push({ kind: 'list', items: list, ordered, ...this.pos(i, last) });
    return last + 1;
  }

  private paragraph(i: number): number {
    let lines: string[] = [];
    let start = i;
    let j = i;
    const flush = (end: number): void => {
      const text = inlineText(lines.map((l) => l.trim().replace(/\\$/, '')).join(' '), this.refs);
      if (text) this.push({ kind: 'paragraph', text, ...this.pos(start, end) });
      lines = [];
    };
    while (j < this.lines.length) {
      const line = this.lines[j]!;
      if (isBlank(line) || PAGE_MARKER_RE.test(line)) break;
      if (lines.length > 0) {
        const setext = SETEXT_RE.exec(line);
        if (setext) {
          const text = inlineText(lines.map((l) => l.trim()).join(' '), this.refs);
          if (text) this.push({ kind: 'heading', level: setext[1]!.startsWith('=') ? 1 : 2, text, ...this.pos(start, j) });
          return j + 1;
        }
        if (startsBlock(this.lines, j)) break;
      } else if (j > i && startsBlock(this.lines, j)) break;
      const images = imagesOnLine(line, this.refs);
      if (images) {
        if (lines.length > 0) flush(j - 1);
        for (const image of images) this.push({ kind: 'image', image, ...this.pos(j, j) });
        start = j + 1;
        j++;
        continue;
      }
      if (lines.length === 0) start = j;
      lines.push(line);
      j++;
    }
    if (lines.length > 0) flush(j - 1);
    return j;
  }
}

/**
 * Reads Markdown into blocks with their page and line positions. Page breaks: a line
 * `<!-- page N -->` starts page N (1-based; `<!-- page -->` starts the next page; a marker that does
 * not move forward counts as the next page with a `PAGE_MARKER_OUT_OF_ORDER` warning), and a form feed
 * (`\f`) starts the next page. Markers inside fenced code are code text.
 */
export function readMarkdownBlocks(markdown: string): MdDocument {
  const text = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const parts = raw.split('\f');
    parts.forEach((part, k) => {
      if (k > 0) lines.push(FORM_FEED);
      if (part !== '' || parts.length === 1) lines.push(part);
    });
  }
  const reader = new Reader(lines, linkRefs(lines));
  reader.read();
  return { blocks: reader.blocks, pageLines: reader.pageLines, warnings: reader.warnings };
}
