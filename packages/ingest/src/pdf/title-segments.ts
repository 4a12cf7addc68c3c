import type { HeadingNumbering, NumberingKind } from './pdf-patterns.js';

/**
 * Splitting a document's titles into the parts that are levelled on their own: the front matter (cover page lines
 * such as the filing header, `Washington, D.C. 20549`, a commission file number or the registrant's name banner, a
 * paper's title block), the body (from the first heading of the document's outermost numbered division: `PART I`,
 * `Chapter 1`, `Item 1.`, `1 Introduction`) and the back matter (from a closing heading such as `SIGNATURES` after the
 * last division: documents appended to a filing). Levelling each part on its own keeps a large cover banner from
 * becoming the section everything nests under, and an appended exhibit from nesting in the last Item. Pure.
 */

/** What {@link segmentTitles} needs to know about one title. */
export interface SegmentTitle {
  /** The title as read. */
  text: string;
  /** 0-based page of the title. */
  pageIdx: number;
  /** Numbering at the start of the title (`headingNumbering`). */
  numbering?: HeadingNumbering;
}

/** Which part of the document a run of titles belongs to. */
export type TitleSegmentRole = 'front' | 'body' | 'back';

/** A run of consecutive titles levelled on its own. */
export interface TitleSegment {
  role: TitleSegmentRole;
  /** Indexes into the titles given to {@link segmentTitles}, in order. */
  indices: number[];
}

/** Options of {@link segmentTitles}. */
export interface TitleSegmentOptions {
  /** Share of the pages the front matter may take: the first division must start within it. Default 0.2. */
  frontMatterMaxShare?: number;
  /** Pages the front matter may take in any document, however short. Default 3. */
  frontMatterMinPages?: number;
  /** Titles of one division kind a document needs before that kind counts as its outermost division. Default 2. */
  minDivisions?: number;
  /**
   * A heading that closes the body when it follows the last division heading; tested on the title's letters only,
   * so letter-spaced `SIGNATURE S` matches. Default `/^signatures?$/i`.
   */
  closingHeading?: RegExp;
}

const DEFAULTS: Required<TitleSegmentOptions> = {
  frontMatterMaxShare: 0.2,
  frontMatterMinPages: 3,
  minDivisions: 2,
  closingHeading: /^signatures?$/i,
};

/** Division kinds that can open a body, outermost first; decimal and `Section` numbering count at depth 1 only. */
const OPENING_KINDS: ReadonlyArray<readonly NumberingKind[]> = [['part'], ['chapter'], ['item'], ['decimal', 'section'], ['roman']];

/** True when the title is a division heading of one of the kinds. */
function isDivision(title: SegmentTitle, kinds: readonly NumberingKind[]): boolean {
  const numbering = title.numbering;
  return numbering !== undefined && kinds.includes(numbering.kind) && numbering.depth === 1;
}

/**
 * Splits titles (document order) into front matter, body and back matter; see the module comment. Without a
 * division series (at least `minDivisions` titles of one opening kind) everything is one body; with one, the body
 * starts at the first heading of the series or of an outer kind (a lone `PART II` before Items 7 and 8). The front matter
 * exists only when the first division starts early (within `max(frontMatterMinPages, frontMatterMaxShare × pages)`
 * pages) and something precedes it; the back matter only when a closing heading follows the last division.
 */
export function segmentTitles(titles: readonly SegmentTitle[], pageCount: number, options: TitleSegmentOptions = {}): TitleSegment[] {
  const opts = { ...DEFAULTS, ...options };
  const all = titles.map((_, i) => i);
  if (titles.length === 0) return [];
  const series = OPENING_KINDS.findIndex((group) => titles.filter((t) => isDivision(t, group)).length >= opts.minDivisions);
  if (series < 0) return [{ role: 'body', indices: all }];
  // The series and any division outside it (a lone `PART II` over Items 7 and 8) open and close the body.
  const kinds = OPENING_KINDS.slice(0, series + 1).flat();
  const first = titles.findIndex((t) => isDivision(t, kinds));
  const last = titles.length - 1 - [...titles].reverse().findIndex((t) => isDivision(t, kinds));
  const frontPages = Math.max(opts.frontMatterMinPages, Math.ceil(opts.frontMatterMaxShare * pageCount));
  const start = first > 0 && titles[first]!.pageIdx < frontPages ? first : 0;
  const letters = (text: string): string => text.replace(/[^\p{L}]/gu, '');
  const closing = titles.findIndex((t, i) => i > last && opts.closingHeading.test(letters(t.text)));
  const end = closing > 0 ? closing : titles.length;
  const segments: TitleSegment[] = [];
  if (start > 0) segments.push({ role: 'front', indices: all.slice(0, start) });
  segments.push({ role: 'body', indices: all.slice(start, end) });
  if (end < titles.length) segments.push({ role: 'back', indices: all.slice(end) });
  return segments;
}
