import { DocTreeError, MinerUContentListSchema } from '@doctree/schema';
import type { MinerUContentList, PageSize } from '@doctree/schema';

/**
 * Trust-boundary checks of MinerU output: `content_list.json` (validated with the zod schema of
 * `@doctree/schema`) and the page sizes of `middle.json`. Every failure is a `MINERU_INVALID`
 * DocTreeError whose message names the block index and the field.
 */

/** How many problems an error message lists. */
const MAX_LISTED = 5;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/** `bbox[2]`, `list_items[0]`, `image_caption` from a zod path below the block. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out;
}

interface Problem {
  block?: number;
  field?: string;
  message: string;
}

function invalid(problems: Problem[], file: string | undefined, what: string, hint?: string): DocTreeError {
  const listed = problems.slice(0, MAX_LISTED).map((p) => {
    const where = [p.block !== undefined ? `block ${p.block}` : undefined, p.field !== undefined ? `field "${p.field}"` : undefined].filter(Boolean).join(', ');
    return `${where ? `${where}: ` : ''}${p.message}`;
  });
  const more = problems.length > MAX_LISTED ? `; and ${problems.length - MAX_LISTED} more` : '';
  return new DocTreeError('MINERU_INVALID', `invalid MinerU ${what}: ${listed.join('; ')}${more}`, {
    ...(file !== undefined ? { file } : {}),
    ...(hint !== undefined ? { hint } : {}),
    details: { problems: problems.slice(0, 50) },
  });
}

const STRING_ARRAY_FIELDS = ['chart_caption', 'chart_footnote', 'code_footnote'] as const;

/**
 * Validates a parsed `content_list.json`: an array of objects with a non-empty `type`, an integer
 * `page_idx` ≥ 0, an optional `bbox` of four numbers, `text_level` an integer ≥ 0 and string / string-array
 * fields where MinerU writes them. Unknown fields are kept.
 *
 * @throws DocTreeError `MINERU_INVALID` naming the block index and field, with `file` set.
 */
export function validateMinerUContentList(value: unknown, file?: string): MinerUContentList {
  if (!Array.isArray(value)) {
    const middle = typeof value === 'object' && value !== null && 'pdf_info' in value;
    throw invalid([{ message: `content_list.json must be an array of blocks, got ${describe(value)}` }], file, 'content_list.json', middle
      ? 'This looks like middle.json; pass *_content_list.json as the content list and middle.json as the optional page-size source.'
      : undefined);
  }
  if (value.length > 0 && value.every((entry) => Array.isArray(entry))) {
    throw invalid([{ message: 'content_list.json holds arrays of pages, not blocks' }], file, 'content_list.json',
      'This looks like content_list_v2.json; pass the *_content_list.json file MinerU writes next to it.');
  }
  const result = MinerUContentListSchema.safeParse(value);
  const problems: Problem[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [index, ...rest] = issue.path;
      problems.push({
        ...(typeof index === 'number' ? { block: index } : {}),
        ...(rest.length > 0 ? { field: fieldPath(rest) } : {}),
        message: issue.message,
      });
    }
  }
  value.forEach((block: unknown, index) => {
    if (typeof block !== 'object' || block === null) return; // reported by zod
    const record = block as Record<string, unknown>;
    const level = record['text_level'];
    if (typeof level === 'number' && Number.isInteger(level) && level < 0) {
      problems.push({ block: index, field: 'text_level', message: `must be 0 (body text) or a heading level ≥ 1, got ${level}` });
    }
    for (const field of STRING_ARRAY_FIELDS) {
      const entry = record[field];
      if (entry === undefined) continue;
      if (!Array.isArray(entry)) problems.push({ block: index, field, message: `expected an array of strings, got ${describe(entry)}` });
      else entry.forEach((item: unknown, i) => {
        if (typeof item !== 'string') problems.push({ block: index, field: `${field}[${i}]`, message: `expected a string, got ${describe(item)}` });
      });
    }
  });
  if (problems.length > 0 || !result.success) {
    problems.sort((a, b) => (a.block ?? -1) - (b.block ?? -1));
    throw invalid(problems, file, 'content_list.json');
  }
  return result.data;
}

/** Page sizes read from `middle.json`, by 0-based page index, and whether MinerU ran OCR. */
export interface MinerUMiddleInfo {
  /** Page size in PDF points by `page_idx`. */
  pageSizes: Map<number, PageSize>;
  /** Number of pages `middle.json` describes. */
  pageCount: number;
  /** True when `_parse_type` is `ocr` (the text came from OCR, not a text layer). */
  ocr: boolean;
}

/**
 * Reads the page sizes of a parsed `middle.json` (`pdf_info[i].page_size` = `[width, height]` in points,
 * `pdf_info[i].page_idx`, defaulting to `i`). Everything else in the file is ignored.
 *
 * `maxPages` bounds the pages: more entries, or a `page_idx` at or beyond it, is `MINERU_INVALID`.
 *
 * @throws DocTreeError `MINERU_INVALID` naming `pdf_info[i].page_size` / `page_idx`, with `file` set.
 */
export function readMinerUMiddle(value: unknown, file?: string, maxPages = Number.MAX_SAFE_INTEGER): MinerUMiddleInfo {
  const what = 'middle.json';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid([{ message: `middle.json must be an object with pdf_info, got ${describe(value)}` }], file, what);
  }
  const record = value as Record<string, unknown>;
  const info = record['pdf_info'];
  if (!Array.isArray(info)) throw invalid([{ field: 'pdf_info', message: `expected an array of pages, got ${describe(info)}` }], file, what);
  if (info.length > maxPages) throw invalid([{ field: 'pdf_info', message: `${info.length} pages, more than the maximum page count ${maxPages}` }], file, what);
  const problems: Problem[] = [];
  const pageSizes = new Map<number, PageSize>();
  info.forEach((page: unknown, i) => {
    if (typeof page !== 'object' || page === null || Array.isArray(page)) {
      problems.push({ field: `pdf_info[${i}]`, message: `expected a page object, got ${describe(page)}` });
      return;
    }
    const entry = page as Record<string, unknown>;
    const rawIdx = entry['page_idx'] ?? i;
    if (typeof rawIdx !== 'number' || !Number.isInteger(rawIdx) || rawIdx < 0) {
      problems.push({ field: `pdf_info[${i}].page_idx`, message: `expected an integer ≥ 0, got ${describe(rawIdx)}` });
      return;
    }
    if (rawIdx >= maxPages) {
      problems.push({ field: `pdf_info[${i}].page_idx`, message: `${rawIdx} is not below the maximum page count ${maxPages}` });
      return;
    }
    const size = entry['page_size'];
    const ok = Array.isArray(size) && size.length === 2 && size.every((n: unknown) => typeof n === 'number' && Number.isFinite(n) && n > 0);
    if (!ok) {
      problems.push({ field: `pdf_info[${i}].page_size`, message: `expected [width, height] in points (two positive numbers), got ${JSON.stringify(size) ?? 'nothing'}` });
      return;
    }
    pageSizes.set(rawIdx, { width: size[0] as number, height: size[1] as number });
  });
  if (problems.length > 0) throw invalid(problems, file, what);
  let pageCount = info.length;
  for (const k of pageSizes.keys()) pageCount = Math.max(pageCount, k + 1);
  return { pageSizes, pageCount, ocr: record['_parse_type'] === 'ocr' };
}
