import { z } from 'zod';
import { BBoxSchema, PageIdxSchema, PageSpanSchema, Sha256Schema } from './common.js';

/**
 * Index records (docs/design/index-features.md §3): multi-view dense records, BM25F sparse docs, graph edges, id maps,
 * summaries and the index manifest, all under `<doc_dir>/index/`.
 */

/**
 * Current format version of index artifacts. Version 2 added the page view (`sparse_pages.jsonl`, `bm25_pages.json`,
 * `pages.json`); indexes of another version are rebuilt by `buildDocIndex` and refused by `loadDocIndex`.
 */
export const INDEX_FORMAT_VERSION = 2;

/**
 * Id of an indexed unit: a tree node id, optionally with a section-variant suffix (`sec_12#h|#g|#c|#p`)
 * or a leaf-chunk suffix (`t_230#c0`).
 */
export const IndexRecordIdSchema = z
  .string()
  .regex(
    /^(sec|t|img|tab|eq|list|cap|code)_[0-9]+(#[hgcp]|#c[0-9]+)?$/,
    'id must be a node id with an optional #h/#g/#c/#p variant or #cN chunk suffix (e.g. sec_12#g, t_230#c0)',
  );

/** The four dense views of a section. */
export const SectionVariantSchema = z.enum(['heading', 'gist', 'child', 'path']);
export type SectionVariant = z.infer<typeof SectionVariantSchema>;

/** Suffix used in record ids for each section variant. */
export const SECTION_VARIANT_SUFFIX: Record<SectionVariant, string> = { heading: '#h', gist: '#g', child: '#c', path: '#p' };

/** Facets used to filter and route (docs/design/index-features.md §3). All optional; which ones are set depends on the role. */
export const IndexFiltersSchema = z.object({
  page_idx: PageIdxSchema.optional(),
  level: z.number().int().nonnegative().optional(),
  parent_section: z.string().optional(),
  parent_title: z.string().optional(),
  page_span: PageSpanSchema.optional(),
  chart_type: z.string().optional(),
  chart_types: z.array(z.string()).optional(),
  label: z.string().optional(),
  figure_no: z.string().optional(),
  table_no: z.string().optional(),
  units_set: z.array(z.string()).optional(),
  years: z.array(z.number().int()).optional(),
  bbox: BBoxSchema.optional(),
});
export type IndexFilters = z.infer<typeof IndexFiltersSchema>;

/** What a unit can answer (docs/design/index-features.md §3); used by the planner's intent bonus. */
export const AffordancesSchema = z.object({
  supports_ROUTE_TO_image: z.boolean().optional(),
  supports_ROUTE_TO_table: z.boolean().optional(),
  has_numbers: z.boolean().optional(),
  supports_COMPARE: z.boolean().optional(),
  supports_LOOKUP: z.boolean().optional(),
  supports_TREND: z.boolean().optional(),
});
export type Affordances = z.infer<typeof AffordancesSchema>;

/** Keywords and representative children of a section's subtree. */
export const SubtreeSketchSchema = z.object({
  keywords_topk: z.array(z.string()),
  representatives: z.object({
    top_image: z.string().optional(),
    top_table: z.string().optional(),
    top_paragraph: z.string().optional(),
  }),
});
export type SubtreeSketch = z.infer<typeof SubtreeSketchSchema>;

/** A line of `dense_coarse.jsonl`: one section variant, image, chart or table. */
export const DenseCoarseRecordSchema = z
  .object({
    node_id: IndexRecordIdSchema,
    /** Section view; absent for images and tables. */
    variant: SectionVariantSchema.optional(),
    role: z.enum(['section', 'image', 'chart', 'table']),
    /** Text that is embedded. */
    dense_text: z.string(),
    title: z.string().optional(),
    summary: z.string().optional(),
    filters: IndexFiltersSchema,
    affordances: AffordancesSchema.default({}),
    subtree_sketch: SubtreeSketchSchema.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.role === 'section' && r.variant === undefined) {
      ctx.addIssue({ code: 'custom', path: ['variant'], message: 'section records need a variant (heading, gist, child or path)' });
    }
  });
