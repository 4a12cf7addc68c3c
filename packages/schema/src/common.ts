import { z } from 'zod';

/**
 * Page conventions: stored `page_idx` is 0-based; anything shown to a person or compared with
 * eval data is `page`, 1-based. Convert only through these helpers.
 */

/** 0-based page index as stored in every artifact. */
export const PageIdxSchema = z.number().int().nonnegative();

/** 1-based page number as shown to people and used by eval data. */
export const PageNumberSchema = z.number().int().positive();

/** Converts a stored 0-based `page_idx` into the 1-based page shown to people. */
export function pageFromIndex(pageIdx: number): number {
  return pageIdx + 1;
}

/** Converts a 1-based page (people, eval data) into the stored 0-based `page_idx`. */
export function indexFromPage(page: number): number {
  return page - 1;
}

/** `[x0, y0, x1, y1]` in PDF points, origin at the top-left of the page, y growing downwards. */
export const BBoxSchema = z
  .tuple([z.number(), z.number(), z.number(), z.number()])
  .refine((b) => b[2] >= b[0] && b[3] >= b[1], { message: 'bbox must be [x0, y0, x1, y1] with x1 >= x0 and y1 >= y0' });
export type BBox = z.infer<typeof BBoxSchema>;

/** Page size in PDF points. */
export const PageSizeSchema = z.object({ width: z.number().positive(), height: z.number().positive() });
export type PageSize = z.infer<typeof PageSizeSchema>;

/** Inclusive `[first, last]` 0-based page span. */
export const PageSpanSchema = z
  .tuple([PageIdxSchema, PageIdxSchema])
  .refine((s) => s[1] >= s[0], { message: 'page_span must be [first, last] with last >= first' });
export type PageSpan = z.infer<typeof PageSpanSchema>;

/** Half-open `[start, end)` character span into a document's canonical text. */
export const CharSpanSchema = z
  .tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])
  .refine((s) => s[1] >= s[0], { message: 'char_span must be [start, end) with end >= start' });
export type CharSpan = z.infer<typeof CharSpanSchema>;

/** Hex sha256 digest. */
export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex sha256 digest');
