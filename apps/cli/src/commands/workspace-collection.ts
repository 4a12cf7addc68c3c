import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { DOC_FILES } from '@doctree/ingest';
import { analyzeQuery, loadDocIndex, type DocIndex } from '@doctree/index';
import { Collection, createIndexComponents, type IndexComponents } from '@doctree/pipeline';
import { ContentListSchema, DocTreeError, parseWith, type DocTreeConfig } from '@doctree/schema';
import { pageViewFor } from '@doctree/toolhub';
import * as ws from '@doctree/workspace';

/** Options of {@link CollectionEvidenceRetriever.open}. */
export interface CollectionEvidenceRetrieverOptions {
  /** The collection that is the evidence store. */
  collection: Collection;
  /** The workspace's sources: those with a `collection_doc_id` map doc_uid ↔ collection document id. */
  sources: readonly ws.SourceRecord[];
  /** Child sizes (`chunk` of the workspace configuration). */
  chunk: ws.WorkspaceConfig['chunk'];
  /** Embedder and sparse backend of the collection's indexes. Default: `createIndexComponents(collection.config)`. */
  components?: IndexComponents;
  /** Documents searched per query, best first by the collection's document selection. Default 3. */
  maxDocuments?: number;
  /** Pages of each document whose children are scored. Default 5. */
  pagesPerDocument?: number;
  /** Reciprocal-rank-fusion constant of the page lanes. Default 60. */
  rrfK?: number;
}

/** Defaults of {@link CollectionEvidenceRetrieverOptions}. */
export const COLLECTION_EVIDENCE_RETRIEVER_DEFAULTS = { maxDocuments: 3, pagesPerDocument: 5, rrfK: 60 } as const;

/** Page lanes of the DocTree page view fused to rank a document's pages. */
const PAGE_LANES = ['page_text', 'page_dense', 'page_coverage'] as const;

interface CollectionDoc {
  docUid: string;
  docId: string;
  dir: string;
  children: ws.ChildRecord[];
  /** True when the parents are pages (a PDF); false for sections of a Markdown source. */
  paged: boolean;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * The evidence workspace's `EvidenceRetriever` over a DocTree collection: the collection's documents are the sources
 * (doc_uid ↔ collection document id through the sources registry), pages and quotes come from each document's
 * DocTree content list (the workspace's parents and children, cut the same way as for `raw/evidence`), and a query is
 * answered through the collection: its document selection ranks the accepted documents, each selected document's
 * DocTree page view (BM25F page text, dense page score, query-term coverage; reciprocal rank fusion) picks its pages,
 * and the children of those pages are reranked like the workspace's own (mean of query-term coverage and cosine).
 */
export class CollectionEvidenceRetriever implements ws.EvidenceRetriever {
  readonly buildId: string;
  readonly models: Readonly<Record<string, string | null>>;
  readonly #collection: Collection;
  readonly #components: IndexComponents;
  readonly #opts: { maxDocuments: number; pagesPerDocument: number; rrfK: number };
  readonly #docs: Map<string, CollectionDoc>;
  readonly #parents = new Map<string, ws.ParentRecord>();
  readonly #children = new Map<string, ws.ChildRecord>();
  readonly #indexes = new Map<string, Promise<DocIndex>>();
  readonly #vectors = new Map<string, Float32Array>();

  private constructor(collection: Collection, components: IndexComponents, opts: { maxDocuments: number; pagesPerDocument: number; rrfK: number }, docs: CollectionDoc[], parents: ws.ParentRecord[], buildId: string) {
    this.#collection = collection;
    this.#components = components;
    this.#opts = opts;
    this.#docs = new Map(docs.map((d) => [d.docUid, d] as const));
    for (const p of parents) this.#parents.set(p.parent_id, p);
    for (const d of docs) for (const c of d.children) this.#children.set(c.chunk_id, c);
    this.buildId = buildId;
    this.models = { embedder: components.embedder.id, bm25: 'doctree-bm25f-pages', reranker: ws.WORKSPACE_RERANKER_ID, selection: 'doctree-collection-selection' };
  }

  /**
   * Reads the collection's documents that are present sources of the workspace.
   *
   * @throws DocTreeError `INPUT_NOT_FOUND` when the folder holds no collection, `INDEX_CORRUPT` for a content list that
   * does not parse.
   */
  static async open(options: CollectionEvidenceRetrieverOptions): Promise<CollectionEvidenceRetriever> {
    const opts = { ...COLLECTION_EVIDENCE_RETRIEVER_DEFAULTS, ...options };
    const manifest = await options.collection.manifest();
    if (!manifest) {
      throw new DocTreeError('INPUT_NOT_FOUND', 'no collection here', { file: options.collection.dir, hint: 'Build it with `doctree collection ingest --input-dir <dir> --collection-dir <dir>`.' });
    }
    const components = options.components ?? (await createIndexComponents(options.collection.config));
    const rows = new Map(manifest.documents.map((d) => [d.doc_id, d] as const));
    const docs: CollectionDoc[] = [];
    const parents: ws.ParentRecord[] = [];
    for (const source of options.sources) {
      if (source.collection_doc_id === undefined || !source.present) continue;
      const row = rows.get(source.collection_doc_id);
      if (!row) continue;
      const dir = await options.collection.store.documentDir(row.doc_id);
      const file = join(dir, DOC_FILES.enhanced);
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(file, 'utf8'));
      } catch (cause) {
        throw new DocTreeError('INDEX_CORRUPT', `cannot read the content list of collection document ${row.doc_id}`, { file, cause, hint: 'Rebuild it: `doctree collection sync --force --collection-dir <dir>`.' });
      }
      const list = parseWith(ContentListSchema, raw, { file, what: 'content list', code: 'INDEX_CORRUPT' });
      const docParents = ws.buildParents(source.doc_uid, list);
      parents.push(...docParents);
      docs.push({ docUid: source.doc_uid, docId: row.doc_id, dir, children: docParents.flatMap((p) => ws.buildChildren(p, options.chunk)), paged: docParents.some((p) => p.page_index !== null) });
    }
    const builds = manifest.documents.map((d) => `${d.doc_id}:${d.build_id}`).sort();
    const buildId = `collection-${createHash('sha256').update(builds.join('\n')).digest('hex').slice(0, 16)}`;
    return new CollectionEvidenceRetriever(options.collection, components, opts, docs, parents, buildId);
  }