export type DenseCoarseRecord = z.infer<typeof DenseCoarseRecordSchema>;

/** A typed reference edge carried on a leaf record. */
export const RecordRefSchema = z.object({ type: z.literal('ref'), label: z.string(), target: z.string() });
export type RecordRef = z.infer<typeof RecordRefSchema>;

/** A line of `dense_leaf.jsonl`: a paragraph / list / caption / equation (or a `#cN` chunk of a long one). */
export const DenseLeafRecordSchema = z.object({
  node_id: IndexRecordIdSchema,
  orig_node_id: z.string().min(1),
  role: z.enum(['paragraph', 'list', 'caption', 'equation', 'code', 'footnote', 'reference']),
  dense_text: z.string(),
  raw_text: z.string(),
  filters: IndexFiltersSchema,
  refs: z.array(RecordRefSchema).default([]),
  /** Character span of this chunk inside the tree's canonical text. */
  char_span: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
});
export type DenseLeafRecord = z.infer<typeof DenseLeafRecordSchema>;

/** BM25F field names of sparse docs, in the order their default boosts are listed. */
export const SPARSE_FIELDS = [
  'heading',
  'headings_path',
  'title',
  'caption',
  'table_schema',
  'child_labels',
  'child_table_schema',
  'caption_bag',
  'aliases',
  'labels',
  'body',
] as const;
export type SparseField = (typeof SPARSE_FIELDS)[number];

/** A line of `sparse_coarse.jsonl` / `sparse_leaf.jsonl`: one BM25F document. */
export const SparseDocSchema = z.object({
  id: IndexRecordIdSchema,
  role: z.enum(['section', 'image', 'chart', 'table', 'paragraph', 'list', 'caption', 'equation', 'code', 'footnote', 'reference']),
  heading: z.string().optional(),
  headings_path: z.string().optional(),
  title: z.string().optional(),
  caption: z.string().optional(),
  table_schema: z.string().optional(),
  child_labels: z.string().optional(),
  child_table_schema: z.string().optional(),
  caption_bag: z.string().optional(),
  aliases: z.string().optional(),
  labels: z.string().optional(),
  body: z.string().optional(),
  filters: IndexFiltersSchema.default({}),
});
export type SparseDoc = z.infer<typeof SparseDocSchema>;

/** Id of a page document: `P` and the 1-based page (`P12` is page 12, `page_idx` 11), as the graph's page pseudo-nodes. */
export const PageDocIdSchema = z.string().regex(/^P[1-9][0-9]*$/, 'page document ids are P and the 1-based page (e.g. P12)');

/**
 * A line of `sparse_pages.jsonl`: one page as a BM25F document. `body` is the text of the nodes whose text starts on
 * the page (headings included), `heading` the headings of sections starting there, `headings_path` the section paths
 * of its nodes, `caption` its figure and table captions; `filters.page_idx` the 0-based page.
 */
export const PageSparseDocSchema = z.object({
  id: PageDocIdSchema,
  role: z.literal('section'),
  body: z.string().min(1),
  heading: z.string().optional(),
  headings_path: z.string().optional(),
  caption: z.string().optional(),
  filters: z.object({ page_idx: PageIdxSchema }),
});
export type PageSparseDoc = z.infer<typeof PageSparseDocSchema>;

/** What `pages.json` keeps of one page with text: its 0-based index and the years written on it. */
export const PageFactsSchema = z.object({
  page_idx: PageIdxSchema,
  /** Four-digit years (1900–2099) in the page's text, headings paths and captions, ascending and unique. */
  years: z.array(z.number().int()),
});
export type PageFacts = z.infer<typeof PageFactsSchema>;

/** `pages.json`: the pages that have a page document (ascending `page_idx`), with the facts read from their text. */
export const DocPagesSchema = z.object({
  format: z.literal('doctree.pages'),
  version: z.literal(INDEX_FORMAT_VERSION),
  doc_id: z.string().min(1),
  pages: z.array(PageFactsSchema),
});
export type DocPages = z.infer<typeof DocPagesSchema>;

