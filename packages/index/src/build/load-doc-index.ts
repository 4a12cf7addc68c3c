import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DenseCoarseRecordSchema,
  DenseLeafRecordSchema,
  DocPagesSchema,
  DocSummarySchema,
  DocTreeError,
  DocTreeSchema,
  GraphEdgeSchema,
  IdMapsSchema,
  INDEX_FORMAT_VERSION,
  IndexManifestSchema,
  parseJsonLines,
  parseWith,
  type DenseCoarseRecord,
  type DenseLeafRecord,
  type DocPages,
  type DocSummary,
  type DocTree,
  type Embedder,
  type GraphEdge,
  type GraphEdgeType,
  type IdMaps,
  type IndexManifest,
  type SparseIndex,
  type VectorIndex,
} from '@doctree/schema';
import { sha256Hex } from '../io/build-manifest.js';
import { DocView } from '../records/doc-view.js';
import { assertVectorIndexFactory, BUILTIN_VECTOR_INDEX_FACTORY_ID, builtinVectorIndexFactory, type VectorIndexFactory } from '../vector/vector-index-factory.js';
import { customVectorFileName, INDEX_DIR, INDEX_FILES, vectorFileName } from './index-files.js';
import { createYielder, parseJsonLinesSliced } from '../io/event-loop-yield.js';
import type { SparseBackend } from './sparse-backend.js';

/** Options of {@link loadDocIndex}. */
export interface LoadDocIndexOptions {
  /** Restores the BM25F indexes. */
  sparse: SparseBackend;
  /** Embedder for queries; must be the one the index was built with (checked). */
  embedder?: Embedder;
  /** Vector backend to load with. Default `auto` (faiss when it loads; faiss-built indexes also load exactly). */
  backend?: 'auto' | 'faiss' | 'exact';
  /**
   * The vector index factory the index was built with (`BuildDocIndexOptions.vectorIndex`); its `load` restores the
   * dense views and its indexes answer every dense search. An index built by another factory (or by the built-in
   * indexes) is refused with `BACKEND_UNAVAILABLE`. Default: the built-in indexes of `backend`.
   */
  vectorIndex?: VectorIndexFactory;
  /**
   * `full` validates every file with its schema (slower; for tools and tests); `fast` validates the manifest with its
   * schema and every other file's header (format, version) and trusts the structure of its content. Both modes check
   * every file's size and sha256 against the manifest (`INDEX_CORRUPT` naming the file: same-size tampering is
   * refused; hashing the 7.5 MB index of a 160-page filing takes about 5 ms). Default `fast`.
   */
  validation?: 'fast' | 'full';
}

/** Adjacency of the document graph by edge type. */
export class GraphIndex {
  private readonly out = new Map<string, GraphEdge[]>();

  constructor(readonly edges: readonly GraphEdge[]) {
    for (const edge of edges) {
      const list = this.out.get(edge.src);
      if (list) list.push(edge);
      else this.out.set(edge.src, [edge]);
    }
  }

  /** Edges leaving `id`, optionally of one type. */
  from(id: string, type?: GraphEdgeType): GraphEdge[] {
    const list = this.out.get(id) ?? [];
    return type ? list.filter((e) => e.type === type) : list;
  }

  /** Node ids on a 1-based page. */
  onPage(page: number): string[] {
    return this.from(`P${page}`, 'same_page').map((e) => e.dst);
  }
}

/** A loaded document index: everything the ToolHub needs, in memory. */
export interface DocIndex {
  readonly docDir: string;
  readonly manifest: IndexManifest;
  readonly tree: DocTree;
  readonly view: DocView;
  readonly summary: DocSummary;
  readonly denseCoarse: ReadonlyMap<string, DenseCoarseRecord>;
  readonly denseLeaf: ReadonlyMap<string, DenseLeafRecord>;
  readonly sparseCoarse: SparseIndex;
  readonly sparseLeaf: SparseIndex;
  /**
   * BM25F over the pages: one document per page with text (`P<1-based page>`, `filters.page_idx`; fields `body`,
   * `heading`, `headings_path`, `caption`), built with the index (`buildPageRecords`).
   */
  readonly sparsePages: SparseIndex;
  /** The years written on each page with a page document, by 0-based page, pages ascending (from `pages.json`). */
  readonly pageYears: ReadonlyMap<number, readonly number[]>;
  readonly vectors: { coarse: VectorIndex; leaf: VectorIndex; leaf_raw: VectorIndex };
  readonly graph: GraphIndex;
  readonly idMaps: IdMaps;
  /** Query embedder (absent when loaded without one: dense lanes are then unavailable). */
  readonly embedder?: Embedder;
  /** Load time of each part, in ms. */
  readonly loadTimings: Record<string, number>;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new DocTreeError('INDEX_MISSING', 'index file missing', { file: path, cause });
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('INDEX_CORRUPT', `not valid JSON: ${(cause as Error).message}`, { file, cause });
  }
}

