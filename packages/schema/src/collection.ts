import { z } from 'zod';
import { Sha256Schema } from './common.js';
import { IngestWarningSchema } from './content-list.js';

/**
 * Collections: a folder of documents ingested and indexed together, tracked by a manifest (`collection.json`), kept in
 * step with its input folder by `sync`, and asked as a whole (document selection, then the per-document agent).
 */

/** `format` of a collection manifest. */
export const COLLECTION_MANIFEST_FORMAT = 'doctree.collection';
/** Version of the collection manifest format; loaders refuse others with `FORMAT_VERSION_UNSUPPORTED`. */
export const COLLECTION_MANIFEST_VERSION = 1;

/** Metadata fields a document carries for selection filters. */
export const COLLECTION_METADATA_FIELDS = ['company', 'year', 'form', 'title', 'quarter', 'period_end'] as const;
/** One of {@link COLLECTION_METADATA_FIELDS}. */
export type CollectionMetadataField = (typeof COLLECTION_METADATA_FIELDS)[number];

/**
 * Typed metadata of a document, extracted at ingest (file name, first pages) and editable (`doctree collection meta set`,
 * `Collection.setMetadata`). Fields a person set are listed in `edited` and survive a rebuild of the document.
 */
export const CollectionMetadataSchema = z
  .object({
    company: z.string().min(1).max(200).optional(),
    year: z.number().int().min(1800).max(2200).optional(),
    form: z.string().min(1).max(60).optional(),
    title: z.string().min(1).max(400).optional(),
    /** The quarter of its (fiscal) `year` the document covers, for quarterly reports (`Q1`…`Q4`). */
    quarter: z.enum(['Q1', 'Q2', 'Q3', 'Q4']).optional(),
    /** Last day of the period the document covers (`YYYY-MM-DD`, e.g. from "for the quarterly period ended …"). */
    period_end: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD').optional(),
    /** Fields set by a person rather than extracted. */
    edited: z.array(z.enum(COLLECTION_METADATA_FIELDS)).default([]),
    /**
     * Version of the extraction that set the fields not in `edited` (absent: the first). `sync` extracts the metadata of
     * documents read by an older one again from their stored text, without rebuilding them.
     */
    extractor: z.number().int().positive().optional(),
  })
  .strict();
export type CollectionMetadata = z.infer<typeof CollectionMetadataSchema>;

/** A document id inside a collection (the folder name of its artifacts). */
export const CollectionDocIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, 'letters, digits, ".", "_" and "-" only');

/** A 16-hex-digit fingerprint of configuration settings. */
const SettingsFingerprintSchema = z.string().regex(/^[0-9a-f]{16}$/, '16 hex digits');

/**
 * Fingerprints of the configuration a document was built with: `sync` rebuilds a document whose settings changed since,
 * and tries a failed file again. `limits` covers `ingest.limits`; `ocr` covers `ingest.ocr` and is present only for
 * documents with pages OCR reads (pages without a text layer), so an OCR change rebuilds those alone; `index` is the
 * start of the document index's `config_hash` (embedder, sparse analyser, summarizer, HNSW threshold, index format).
 */
export const CollectionBuildSettingsSchema = z
  .object({
    limits: SettingsFingerprintSchema,
    ocr: SettingsFingerprintSchema.optional(),
    index: SettingsFingerprintSchema.optional(),
  })
  .strict();
export type CollectionBuildSettings = z.infer<typeof CollectionBuildSettingsSchema>;

/** One document row of the manifest. */
export const CollectionDocumentSchema = z
  .object({
    doc_id: CollectionDocIdSchema,
    /** Path of the source file relative to the collection's input folder (`/`-separated). */
    path: z.string().min(1),
    kind: z.enum(['pdf', 'mineru', 'markdown', 'pageindex']),
    sha256: Sha256Schema,
    size: z.number().int().nonnegative(),
    /** Modification time of the source file when it was read (informative; changes are found by `sha256`). */
    mtime: z.string().datetime({ offset: true }),
    /** Build id of the document's index (`index/manifest.json`). */
    build_id: z.string().min(1),
    pages: z.number().int().nonnegative(),
    ingest_warnings: z.array(IngestWarningSchema),
    indexed_at: z.string().datetime({ offset: true }),
    created_at: z.string().datetime({ offset: true }),
    updated_at: z.string().datetime({ offset: true }),
    /** One-line description used by document selection. */
    description: z.string(),
    metadata: CollectionMetadataSchema,
    /** Settings the document was built with (absent in rows written before they were recorded: never rebuilt for settings). */
    build_settings: CollectionBuildSettingsSchema.optional(),
  })
  .strict();
export type CollectionDocument = z.infer<typeof CollectionDocumentSchema>;

/** A source file whose last build failed (it is tried again by the next `sync`). */
export const CollectionFailureSchema = z
  .object({
    path: z.string().min(1),
    sha256: Sha256Schema,
    code: z.string().min(1),
    message: z.string(),
    at: z.string().datetime({ offset: true }),
    /** Settings of the failed build (with `ocr`): once they change — a limit raised — the file is tried again. */
    build_settings: CollectionBuildSettingsSchema.optional(),
  })
  .strict();
export type CollectionFailure = z.infer<typeof CollectionFailureSchema>;

