import type { BBox, ContentBlock, OutlineEntry, PageSize } from '@doctree/schema';
import { gridToHtml, tableToMarkdown } from '../mineru/html-table.js';
import type { PdfRawBlock } from './pdf-blocks.js';
import { collapseSpaces, unionBox } from './pdf-lines.js';
import { compactLevels, openAtTop } from '../enhancer/level-compaction.js';
import { headingNumbering, isPageNumberText, listMarker, looksLikeEquation } from './pdf-patterns.js';
import type { HeadingNumbering, ListMarker } from './pdf-patterns.js';
import { segmentTitles } from './title-segments.js';

/**
 * Typing raw PDF blocks into content-list blocks with document-wide context: headings and their
 * levels (font statistics, numbering, outline), lists, equations, page furniture, and paragraph
 * text with line-break hyphenation repaired. Pure functions.
 */

const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Words seen in the document, to decide whether a line-break hyphen joins a word. */
export class PdfVocabulary {
  /** Lower-case words without hyphens. */
  readonly words = new Set<string>();
  /** Lower-case hyphenated compounds seen inside lines (`self-supervised`). */
  readonly compounds = new Set<string>();

  /**
   * Adds the words of one line. A hyphen at the very end of the line is not a compound. Words are the
   * matches of the regex `[A-Za-z]+(?:-[A-Za-z]+)*`, read by a scan (this runs over every line of the document).
   */
  addLine(text: string): void {
    const n = text.length;
    for (let i = 0; i < n; ) {
      if (!isAsciiLetter(text.charCodeAt(i))) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < n && isAsciiLetter(text.charCodeAt(j))) j++;
      // `-` and more letters continue the word (`self-supervised`); a hyphen without a letter after it ends it.
      while (j + 1 < n && text.charCodeAt(j) === 45 && isAsciiLetter(text.charCodeAt(j + 1))) {
        j += 2;
        while (j < n && isAsciiLetter(text.charCodeAt(j))) j++;
      }
      this.addWord(text.slice(i, j).toLowerCase());
      i = j;
    }
  }

  /** Adds one lower-case word or compound. */
  private addWord(word: string): void {
    if (word.includes('-')) {
      this.compounds.add(word);
      for (const part of word.split('-')) if (part.length >= 3) this.words.add(part);
    } else if (word.length >= 3) {
      this.words.add(word);
    }
  }
}

/** Prefixes that form hyphenated compounds, so a line-break hyphen after them stays. */
const COMPOUND_PREFIXES = new Set(['self', 'non', 'well', 'cross', 'quasi', 'half', 'ill', 'long', 'short', 'high', 'low', 'state', 'end', 'real']);

/** Decides whether `left-` + `right` split at a line break is one word (`exam-`+`ple`) or a compound. */
export function joinsAsWord(left: string, right: string, vocabulary?: PdfVocabulary): boolean {
  if (left.includes('-')) return false;
  const l = left.toLowerCase();
  const r = right.toLowerCase();
  if (vocabulary?.compounds.has(`${l}-${r}`)) return false;
  if (vocabulary?.words.has(l + r)) return true;
  if (COMPOUND_PREFIXES.has(l)) return false;
  if (/^[A-Z]{2,}$/.test(left) || /\d/.test(left)) return false;
  return true;
}

/**
 * The word before a line-break hyphen at the very end of `text` and the hyphen: what
 * `/([A-Za-z][A-Za-z-]*?)([-\u00ad\u2010])$/.exec(text)` captures, read from the end only. That regex, run on a
 * block's text as it grows line by line, tried every start position of the whole text each time (quadratic in the
 * block). Its match starts at the first ASCII letter of the run of letters and hyphens that ends right before the
 * last character.
 */
function trailingHyphen(text: string): { token: string; hyphen: string } | undefined {
  const end = text.length - 1;
  const hyphen = text[end];
  if (hyphen !== '-' && hyphen !== '\u00ad' && hyphen !== '\u2010') return undefined;
  let from = end;
  while (from > 0) {
    const c = text.charCodeAt(from - 1);
    if (!isAsciiLetter(c) && c !== 45) break;
    from--;
  }
  while (from < end && !isAsciiLetter(text.charCodeAt(from))) from++;
  return from < end ? { token: text.slice(from, end), hyphen } : undefined;
}