  documents(): ReadonlySet<string> {
    return new Set([...this.#docs.values()].filter((d) => d.children.length > 0).map((d) => d.docUid));
  }

  parent(parentId: string): ws.ParentRecord | undefined {
    return this.#parents.get(parentId);
  }

  child(chunkId: string): ws.ChildRecord | undefined {
    return this.#children.get(chunkId);
  }

  #index(doc: CollectionDoc): Promise<DocIndex> {
    let index = this.#indexes.get(doc.docUid);
    if (!index) {
      index = loadDocIndex(doc.dir, { sparse: this.#components.sparse, embedder: this.#components.embedder, backend: this.#components.backend });
      this.#indexes.set(doc.docUid, index);
    }
    return index;
  }

  /** 0-based pages of a document for the query, best first (RRF of the page lanes); undefined for a source without pages. */
  async #pages(doc: CollectionDoc, query: string): Promise<number[] | undefined> {
    if (!doc.paged) return undefined;
    const lanes = await pageViewFor(await this.#index(doc)).search(query);
    const fused = new Map<number, number>();
    for (const lane of PAGE_LANES) lanes[lane].forEach((p, rank) => fused.set(p.pageIdx, (fused.get(p.pageIdx) ?? 0) + 1 / (this.#opts.rrfK + rank + 1)));
    return [...fused.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, this.#opts.pagesPerDocument)
      .map(([page]) => page);
  }

  async #vectorsOf(children: readonly ws.ChildRecord[]): Promise<void> {
    const missing = children.filter((c) => !this.#vectors.has(c.chunk_id));
    if (missing.length === 0) return;
    const vectors = await this.#components.embedder.embedDocuments(missing.map((c) => c.text));
    missing.forEach((c, i) => this.#vectors.set(c.chunk_id, vectors[i]!));
  }

  async search(query: string, options: ws.EvidenceSearchOptions): Promise<ws.ChildHit[]> {
    if (options.k < 1) return [];
    const accept = options.accept ?? (() => true);
    const accepted = [...this.#docs.values()].filter((d) => d.children.some(accept));
    if (accepted.length === 0) return [];
    // Documents: the collection's selection over all of its documents, kept in its order for the accepted ones.
    const selection = await this.#collection.select(query, { mode: 'all' });
    const order = new Map(selection.ranked.map((r, i) => [r.doc_id, i] as const));
    const rank = (d: CollectionDoc): number => order.get(d.docId) ?? Number.MAX_SAFE_INTEGER;
    const docs = [...accepted].sort((a, b) => rank(a) - rank(b) || a.docUid.localeCompare(b.docUid)).slice(0, this.#opts.maxDocuments);
    const candidates: ws.ChildRecord[] = [];
    for (const doc of docs) {
      const pages = await this.#pages(doc, query);
      const wanted = pages ? new Set(pages) : undefined;
      for (const child of doc.children) {
        const pageIdx = this.#parents.get(child.parent_id)?.page_index;
        if ((!wanted || (pageIdx !== null && pageIdx !== undefined && wanted.has(pageIdx))) && accept(child)) candidates.push(child);
      }
    }
    if (candidates.length === 0) return [];
    await this.#vectorsOf(candidates);
    const q = await this.#components.embedder.embedQuery(query);
    const terms = analyzeQuery(query);
    const hits = candidates.map((chunk): ws.ChildHit => {
      const dense = cosine(q, this.#vectors.get(chunk.chunk_id)!);
      const coverage = ws.termCoverage(terms, new Set(analyzeQuery(chunk.text)));
      return { chunk, dense, lexical: 0, coverage, score: ws.coverageRerankScore(coverage, dense) };
    });
    hits.sort((a, b) => b.score - a.score || a.chunk.chunk_id.localeCompare(b.chunk.chunk_id));
    return hits.slice(0, options.k);
  }
}

/** The collection documents of a manifest as the workspace registers them. */
async function collectionDocuments(collection: Collection): Promise<ws.CollectionSourceDocument[]> {
  const manifest = await collection.manifest();
  if (!manifest) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'no collection here', { file: collection.dir, hint: 'Build it with `doctree collection ingest --input-dir <dir> --collection-dir <dir>`, or fix `collection` in workspace.config.json.' });
  }
  // A row's path is relative to the collection's input folder (imported PageIndex trees: absolute).
  return manifest.documents.map((d) => ({ doc_id: d.doc_id, path: isAbsolute(d.path) ? d.path : join(manifest.input_dir, d.path), sha256: d.sha256, bytes: d.size, title: d.metadata.title ?? null, year: d.metadata.year ?? null }));
}

/** Options of {@link openCollectionWorkspace}. */
export interface OpenCollectionWorkspaceOptions {
  /** The DocTree configuration (embedder and vector backend of the collection). */
  config: DocTreeConfig;
  /** Options the workspace is opened with (chat model, warnings…). */
  workspace?: ws.EvidenceWorkspaceOptions;
  /** Also open the retriever (query, audit, verify-citations); otherwise only the sources are registered. Default true. */
  retrieve?: boolean;
  /** Ready-made index components (tests). */
  components?: IndexComponents;
}

/**
 * Opens the workspace at `root` with the collection in `collectionDir` as its evidence store: registers the
 * collection's documents as sources (`EvidenceWorkspace.syncCollection`) and, unless `retrieve` is false, opens the
 * workspace again with a {@link CollectionEvidenceRetriever}.
 */
export async function openCollectionWorkspace(root: string, collectionDir: string, options: OpenCollectionWorkspaceOptions): Promise<{ workspace: ws.EvidenceWorkspace; scan: ws.SourceScan; retriever?: CollectionEvidenceRetriever }> {
  const collection = await Collection.open(collectionDir, { config: options.config });
  const docs = await collectionDocuments(collection);
  const first = await ws.EvidenceWorkspace.open(root, options.workspace ?? {});
  const scan = await first.syncCollection(docs);
  if (options.retrieve === false) return { workspace: first, scan };
  const retriever = await CollectionEvidenceRetriever.open({ collection, sources: scan.sources, chunk: first.context.config.chunk, ...(options.components ? { components: options.components } : {}) });
  const workspace = await ws.EvidenceWorkspace.open(root, { ...options.workspace, retriever });
  return { workspace, scan, retriever };
}