/** Kinds of graph edges. */
export const GraphEdgeTypeSchema = z.enum(['parent', 'child', 'prev_next', 'same_page', 'ref', 'has_col']);
export type GraphEdgeType = z.infer<typeof GraphEdgeTypeSchema>;

/**
 * A line of `graph_edges.jsonl`. Endpoints are node ids, page pseudo-nodes (`P5` = 1-based page 5)
 * or table-column pseudo-nodes (`tab_21:col:Accuracy(%)`).
 */
export const GraphEdgeSchema = z.object({
  src: z.string().min(1),
  dst: z.string().min(1),
  type: GraphEdgeTypeSchema,
  label: z.string().optional(),
  unit: z.string().optional(),
});
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;

/** `id_maps.json`: labels to node ids. */
export const IdMapsSchema = z.object({
  label2id: z.record(z.string(), z.string()),
  figure: z.record(z.string(), z.string()).default({}),
  table: z.record(z.string(), z.string()).default({}),
  equation: z.record(z.string(), z.string()).default({}),
  section: z.record(z.string(), z.string()).default({}),
});
export type IdMaps = z.infer<typeof IdMapsSchema>;

/** How a summary was written. */
export const SummaryMethodSchema = z.enum(['extractive', 'llm']);

/** Gist of one section in `summary.json`. */
export const SectionSummarySchema = z.object({
  node_id: z.string().min(1),
  title: z.string(),
  gist: z.string(),
  method: SummaryMethodSchema,
  /** sha256 of the section text the gist was made from: the cache key of LLM summaries. */
  content_hash: Sha256Schema,
  tokens: z.number().int().nonnegative(),
});
export type SectionSummary = z.infer<typeof SectionSummarySchema>;

/** `summary.json`: document description and section gists. */
export const DocSummarySchema = z.object({
  format: z.literal('doctree.summary'),
  version: z.literal(INDEX_FORMAT_VERSION),
  doc_id: z.string().min(1),
  title: z.string().optional(),
  description: z.string(),
  method: SummaryMethodSchema,
  sections: z.array(SectionSummarySchema),
});
export type DocSummary = z.infer<typeof DocSummarySchema>;

/** One artifact listed in the manifest. */
export const IndexArtifactSchema = z.object({
  name: z.string().min(1),
  bytes: z.number().int().nonnegative(),
  sha256: Sha256Schema,
  records: z.number().int().nonnegative().optional(),
});
export type IndexArtifact = z.infer<typeof IndexArtifactSchema>;

/**
 * Provenance fields every build manifest shares (the DocTree index, the RAG baseline's chunk index): what was built,
 * from which tree, with which configuration, embedder and vector backend, and which files it wrote.
 */
export const BuildManifestFields = {
  doc_id: z.string().min(1),
  build_id: z.string().min(1),
  created_at: z.string().datetime({ offset: true }),
  /** sha256 of the canonical JSON of the build configuration; a change triggers a rebuild. */
  config_hash: Sha256Schema,
  /** sha256 of the `doctree.mm.json` the build read. */
  doctree_sha256: Sha256Schema,
  source_sha256: Sha256Schema,
  embedder: z.object({ id: z.string().min(1), dimension: z.number().int().positive() }),
  vector_backend: z.enum(['faiss', 'exact']),
  artifacts: z.array(IndexArtifactSchema),
  timings_ms: z.record(z.string(), z.number().nonnegative()).default({}),
  generator: z.string(),
};

/** `index/manifest.json`: what was built, from what, with which embedder and backend. */
export const IndexManifestSchema = z.object({
  format: z.literal('doctree.index'),
  version: z.literal(INDEX_FORMAT_VERSION),
  ...BuildManifestFields,
  /**
   * The vector index factory of your own the dense views were built with (`vectorIndex` of the index builder); absent
   * for the built-in indexes (`vector_backend` says which). Loading needs the factory with this id.
   */
  vector_index: z.object({ id: z.string().min(1) }).optional(),
});
export type IndexManifest = z.infer<typeof IndexManifestSchema>;