/** `collection.json`: the manifest of a collection. */
export const CollectionManifestSchema = z
  .object({
    format: z.literal(COLLECTION_MANIFEST_FORMAT),
    version: z.literal(COLLECTION_MANIFEST_VERSION),
    /** Absolute input folder of the last ingest or sync. */
    input_dir: z.string().min(1),
    created_at: z.string().datetime({ offset: true }),
    updated_at: z.string().datetime({ offset: true }),
    /** Embedder of the documents' selection vectors and of the selection index (set when the first document lands). */
    embedder: z.object({ id: z.string().min(1), dimension: z.number().int().positive() }).strict().optional(),
    documents: z.array(CollectionDocumentSchema),
    failures: z.array(CollectionFailureSchema).default([]),
  })
  .strict()
  .superRefine((m, ctx) => {
    const seen = new Set<string>();
    m.documents.forEach((d, i) => {
      if (seen.has(d.doc_id)) ctx.addIssue({ code: 'custom', path: ['documents', i, 'doc_id'], message: `duplicate doc_id ${d.doc_id}` });
      seen.add(d.doc_id);
    });
  });
export type CollectionManifest = z.infer<typeof CollectionManifestSchema>;

/** What `status` says of one source file or manifest row. */
export const CollectionChangeSchema = z.enum(['new', 'modified', 'deleted', 'unchanged', 'failed']);
export type CollectionChange = z.infer<typeof CollectionChangeSchema>;

/** `doctree collection status --json`. */
export const CollectionStatusReportSchema = z
  .object({
    format: z.literal('doctree.collection-status'),
    version: z.literal(1),
    collection_dir: z.string(),
    input_dir: z.string(),
    created_at: z.string().datetime({ offset: true }).optional(),
    updated_at: z.string().datetime({ offset: true }).optional(),
    documents: z.number().int().nonnegative(),
    entries: z.array(
      z
        .object({
          change: CollectionChangeSchema,
          doc_id: z.string(),
          path: z.string(),
          indexed_at: z.string().optional(),
          /** Why a `modified` file is rebuilt or a failed one tried again: its content, or the settings it was built with. */
          reason: z.enum(['content', 'settings']).optional(),
        })
        .strict(),
    ),
    pending: z.number().int().nonnegative(),
  })
  .strict();
export type CollectionStatusReport = z.infer<typeof CollectionStatusReportSchema>;

/** `doctree collection ingest|sync --json`. */
export const CollectionSyncReportSchema = z
  .object({
    format: z.literal('doctree.collection-sync'),
    version: z.literal(1),
    mode: z.enum(['ingest', 'sync']),
    collection_dir: z.string(),
    input_dir: z.string(),
    added: z.array(z.string()),
    updated: z.array(z.string()),
    removed: z.array(z.string()),
    unchanged: z.array(z.string()),
    /** Unchanged documents whose metadata was extracted again (a newer extraction; not rebuilt). */
    metadata_refreshed: z.array(z.string()).optional(),
    failed: z.array(z.object({ doc_id: z.string(), path: z.string(), code: z.string(), message: z.string() }).strict()),
    documents: z.number().int().nonnegative(),
    workers: z.number().int().nonnegative(),
    timings_ms: z.object({ scan: z.number().nonnegative(), build: z.number().nonnegative(), selection: z.number().nonnegative(), total: z.number().nonnegative() }).strict(),
  })
  .strict();
export type CollectionSyncReport = z.infer<typeof CollectionSyncReportSchema>;

/** One node of a PageIndex tree (1-based, inclusive page range). */
export interface PageIndexNode {
  title: string;
  node_id: string;
  start_index: number;
  end_index: number;
  summary?: string | undefined;
  nodes?: PageIndexNode[] | undefined;
}

/** A node of a PageIndex `structure` (nested without limit). */
export const PageIndexNodeSchema: z.ZodType<PageIndexNode> = z.lazy(() =>
  z.object({
    title: z.string(),
    node_id: z.string().min(1),
    start_index: z.number().int().min(1),
    end_index: z.number().int().min(1),
    summary: z.string().optional(),
    nodes: z.array(PageIndexNodeSchema).optional(),
  }),
);

/** A PageIndex document tree (`<name>_structure.json`): what `export-pageindex` writes and `import-pageindex` reads. */
export const PageIndexDocumentSchema = z.object({
  doc_name: z.string().min(1),
  doc_description: z.string().optional(),
  structure: z.array(PageIndexNodeSchema),
});
export type PageIndexDocument = z.infer<typeof PageIndexDocumentSchema>;

/** `format` of a document's `selection.json` (what document selection knows of it, vectors in base64). */
export const COLLECTION_SELECTION_FORMAT = 'doctree.collection-selection';
/** Version of `selection.json`. */
export const COLLECTION_SELECTION_VERSION = 1;

/** `selection.json` of a collection document: profile and node texts with their vectors (little-endian float32, base64). */
export const CollectionSelectionFileSchema = z
  .object({
    format: z.literal(COLLECTION_SELECTION_FORMAT),
    version: z.literal(COLLECTION_SELECTION_VERSION),
    doc_id: z.string().min(1),
    embedder_id: z.string().min(1),
    dimension: z.number().int().positive(),
    profile: z.string(),
    profile_vector: z.string(),
    nodes: z.array(
      z
        .object({
          node_id: z.string().min(1),
          title: z.string(),
          text: z.string(),
          level: z.number().int().nonnegative(),
          pages: z.tuple([z.number().int().min(1), z.number().int().min(1)]),
        })
        .strict(),
    ),
    /** Every node vector, concatenated in `nodes` order. */
    node_vectors: z.string(),
  })
  .strict();
export type CollectionSelectionFile = z.infer<typeof CollectionSelectionFileSchema>;
