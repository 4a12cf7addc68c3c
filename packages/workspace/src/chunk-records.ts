import { z } from 'zod';

/** A parent: one page of a PDF (`doc_uid:p003`, page 3) or one section of a Markdown file (`doc_uid:s002`, no page). */
export const ParentRecordSchema = z.object({
  parent_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*:(p|s)[0-9]{3,}$/),
  doc_uid: z.string().min(1),
  /** 0-based page index; null when the source has no pages (Markdown). */
  page_index: z.number().int().nonnegative().nullable(),
  /** 1-based first and last page; null without pages. */
  page_start: z.number().int().positive().nullable(),
  page_end: z.number().int().positive().nullable(),
  /** Headings above the parent's first text. */
  section_path: z.array(z.string()),
  /** Where the parent starts in the document's text (parents joined by a blank line). */
  doc_char_start: z.number().int().nonnegative(),
  parent_text: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /**
   * `[start, end)` spans of `parent_text` that the reader composed rather than read off the page (a table header of
   * several rows, its cells joined with ` / `): searched, never quoted.
   */
  unquotable: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).default([]),
});
/** A parent record (`chunks/parents.jsonl`). */
export type ParentRecord = z.infer<typeof ParentRecordSchema>;

/** A child: ~200 tokens of a parent, with its span in the parent's text. */
export const ChildRecordSchema = z.object({
  chunk_id: z.string().min(1),
  parent_id: z.string().min(1),
  doc_uid: z.string().min(1),
  /** `[char_start, char_end)` in the parent's text: `parent_text.slice(char_start, char_end) === text`. */
  char_start: z.number().int().nonnegative(),
  char_end: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  /** Tokens repeated from the previous child. */
  overlap_tokens: z.number().int().nonnegative(),
  text: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
/** A child record (`chunks/chunks.jsonl`). */
export type ChildRecord = z.infer<typeof ChildRecordSchema>;

/** `chunks/chunk_manifest.json`. */
export const ChunkManifestSchema = z.object({
  format: z.literal('doctree.workspace-chunks'),
  version: z.literal(1),
  build_id: z.string(),
  created_at: z.string(),
  config_hash: z.string(),
  tool_version: z.string(),
  /** How the chunks were cut (`CHUNKER_ID`). */
  chunker: z.string().default('doctree-workspace-sentences-v1'),
  sizes: z.object({ target_tokens: z.number(), min_tokens: z.number(), max_tokens: z.number(), max_overlap: z.number() }),
  docs: z.array(
    z.object({
      doc_uid: z.string(),
      /** Hash of the raw file the chunks come from. */
      source_sha256: z.string(),
      parents: z.number().int().nonnegative(),
      chunks: z.number().int().nonnegative(),
      /** Hash over the document's child hashes: equal when the chunks are equal. */
      chunks_sha256: z.string(),
    }),
  ),
  totals: z.object({ docs: z.number().int(), parents: z.number().int(), chunks: z.number().int() }),
  /** What this build changed against the previous manifest. */
  changes: z.object({ added: z.array(z.string()), updated: z.array(z.string()), removed: z.array(z.string()), unchanged: z.array(z.string()) }),
});
/** `chunks/chunk_manifest.json`. */
export type ChunkManifest = z.infer<typeof ChunkManifestSchema>;