/**
 * Structural check of `pages.json` for fast loads, in plain loops (a few hundred entries; the zod schema takes
 * milliseconds): header, and every entry a page index with an array of integer years.
 */
function isDocPages(value: unknown): value is DocPages {
  const v = value as { format?: unknown; version?: unknown; pages?: unknown } | null;
  if (v?.format !== 'doctree.pages' || v.version !== INDEX_FORMAT_VERSION || !Array.isArray(v.pages)) return false;
  for (const page of v.pages as unknown[]) {
    const p = page as { page_idx?: unknown; years?: unknown } | null;
    if (!Number.isInteger(p?.page_idx) || (p?.page_idx as number) < 0 || !Array.isArray(p?.years) || !p.years.every(Number.isInteger)) return false;
  }
  return true;
}

/**
 * Loads `<docDir>/index/` (built by `buildDocIndex`) into one {@link DocIndex}. Rejects other format versions
 * (`FORMAT_VERSION_UNSUPPORTED`), a different query embedder (`EMBEDDER_MISMATCH`), missing files
 * (`INDEX_MISSING`) and files whose size or sha256 differs from the manifest (`INDEX_CORRUPT`, with the file and a hint
 * to run `doctree index`).
 */
export async function loadDocIndex(docDir: string, options: LoadDocIndexOptions): Promise<DocIndex> {
  const timings: Record<string, number> = {};
  const t0 = performance.now();
  // Loading yields to the event loop between its steps and inside the record loops (a service keeps answering).
  const tick = createYielder();
  const indexDir = join(docDir, INDEX_DIR);
  const manifestPath = join(indexDir, INDEX_FILES.manifest);
  const rawManifest = parseJson(await readText(manifestPath), manifestPath) as { format?: unknown; version?: unknown };
  if (rawManifest?.format !== 'doctree.index' || rawManifest.version !== INDEX_FORMAT_VERSION) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `index format ${String(rawManifest?.format)} v${String(rawManifest?.version)} is not doctree.index v${INDEX_FORMAT_VERSION}`, {
      file: manifestPath,
      hint: 'Rebuild the index: `doctree index <doc_dir>` (`doctree ask` rebuilds it too).',
    });
  }
  const manifest = parseWith(IndexManifestSchema, rawManifest, { file: manifestPath, what: 'index manifest', code: 'INDEX_CORRUPT' });
  if (options.embedder && (options.embedder.id !== manifest.embedder.id || options.embedder.dimension !== manifest.embedder.dimension)) {
    throw new DocTreeError('EMBEDDER_MISMATCH', `the index was built with ${manifest.embedder.id} (d=${manifest.embedder.dimension}), not ${options.embedder.id} (d=${options.embedder.dimension})`, {
      file: manifestPath,
    });
  }
  if (options.vectorIndex !== undefined) assertVectorIndexFactory(options.vectorIndex);
  const wantedVectors = options.vectorIndex === undefined || options.vectorIndex.id === BUILTIN_VECTOR_INDEX_FACTORY_ID ? undefined : options.vectorIndex.id;
  const builtVectors = manifest.vector_index?.id;
  if (wantedVectors !== builtVectors) {
    const name = (id: string | undefined): string => (id === undefined ? 'the built-in vector indexes' : `the vector index factory ${JSON.stringify(id)}`);
    throw new DocTreeError('BACKEND_UNAVAILABLE', `the index was built with ${name(builtVectors)}, not ${name(wantedVectors)}`, {
      file: manifestPath,
      hint: builtVectors === undefined ? 'Rebuild the index with your factory (prepareDocument / buildDocIndex with vectorIndex).' : `Load it with the factory whose id is ${JSON.stringify(builtVectors)} (loadDocIndex(dir, { vectorIndex })), or rebuild the index.`,
    });
  }
  const vectorFactory = options.vectorIndex ?? builtinVectorIndexFactory({ backend: options.backend ?? 'auto' });
  const artifacts = new Map(manifest.artifacts.map((a) => [a.name, a]));
  const rebuildHint = 'Rebuild the index: `doctree index <doc_dir>` (it rebuilds a damaged index).';
  /** Size and sha256 of one file's content against the manifest. */
  const verify = (name: string, data: string | Buffer): void => {
    const expected = artifacts.get(name);
    if (expected === undefined) return;
    const path = join(indexDir, name);
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    if (bytes !== expected.bytes) throw new DocTreeError('INDEX_CORRUPT', `size ${bytes} differs from the manifest (${expected.bytes})`, { file: path, hint: rebuildHint });
    if (sha256Hex(data) !== expected.sha256) {
      throw new DocTreeError('INDEX_CORRUPT', 'content differs from the manifest (sha256 mismatch): the file was changed after the build', { file: path, hint: rebuildHint });
    }
  };
  const read = async (name: string): Promise<string> => {
    const text = await readText(join(indexDir, name));
    verify(name, text);
    return text;
  };
  /** Every listed file this loader does not read as text (vector files, their sidecars): read as bytes and verified. */
  const textNames = new Set<string>([
    INDEX_FILES.summary,
    INDEX_FILES.pages,
    INDEX_FILES.denseCoarse,
    INDEX_FILES.denseLeaf,
    INDEX_FILES.edges,
    INDEX_FILES.idMaps,
    INDEX_FILES.bm25Coarse,
    INDEX_FILES.bm25Leaf,
    INDEX_FILES.bm25Pages,
  ]);
  const verifyOthers = async (): Promise<void> => {
    await Promise.all(
      manifest.artifacts
        .filter((a) => !textNames.has(a.name))
        .map(async (a) => {
          const path = join(indexDir, a.name);
          let data: Buffer;
          try {
            data = await readFile(path);
          } catch (cause) {
            throw new DocTreeError('INDEX_MISSING', 'index file missing', { file: path, cause, hint: rebuildHint });
          }
          verify(a.name, data);
        }),
    );
  };
  const full = options.validation === 'full';
  const mark = (name: string, since: number): void => {
    timings[name] = Math.round((performance.now() - since) * 10) / 10;
  };

  let t = performance.now();
  const treePath = join(docDir, 'doctree.mm.json');
  const treeText = await readText(treePath);
  if (sha256Hex(treeText) !== manifest.doctree_sha256) {
    throw new DocTreeError('INDEX_CORRUPT', 'the index was built from another version of doctree.mm.json', {
      file: treePath,
      hint: 'Rebuild the index: `doctree index <doc_dir>`.',
    });
  }
  await tick();
  const treeJson = parseJson(treeText, treePath);
  await tick();
  const tree = full ? parseWith(DocTreeSchema, treeJson, { file: treePath, what: 'DocTree' }) : (treeJson as DocTree);
  if (!full && (tree as { format?: unknown }).format !== 'doctree.mm') throw new DocTreeError('INDEX_CORRUPT', 'not a doctree.mm.json', { file: treePath });
  mark('tree', t);

  t = performance.now();
  const [, summaryText, pagesText, coarseText, leafText, edgesText, idMapsText, bm25CoarseText, bm25LeafText, bm25PagesText] = await Promise.all([
    verifyOthers(),
    read(INDEX_FILES.summary),
    read(INDEX_FILES.pages),
    read(INDEX_FILES.denseCoarse),
    read(INDEX_FILES.denseLeaf),
    read(INDEX_FILES.edges),
    read(INDEX_FILES.idMaps),
    read(INDEX_FILES.bm25Coarse),
    read(INDEX_FILES.bm25Leaf),
    read(INDEX_FILES.bm25Pages),
  ]);
  mark('read', t);
  await tick();
  t = performance.now();
  const file = (name: string): string => join(indexDir, name);
  const summaryJson = parseJson(summaryText, file(INDEX_FILES.summary)) as { format?: unknown; version?: unknown };
  const idMapsJson = parseJson(idMapsText, file(INDEX_FILES.idMaps));
  if (!full && (summaryJson?.format !== 'doctree.summary' || summaryJson.version !== INDEX_FORMAT_VERSION)) {
    throw new DocTreeError('INDEX_CORRUPT', 'not a doctree.summary of this index version', { file: file(INDEX_FILES.summary) });
  }
  const summary = full ? parseWith(DocSummarySchema, summaryJson, { file: file(INDEX_FILES.summary), what: 'summary', code: 'INDEX_CORRUPT' }) : (summaryJson as DocSummary);
  const pagesJson = parseJson(pagesText, file(INDEX_FILES.pages));
  if (!full && !isDocPages(pagesJson)) throw new DocTreeError('INDEX_CORRUPT', 'not a doctree.pages of this index version', { file: file(INDEX_FILES.pages) });
  const pages = full ? parseWith(DocPagesSchema, pagesJson, { file: file(INDEX_FILES.pages), what: 'pages', code: 'INDEX_CORRUPT' }) : (pagesJson as DocPages);
  const idMaps = full ? parseWith(IdMapsSchema, idMapsJson, { file: file(INDEX_FILES.idMaps), what: 'id maps', code: 'INDEX_CORRUPT' }) : (idMapsJson as IdMaps);
  let coarse: DenseCoarseRecord[];
  let leaf: DenseLeafRecord[];
  let edges: GraphEdge[];
  try {
    await tick();
    coarse = full ? parseJsonLines(DenseCoarseRecordSchema, coarseText, { file: file(INDEX_FILES.denseCoarse), code: 'INDEX_CORRUPT' }) : await parseJsonLinesSliced(coarseText, tick);
    leaf = full ? parseJsonLines(DenseLeafRecordSchema, leafText, { file: file(INDEX_FILES.denseLeaf), code: 'INDEX_CORRUPT' }) : await parseJsonLinesSliced(leafText, tick);
    edges = full ? parseJsonLines(GraphEdgeSchema, edgesText, { file: file(INDEX_FILES.edges), code: 'INDEX_CORRUPT' }) : await parseJsonLinesSliced(edgesText, tick);
  } catch (error) {
    throw DocTreeError.from(error, 'INDEX_CORRUPT', { file: indexDir });
  }
  mark('records', t);
  t = performance.now();
  const validation = { validation: full ? ('full' as const) : ('fast' as const) };
  await tick();
  const sparseCoarse = options.sparse.load(parseJson(bm25CoarseText, file(INDEX_FILES.bm25Coarse)), file(INDEX_FILES.bm25Coarse), validation);
  await tick();
  const sparseLeaf = options.sparse.load(parseJson(bm25LeafText, file(INDEX_FILES.bm25Leaf)), file(INDEX_FILES.bm25Leaf), validation);
  await tick();
  const sparsePages = options.sparse.load(parseJson(bm25PagesText, file(INDEX_FILES.bm25Pages)), file(INDEX_FILES.bm25Pages), validation);
  await tick();
  mark('sparse', t);
  t = performance.now();
  const loadView = async (view: 'coarse' | 'leaf' | 'leaf_raw'): Promise<VectorIndex> => {
    const path = join(indexDir, builtVectors !== undefined ? customVectorFileName(view) : vectorFileName(view, manifest.vector_backend));
    try {
      return await vectorFactory.load(path, { expectedEmbedderId: manifest.embedder.id, ...validation });
    } catch (error) {
      throw DocTreeError.from(error, 'INDEX_CORRUPT', { file: path });
    }
  };
  const [vc, vl, vr] = await Promise.all([loadView('coarse'), loadView('leaf'), loadView('leaf_raw')]);
  mark('vectors', t);
  await tick();
  t = performance.now();
  const view = new DocView(tree);
  await tick();
  const index: DocIndex = {
    docDir,
    manifest,
    tree,
    view,
    summary,
    denseCoarse: new Map(coarse.map((r) => [r.node_id, r])),
    denseLeaf: new Map(leaf.map((r) => [r.node_id, r])),
    sparseCoarse,
    sparseLeaf,
    sparsePages,
    pageYears: new Map(pages.pages.map((p) => [p.page_idx, p.years])),
    vectors: { coarse: vc, leaf: vl, leaf_raw: vr },
    graph: new GraphIndex(edges),
    idMaps,
    ...(options.embedder ? { embedder: options.embedder } : {}),
    loadTimings: timings,
  };
  mark('assemble', t);
  timings['total'] = Math.round((performance.now() - t0) * 10) / 10;
  return index;
}