/**
 * Joins the rows of a block into one line of text: single spaces, no newlines, and a line-break
 * hyphen (`exam-` / `ple`) removed only when the two halves form a word (see {@link joinsAsWord}).
 */
export function joinBlockLines(lines: readonly string[], vocabulary?: PdfVocabulary): string {
  let out = '';
  for (const raw of lines) {
    const next = raw.trim();
    if (!next) continue;
    if (!out) {
      out = next;
      continue;
    }
    const hyphen = trailingHyphen(out);
    if (hyphen) {
      const right = /^[a-z]+/.exec(next)?.[0];
      const token = hyphen.token;
      if (hyphen.hyphen === '\u00ad') out = out.slice(0, -1) + next;
      else if (right !== undefined && joinsAsWord(token, right, vocabulary)) out = out.slice(0, -1) + next;
      else out += next;
      continue;
    }
    if (out.endsWith('\u00ad')) {
      out = out.slice(0, -1) + next;
      continue;
    }
    out += ' ' + next;
  }
  return collapseSpaces(out.includes('\u00ad') ? out.replace(/\u00ad/g, '') : out);
}

/** Document-wide context for {@link classifyBlocks}. */
export interface ClassifyContext {
  /** Body font size (most common size by characters). */
  bodySize: number;
  /** Flattened PDF outline. */
  outline: readonly OutlineEntry[];
  /** Page labels by page index, when the PDF has them. */
  labels?: ReadonlyArray<string | undefined>;
  /** Page sizes by page index. */
  pageSizes: ReadonlyMap<number, PageSize>;
  /** Words of the document for de-hyphenation. */
  vocabulary?: PdfVocabulary;
  /** Body font size of each page with enough text to tell (page index → size). */
  pageBodySizes?: ReadonlyMap<number, number>;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Normalises text for outline matching: lower case, letters and digits only. */
function normKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Removes heading numbering (`2.3`, `Item 7.`, `PART II`) from the start of a title. */
function stripNumbering(text: string): string {
  return text
    .trim()
    .replace(/^(?:(?:part|chapter|appendix|item|note|section)\s+[\w.]+|\d{1,2}(?:\.\d{1,2})*|[IVX]{1,5}|[A-H](?=\.))[.:]?\s+/i, '')
    .trim();
}

/** True when letters are (almost) all upper case and there are at least two words. */
function isAllCaps(text: string): boolean {
  const letters = text.replace(/[^A-Za-z]/g, '');
  if (letters.length < 6) return false;
  const upper = letters.replace(/[^A-Z]/g, '').length;
  return upper / letters.length >= 0.9 && text.trim().split(/\s+/).length >= 2;
}

/**
 * Captions and notes under figures and tables: a label word with a number or letter (`Figure 3`, `TABLE II`,
 * `Exhibit 21`), or `Source:` / `Note:`. Not a numbered note heading (`NOTE 1. Significant Accounting Policies`),
 * nor `Notes to Consolidated Financial Statements`, nor `Table of Contents`.
 */
const CAPTION = /^(?:[Ff]ig(?:ure|\.)|FIG(?:URE|\.)|[Tt]able|TABLE|[Ee]xhibit|EXHIBIT|[Cc]hart|CHART|[Pp]late|PLATE)\s*(?:\d|[A-Z]\d*\b|[IVX]+\b)|^(?:sources?|notes?)\s*:/i;

/** Numbering kinds that name a division of the document (their headings may end in a full stop). */
const DIVISION_KINDS: readonly string[] = ['part', 'chapter', 'appendix', 'item', 'note', 'section'];

/** Looks of a title candidate. */
interface TitleLook {
  larger: boolean;
  caps: boolean;
  numbering?: HeadingNumbering;
}

/**
 * Decides from size, weight, case and numbering whether a body block reads as a heading.
 * `pageBodySize` is the body size of the block's page (defaults to the document's).
 */
export function titleLook(
  block: Pick<PdfRawBlock, 'size' | 'bold' | 'lines' | 'tocLike'>,
  text: string,
  bodySize: number,
  pageBodySize: number = bodySize,
): TitleLook | undefined {
  if (!text || text.length > 250 || block.lines.length > 4 || block.tocLike) return undefined;
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const digits = (text.match(/\d/g) ?? []).length;
  if (letters < 2 || digits > letters) return undefined;
  if (/^[a-z]/.test(text) || /[,;]$/.test(text) || CAPTION.test(text)) return undefined;
  if (block.size < bodySize * 0.9) return undefined;
  const numbering = headingNumbering(text);
  const rest = stripNumbering(text);
  // Table-of-contents rows: title followed by a page number or dot leaders.
  if (/\.{3,}|…/.test(rest)) return undefined;
  // Table rows: amounts and several figures are not headings.
  const figures = rest.split(/\s+/).filter((w) => /^[($]?\$?[\d,.]*\d[\d,.]*%?\)?$/.test(w)).length;
  if (figures >= 2 || /\$\s?\d/.test(rest)) return undefined;
  const words = text.split(/\s+/).length;
  // A long line ending in a full stop reads as a sentence, unless it is a numbered division (`Item 7. Management’s
  // Discussion and Analysis of Financial Condition and Results of Operations.`).
  const division = numbering !== undefined && DIVISION_KINDS.includes(numbering.kind);
  const sentence = /[.!?]$/.test(text) && words > 12 && !division;
  // Larger than the document's body text, and than this page's (an exhibit set in a larger body).
  const larger = block.size >= bodySize * 1.12 && block.size - bodySize >= 0.9 && block.size >= pageBodySize * 1.12;
  const caps = isAllCaps(text);
  const look: TitleLook = { larger, caps, ...(numbering ? { numbering } : {}) };
  if (larger) return sentence && text.length > 150 ? undefined : look;
  if (block.bold) return text.length <= 160 && block.lines.length <= 3 && !sentence ? look : undefined;
  const endsLikeSentence = /[.:]$/.test(text.replace(/^\S+\s*/, ''));
  if (sentence || (endsLikeSentence && !(division && numbering.kind !== 'note'))) return undefined;
  if (caps && text.length <= 100 && block.lines.length <= 2 && !/\d{3,}/.test(text)) return look;
  if (numbering && block.lines.length <= 2 && text.length <= 120) {
    if (DIVISION_KINDS.includes(numbering.kind)) return look;
    // Regular-weight decimal headings: `2.3 Setup`, `1 Introduction` (not `1. We ...`, a list).
    if (numbering.kind === 'decimal' && (numbering.depth >= 2 || !/^\d+\./.test(text)) && words <= 10) return look;
  }
  return undefined;
}

interface Typed {
  raw: PdfRawBlock;
  text: string;
  kind: 'title' | 'text' | 'list' | 'equation' | 'header' | 'footer' | 'page_number' | 'aside_text' | 'table' | 'image';
  marker?: ListMarker;
  items?: string[];
  look?: TitleLook;
  outlineLevel?: number;
  level?: number;
}

/**
 * Matches outline entries to body blocks on the bookmark's page (or the next): exact text first,
 * then text without numbering; blocks styled like headings win over look-alikes in figures.
 * Returns block index → outline level.
 */
export function matchOutline(
  blocks: ReadonlyArray<{ raw: PdfRawBlock; text: string }>,
  outline: readonly OutlineEntry[],
  bodySize: number,
): Map<number, number> {
  const matched = new Map<number, number>();
  if (outline.length === 0) return matched;
  const keys = blocks.map((b) =>
    b.raw.zone === 'body' && b.text.length <= 300 ? { full: normKey(b.text), bare: normKey(stripNumbering(b.text)) } : undefined,
  );
  const byPage = new Map<number, number[]>();
  blocks.forEach((b, i) => {
    const list = byPage.get(b.raw.page_idx) ?? [];
    list.push(i);
    byPage.set(b.raw.page_idx, list);
  });
  const everything = blocks.map((_, i) => i);
  for (const entry of outline) {
    const full = normKey(entry.title);
    const bare = normKey(stripNumbering(entry.title));
    if (!full) continue;
    const candidates =
      entry.page_idx !== undefined ? [...(byPage.get(entry.page_idx) ?? []), ...(byPage.get(entry.page_idx + 1) ?? [])] : everything;
    let best = -1;
    let bestScore = 0;
    for (const i of candidates) {
      const key = keys[i];
      const block = blocks[i]!;
      if (!key || matched.has(i)) continue;
      let score = key.full === full ? 2 : bare.length >= 3 && key.bare === bare ? 1 : 0;
      if (score === 0) continue;
      const heading = block.raw.size >= bodySize * 0.95 && (block.raw.bold || block.raw.size >= bodySize * 1.12 || isAllCaps(block.text));
      if (heading) score += 2;
      else if (block.raw.size < bodySize * 0.9) score -= 0.5;
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    if (best >= 0) matched.set(best, Math.min(9, entry.level));
  }
  return matched;
}

const mode = (values: readonly number[]): number | undefined => {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: number | undefined;
  let bestCount = 0;
  for (const [v, c] of counts) {
    if (c > bestCount || (c === bestCount && best !== undefined && v < best)) {
      best = v;
      bestCount = c;
    }
  }
  return best;
};

/** Style key of a title: size (0.5 pt), weight, caps. */
function styleKey(t: Typed): string {
  return `${Math.round(t.raw.size * 2) / 2}|${t.raw.bold ? 1 : 0}|${t.look?.caps ? 1 : 0}`;
}

/** Styles ranked most prominent first: larger, then bold, then all caps. */
function rankStyles(keys: Iterable<string>): string[] {
  return [...new Set(keys)].sort((a, b) => {
    const [sa = 0, ba = 0, ca = 0] = a.split('|').map(Number);
    const [sb = 0, bb = 0, cb = 0] = b.split('|').map(Number);
    return sb - sa || bb - ba || cb - ca;
  });
}

/** Pages a bold band line must repeat on to stay a running header / footer. */
const BAND_TEMPLATE_MIN_PAGES = 3;

const OUTER_KINDS = ['part', 'chapter', 'appendix', 'item'];

/** The title the numbered notes of financial statements follow. */
const NOTES_HEADING = /^notes\s+to\s+(?:the\s+)?(?:condensed\s+)?(?:consolidated\s+|combined\s+)?(?:interim\s+)?financial\s+statements\b/i;

/** Notes need at least this many numbered note titles to be treated as a series. */
const MIN_NOTES = 2;

/**
 * Assigns `text_level` to titles (document order): styles ranked by size, weight and case give
 * levels; outline-matched titles take their bookmark depth (and lend it to titles of the same
 * style); numbering fixes the rest (`2.3.1` two levels below `2`, Item below PART, decimal
 * sections below chapters); without an outline, unnumbered titles after the first PART / Item /
 * Chapter nest below the numbered ones. Levels are finally made dense (1, 2, 3, ...).
 */
function assignTitleLevels(titles: Typed[]): void {
  if (titles.length === 0) return;
  const styles = rankStyles(titles.map(styleKey));
  const styleLevel = new Map(styles.map((s, i) => [s, Math.min(9, i + 1)]));
  const fromOutline = titles.filter((t) => t.outlineLevel !== undefined);
  if (fromOutline.length > 0) {
    let previous = 0;
    for (const style of styles) {
      const mapped = mode(fromOutline.filter((t) => styleKey(t) === style).map((t) => t.outlineLevel!));
      const level = mapped ?? Math.min(9, previous + 1);
      styleLevel.set(style, level);
      previous = level;
    }
  }
  for (const t of titles) t.level = t.outlineLevel ?? styleLevel.get(styleKey(t)) ?? 1;
  const free = titles.filter((t) => t.outlineLevel === undefined);
  const kindOf = (t: Typed): string | undefined => t.look?.numbering?.kind;
  const ofKind = (...kinds: string[]): Typed[] => free.filter((t) => kinds.includes(kindOf(t) ?? ''));
  const kindLevel = (kinds: string[]): number | undefined => mode(titles.filter((t) => kinds.includes(kindOf(t) ?? '')).map((t) => t.level!));
  const setKind = (kinds: string[], level: number): void => {
    for (const t of ofKind(...kinds)) t.level = level;
  };
  let outer = 0;
  let deepestOuter = 0;
  const part = kindLevel(['part']);
  if (part !== undefined) {
    setKind(['part'], part);
    outer = part;
    deepestOuter = part;
  }
  const chapter = kindLevel(['chapter', 'appendix']);
  if (chapter !== undefined) {
    const level = Math.max(chapter, outer + 1);
    setKind(['chapter', 'appendix'], level);
    outer = level;
    deepestOuter = level;
  }
  const item = kindLevel(['item']);
  if (item !== undefined) {
    const level = Math.max(item, (part ?? 0) + 1);
    setKind(['item'], level);
    deepestOuter = Math.max(deepestOuter, level);
  }
  const decimals = titles.filter((t) => ['decimal', 'section'].includes(kindOf(t) ?? ''));
  if (decimals.length > 0) {
    const topLevel = decimals.filter((t) => t.look!.numbering!.depth === 1);
    const anchor = Math.max(
      mode((topLevel.length > 0 ? topLevel : decimals).map((t) => t.level! - t.look!.numbering!.depth + 1)) ?? 1,
      outer + 1,
      1,
    );
    for (const t of ofKind('decimal', 'section')) t.level = anchor + t.look!.numbering!.depth - 1;
    // A run-in paragraph heading (`Direct Optimization with Human Feedback.` set alone on its line) belongs
    // inside the numbered section before it, never beside it.
    let lastNumbered: Typed | undefined;
    for (const t of titles) {
      if (['decimal', 'section'].includes(kindOf(t) ?? '')) lastNumbered = t;
      else if (kindOf(t) === undefined && t.outlineLevel === undefined && lastNumbered && /[^.]\.$/.test(t.text) && t.level! <= lastNumbered.level!) {
        t.level = lastNumbered.level! + 1;
      }
    }
  }
  const roman = kindLevel(['roman']);
  if (roman !== undefined) {
    const level = Math.max(roman, outer + 1);
    setKind(['roman'], level);
    setKind(['letter'], level + 1);
  }
  const notes = titles.filter((t) => kindOf(t) === 'note');
  const noteSeries = notes.length >= MIN_NOTES;
  if (fromOutline.length === 0 && deepestOuter > 0) {
    // Unnumbered titles nest under the closest preceding PART / Chapter / Item, ranked by style within it.
    // Numbered notes sit one level below the `Notes to … Financial Statements` title of their Item (else one below
    // the Item), all at one level; unnumbered titles after a note nest inside that note.
    let outerTitle: Typed | undefined;
    let enclosing: Typed | undefined;
    let group: Typed[] = [];
    let noteLevel: number | undefined;
    let notesHeading: Typed | undefined;
    const place = (): void => {
      if (!enclosing) return;
      const ranked = rankStyles(group.map(styleKey));
      for (const t of group) t.level = enclosing.level! + 1 + ranked.indexOf(styleKey(t));
    };
    for (const t of titles) {
      const kind = kindOf(t);
      if (OUTER_KINDS.includes(kind ?? '')) {
        place();
        outerTitle = t;
        enclosing = t;
        group = [];
        noteLevel = undefined;
        notesHeading = undefined;
      } else if (kind === 'note' && noteSeries && outerTitle) {
        place();
        noteLevel ??= notesHeading ? notesHeading.level! + 1 : outerTitle.level! + 1;
        t.level = noteLevel;
        enclosing = t;
        group = [];
      } else if (kind === undefined || kind === 'note') {
        group.push(t);
        if (noteLevel === undefined && NOTES_HEADING.test(t.text)) notesHeading = t;
      }
    }
    place();
  } else if (noteSeries) {
    // Without Items to hang on: all notes at one level, below the notes title when there is one.
    const heading = titles.find((t) => kindOf(t) === undefined && NOTES_HEADING.test(t.text) && titles.indexOf(t) < titles.indexOf(notes[0]!));
    const level = heading ? heading.level! + 1 : (mode(notes.map((t) => t.level!)) ?? 1);
    for (const t of notes) if (t.outlineLevel === undefined) t.level = level;
  }
  const levels = compactLevels(titles.map((t) => t.level ?? 1));
  titles.forEach((t, i) => (t.level = levels[i]));
}

/**
 * Levels titles part by part ({@link segmentTitles}): front matter, body and back matter each get their own style
 * ranks and numbering levels, and the body and back matter open at level 1 ({@link openAtTop}), so a cover banner
 * never encloses `PART I` and a document appended after the signatures never nests in the last Item.
 */
function levelTitlesBySegment(titles: Typed[], pageCount: number): void {
  const segments = segmentTitles(
    titles.map((t) => ({ text: t.text, pageIdx: t.raw.page_idx, ...(t.look?.numbering ? { numbering: t.look.numbering } : {}) })),
    pageCount,
  );
  for (const segment of segments) {
    const group = segment.indices.map((i) => titles[i]!);
    assignTitleLevels(group);
    if (segment.role === 'front') continue;
    const levels = openAtTop(group.map((t) => t.level ?? 1));
    group.forEach((t, i) => (t.level = levels[i]));
  }
}

/**
 * Types raw blocks (document order) into content-list blocks with ids and global reading order.
 * Furniture bands give `header` / `footer` / `page_number`; body blocks become `title`, `list`
 * (consecutive items merged), `equation` or `text`; vertical text becomes `aside_text`.
 */
export function classifyBlocks(raws: readonly PdfRawBlock[], context: ClassifyContext): ContentBlock[] {
  const { bodySize, vocabulary } = context;
  // Pages each band text appears on (digits folded, so "Page 3" and "Page 4" count as one template).
  const bandPages = new Map<string, Set<number>>();
  const bandKey = (text: string): string => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
  for (const raw of raws) {
    if (raw.zone !== 'top' && raw.zone !== 'bottom') continue;
    const key = bandKey(raw.lines.map((l) => l.text).join(' '));
    const pages = bandPages.get(key) ?? new Set<number>();
    pages.add(raw.page_idx);
    bandPages.set(key, pages);
  }
  const typed: Typed[] = raws.map((raw) => {
    if (raw.region) return { raw, text: '', kind: raw.region.kind === 'table' ? 'table' : 'image' };
    const text = joinBlockLines(
      raw.lines.map((l) => l.text),
      vocabulary,
    );
    if (raw.zone === 'top' || raw.zone === 'bottom') {
      const label = context.labels?.[raw.page_idx];
      if (isPageNumberText(text, label)) return { raw, text, kind: 'page_number' };
      // A bold or large line near the edge that does not repeat is a heading set high on the
      // page (a statement title), not a running header; in a longer document, neither is any line
      // found at the edge of one page only.
      const prominent = raw.bold || raw.size >= bodySize * 1.1;
      const repeats = bandPages.get(bandKey(text))?.size ?? 0;
      const unique = repeats < 2 && context.pageSizes.size >= BAND_TEMPLATE_MIN_PAGES;
      if ((prominent && repeats < BAND_TEMPLATE_MIN_PAGES) || unique) {
        return { raw: { ...raw, zone: 'body' }, text, kind: 'text' };
      }
      return { raw, text, kind: raw.zone === 'top' ? 'header' : 'footer' };
    }
    if (raw.zone === 'aside') return { raw, text, kind: 'aside_text' };
    return { raw, text, kind: 'text' };
  });
  const outlineLevels = matchOutline(typed, context.outline, bodySize);
  for (const [i, t] of typed.entries()) {
    if (t.raw.zone !== 'body' || t.raw.region) continue;
    const outlineLevel = outlineLevels.get(i);
    if (outlineLevel !== undefined) {
      const numbering = headingNumbering(t.text);
      t.kind = 'title';
      t.outlineLevel = outlineLevel;
      t.look = { larger: false, caps: isAllCaps(t.text), ...(numbering ? { numbering } : {}) };
      continue;
    }
    const marker = listMarker(t.raw.lines[0]?.text ?? t.text);
    if (marker && marker.kind !== 'ordered') {
      t.kind = 'list';
      t.marker = marker;
      continue;
    }
    const look = titleLook(t.raw, t.text, bodySize, context.pageBodySizes?.get(t.raw.page_idx));
    if (look) {
      t.kind = 'title';
      t.look = look;
      continue;
    }
    if (marker) {
      t.kind = 'list';
      t.marker = marker;
      continue;
    }
    if (t.raw.lines.length <= 3 && looksLikeEquation(t.text)) t.kind = 'equation';
  }
  levelTitlesBySegment(
    typed.filter((t) => t.kind === 'title'),
    context.pageSizes.size,
  );

  // Merge consecutive list items of one kind and column into list blocks.
  const merged: Typed[] = [];
  for (const t of typed) {
    if (t.kind === 'list' && t.marker) {
      const item = t.marker.kind === 'bullet' ? joinBlockLines([t.marker.rest, ...t.raw.lines.slice(1).map((l) => l.text)], vocabulary) : t.text;
      const last = merged[merged.length - 1];
      if (
        last &&
        last.kind === 'list' &&
        last.marker?.kind === t.marker.kind &&
        last.raw.page_idx === t.raw.page_idx &&
        last.raw.column === t.raw.column &&
        Math.abs(last.raw.bbox[0] - t.raw.bbox[0]) <= 3 * t.raw.size
      ) {
        last.items!.push(item);
        last.raw = { ...last.raw, bbox: unionBox([last.raw.bbox, t.raw.bbox]), lines: [...last.raw.lines, ...t.raw.lines] };
        continue;
      }
      merged.push({ ...t, items: [item] });
      continue;
    }
    merged.push(t);
  }

  return merged.map((t, readOrder): ContentBlock => {
    const pageSize = context.pageSizes.get(t.raw.page_idx) ?? { width: 612, height: 792 };
    const bbox: BBox = [round2(t.raw.bbox[0]), round2(t.raw.bbox[1]), round2(t.raw.bbox[2]), round2(t.raw.bbox[3])];
    const font = { size: Math.max(0.1, round2(t.raw.size)), bold: t.raw.bold, ...(t.raw.font ? { name: t.raw.font } : {}) };
    const plain = {
      block_id: `b_${String(readOrder).padStart(6, '0')}`,
      page_idx: t.raw.page_idx,
      bbox,
      page_size: { width: pageSize.width, height: pageSize.height },
      read_order: readOrder,
      origin: 'pdf' as const,
    };
    const base = { ...plain, font };
    switch (t.kind) {
      case 'title': {
        const numbering = t.look?.numbering?.text;
        return { ...base, type: 'title', text: t.text, text_level: t.level ?? 1, ...(numbering ? { numbering } : {}) };
      }
      case 'list':
        return {
          ...base,
          type: 'list',
          list_items: t.items ?? [t.text],
          sub_type: t.marker?.kind === 'ordered' ? 'ordered' : t.marker?.kind === 'reference' ? 'reference' : 'bullet',
        };
      case 'equation':
        return { ...base, type: 'equation', text: t.text, text_format: 'plain' };
      case 'table':
      case 'image': {
        const caption = t.raw.caption;
        const label = caption ? { label: caption.label } : {};
        if (t.raw.region?.kind === 'table') {
          const { rows, headerRows } = t.raw.region;
          return {
            ...plain,
            type: 'table',
            table_body: gridToHtml(rows, headerRows),
            table_caption: caption ? [caption.text] : [],
            table_footnote: [],
            markdown: tableToMarkdown(rows, headerRows),
            ...label,
          };
        }
        return {
          ...plain,
          type: 'image',
          image_caption: caption ? [caption.text] : [],
          image_footnote: [],
          source: t.raw.region?.kind === 'figure' ? t.raw.region.source : 'vector',
          ...label,
        };
      }
      case 'header':
      case 'footer':
      case 'page_number':
      case 'aside_text':
        return { ...base, type: t.kind, text: t.text };
      default:
        return { ...base, type: 'text', text: t.text };
    }
  });
}
