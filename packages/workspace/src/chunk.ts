import type { ContentList } from '@doctree/schema';
import { packChildren, textHash, type ChildSizes } from './chunking.js';
import type { ChildRecord, ParentRecord } from './chunk-records.js';
import { isFurniture } from './parse.js';

type Block = ContentList['blocks'][number];

/** Rows of a Markdown table as the page shows them: cells separated by spaces, no pipes or separator rows. */
function tableRows(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => !/^\s*\|?\s*:?-{3,}/.test(line))
    .map((line) =>
      line
        .replace(/^\s*\|\s*|\s*\|\s*$/g, '')
        .split(/\s*\|\s*/)
        .filter(Boolean)
        .join(' '),
    )
    .filter(Boolean);
}

/** Id of the chunker: a change of how parents and children are cut changes it, and `chunk` rebuilds every document. */
export const CHUNKER_ID = 'doctree-workspace-sentences-v3';

/**
 * Spans of a block's text ({@link blockBodyText}) that are not on the page as written: the header line of a table
 * whose header has several rows (the reader joins a column's header cells with ` / `).
 */
export function composedSpans(block: Block): Array<[number, number]> {
  if (block.type !== 'table') return [];
  const rows = tableRows(block.markdown ?? '');
  const header = rows[0];
  if (header === undefined || !/ \/ /.test(header) || !/^\s*\|/.test(block.markdown ?? '')) return [];
  const start = block.table_caption.filter(Boolean).reduce((n, c) => n + c.length + 1, 0);
  return [[start, start + header.length]];
}

/** Text a block contributes to its parent ('' for images without captions). */
export function blockBodyText(block: Block): string {
  switch (block.type) {
    case 'text':
    case 'title':
    case 'equation':
      return block.text;
    case 'list':
      return block.list_items.join('\n');
    case 'table':
      return [...block.table_caption, ...tableRows(block.markdown ?? ''), ...block.table_footnote].filter(Boolean).join('\n');
    case 'code':
      return [...block.code_caption, block.code_body].join('\n');
    case 'image':
      return [...block.image_caption, ...block.image_footnote].join('\n');
    case 'chart':
      return block.chart_caption.join('\n');
    default:
      return '';
  }
}

/** Three-digit (or longer) ordinal: 3 → `003`. */
function ordinal(n: number): string {
  return String(n).padStart(3, '0');
}

/**
 * Parents of a parsed document: one per page with text for a PDF (`doc_uid:p003` is page 3), one per top-level
 * section for Markdown (`doc_uid:s001`, no page). Furniture (headers, footers, page numbers, running titles,
 * repeated lines) is left out; blocks are joined by a blank line.
 */
export function buildParents(docUid: string, list: ContentList): ParentRecord[] {
  const paged = list.source.kind !== 'markdown';
  const groups: Array<{ key: number; page: number | null; path: string[]; texts: string[]; composed: Array<[number, number]> }> = [];
  const path: string[] = [];
  let sectionCount = 0;
  for (const block of [...list.blocks].sort((a, b) => a.read_order - b.read_order)) {
    if (isFurniture(block)) continue;
    const body = blockBodyText(block);
    const text = body.trim();
    const lead = body.length - body.trimStart().length;
    if (block.type === 'title') {
      path.splice(block.text_level - 1);
      path[block.text_level - 1] = block.text.trim();
      for (let i = 0; i < path.length; i++) path[i] ??= '';
    }
    if (text === '') continue;
    const startsSection = !paged && block.type === 'title' && block.text_level <= 2;
    if (startsSection) sectionCount++;
    const key = paged ? block.page_idx : sectionCount;
    let group = groups[groups.length - 1];
    if (!group || group.key !== key) {
      group = { key, page: paged ? block.page_idx : null, path: path.filter(Boolean), texts: [], composed: [] };
      groups.push(group);
    }
    const at = group.texts.reduce((n, t) => n + t.length + 2, 0);
    for (const [a, b] of composedSpans(block)) {
      const start = Math.max(0, a - lead);
      const end = Math.min(text.length, b - lead);
      if (end > start) group.composed.push([at + start, at + end]);
    }
    group.texts.push(text);
  }
  const parents: ParentRecord[] = [];
  let docChar = 0;
  let s = 0;
  for (const group of groups) {
    const parentText = group.texts.join('\n\n');
    const id = group.page !== null ? `${docUid}:p${ordinal(group.page + 1)}` : `${docUid}:s${ordinal(++s)}`;
    parents.push({
      parent_id: id,
      doc_uid: docUid,
      page_index: group.page,
      page_start: group.page !== null ? group.page + 1 : null,
      page_end: group.page !== null ? group.page + 1 : null,
      section_path: group.path,
      doc_char_start: docChar,
      parent_text: parentText,
      hash: textHash(parentText),
      unquotable: group.composed,
    });
    docChar += parentText.length + 2;
  }
  return parents;
}

/** Children of one parent: `parent_id:c01`, `:c02`… with their spans in the parent's text. */
export function buildChildren(parent: ParentRecord, sizes: ChildSizes): ChildRecord[] {
  return packChildren(parent.parent_text, sizes).map((span, i) => {
    const text = parent.parent_text.slice(span.start, span.end);
    return {
      chunk_id: `${parent.parent_id}:c${String(i + 1).padStart(2, '0')}`,
      parent_id: parent.parent_id,
      doc_uid: parent.doc_uid,
      char_start: span.start,
      char_end: span.end,
      tokens: span.tokens,
      overlap_tokens: span.overlap_tokens,
      text,
      hash: textHash(text),
    };
  });
}
