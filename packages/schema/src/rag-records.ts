import { z } from 'zod';
import { BBoxSchema, PageIdxSchema, Sha256Schema } from './common.js';
import { NodeIdSchema, NodeRoleSchema } from './doctree.js';
import { BuildManifestFields } from './index-records.js';

/**
 * Records of the plain RAG baseline (`@doctree/rag-baseline`), stored under `<doc_dir>/rag/`:
 * page-level parents (`parents.jsonl`), sentence-split children (`chunks.jsonl`), their vectors and `manifest.json`.
 * Character spans point into the DocTree's canonical `text`, so RAG and DocTree supports are comparable.
 */

/** Current format version of the RAG baseline artifacts. */
export const RAG_FORMAT_VERSION = 1;

/** Id of a page parent: `<doc_id>:p<NNN>` with the 1-based page, at least three digits (`acme:p007`). */
export const RagParentIdSchema = z.string().regex(/^.+:p[0-9]{3,}$/, 'parent_id must look like <doc_id>:p001 (1-based page)');

/** Id of a child chunk: `<parent_id>:c<NN>`, numbered from 0 within its page (`acme:p007:c00`). */
export const RagChunkIdSchema = z.string().regex(/^.+:p[0-9]{3,}:c[0-9]{2,}$/, 'chunk_id must look like <doc_id>:p001:c00');

/** A node's own text on the page, as a half-open span of the canonical text. */
export const RagUnitSchema = z.object({
  node_id: NodeIdSchema,
  char_start: z.number().int().nonnegative(),
  char_end: z.number().int().nonnegative(),
});
export type RagUnit = z.infer<typeof RagUnitSchema>;

/** A line of `rag/parents.jsonl`: everything a page says, in reading order. */
export const RagParentSchema = z.object({
  parent_id: RagParentIdSchema,
  doc_id: z.string().min(1),
  /** 0-based page (the id carries the 1-based page). */
  page_idx: PageIdxSchema,
  /** Section titles leading to the page's first node (the seed's `section_path`). */
  heading_path: z.array(z.string()),
  /** The page's node texts joined by blank lines (the seed's `parent_text`). */
  text: z.string(),
  /** The node texts the parent is made of, in canonical-text order. */
  units: z.array(RagUnitSchema),
  tokens: z.number().int().nonnegative(),
  chunk_ids: z.array(RagChunkIdSchema),
  /** sha256 of `text`. */
  hash: Sha256Schema,
});
export type RagParent = z.infer<typeof RagParentSchema>;

/** A line of `rag/chunks.jsonl`: one child chunk, exactly `DocTree.text.slice(char_start, char_end)`. */
export const RagChunkSchema = z
  .object({
    chunk_id: RagChunkIdSchema,
    parent_id: RagParentIdSchema,
    doc_id: z.string().min(1),
    /** 0-based page. */
    page_idx: PageIdxSchema,
    char_start: z.number().int().nonnegative(),
    char_end: z.number().int().nonnegative(),
    text: z.string().min(1),
    tokens: z.number().int().nonnegative(),
    /** `table` for (a row range of) one table, `text` for sentence-packed prose. */
    kind: z.enum(['text', 'table']),
    /** The node the chunk overlaps most; hits and observations are named after it (`t_12#p003c01`). */
    anchor_node_id: NodeIdSchema,
    /** Role of the anchor node (what role filters compare with). */
    role: NodeRoleSchema,
    /** Every node the chunk overlaps, in reading order. */
    node_ids: z.array(NodeIdSchema).min(1),
    /** Union of the overlapped nodes' boxes on the page, or null when they have none. */
    bbox: BBoxSchema.nullable(),
    /** Section titles leading to the anchor node. */
    heading_path: z.array(z.string()),
    /** Text embedded before `text` without being part of the span (a table's header row on continuation pieces). */
    context: z.string().optional(),
    /** sha256 of the embedded text (`context` + `text`): unchanged hashes reuse their vectors on rebuild. */
    hash: Sha256Schema,
  })
  .refine((c) => c.char_end > c.char_start, { message: 'char_end must be greater than char_start', path: ['char_end'] });
export type RagChunk = z.infer<typeof RagChunkSchema>;

/** Chunking settings recorded in the manifest (part of its config hash). */
export const RagChunkingSchema = z.object({
  target_tokens: z.number().int().positive(),
  min_tokens: z.number().int().nonnegative(),
  max_tokens: z.number().int().positive(),
  overlap_tokens: z.number().int().nonnegative(),
  max_overlap_ratio: z.number().min(0).max(1),
});
export type RagChunking = z.infer<typeof RagChunkingSchema>;

/** `rag/manifest.json`: what was built, from which tree, with which embedder and backend. */
export const RagManifestSchema = z.object({
  format: z.literal('doctree.rag'),
  version: z.literal(RAG_FORMAT_VERSION),
  ...BuildManifestFields,
  chunking: RagChunkingSchema,
  counts: z.object({
    parents: z.number().int().nonnegative(),
    chunks: z.number().int().nonnegative(),
    /** Chunks embedded by this build. */
    embedded: z.number().int().nonnegative(),
    /** Chunks whose vectors were reused from the previous build (same text, same embedder). */
    reused: z.number().int().nonnegative(),
  }),
});
export type RagManifest = z.infer<typeof RagManifestSchema>;
