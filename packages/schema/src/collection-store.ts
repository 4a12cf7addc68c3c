import type { CollectionDocument, CollectionFailure, CollectionManifest, CollectionMetadata } from './collection.js';

/** One node of a document offered to document selection (a section with its title and gist). */
export interface CollectionSelectionNode {
  /** Node id in the document's tree. */
  node_id: string;
  title: string;
  /** Title, gist and headings path: what is matched and embedded. */
  text: string;
  /** Depth in the tree (1 = top-level section). */
  level: number;
  /** 1-based first and last page. */
  pages: [number, number];
}

/**
 * What document selection knows of one document: its profile (description, metadata, top-level titles) and the
 * vectors of its profile and nodes, computed once when the document is built.
 */
export interface DocumentSelectionData {
  doc_id: string;
  /** Embedder of the vectors. */
  embedder_id: string;
  /** Description, metadata and top-level section titles in one text: the lexical and dense profile of the document. */
  profile: string;
  profile_vector: Float32Array;
  nodes: CollectionSelectionNode[];
  /** One vector per node, in `nodes` order. */
  node_vectors: Float32Array[];
}

/** A node found by {@link CollectionStore.searchNodes}. */
export interface SelectionNodeHit {
  doc_id: string;
  node_id: string;
  /** Similarity (cosine for normalised vectors; higher is better). */
  score: number;
}

/** What {@link CollectionStore.updateMetadata} changes. */
export interface CollectionMetadataUpdate {
  metadata: CollectionMetadata;
  description?: string;
  /** The document's selection profile text and vector (see {@link DocumentSelectionData}). */
  profile?: { text: string; vector: Float32Array };
}

/** Who holds a collection's lock. */
export interface CollectionLockOwner {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  started: string;
}

/** A held lock; `release` is idempotent. */
export interface CollectionLock {
  readonly owner: CollectionLockOwner;
  release(): Promise<void>;
}

/** Options of {@link CollectionStore.lock}. */
export interface CollectionLockOptions {
  /** How long to wait for a lock another run holds before failing with `COLLECTION_LOCKED`; 0 fails at once. */
  waitMs: number;
  /** Told once while waiting, with the holder. */
  onWait?: (owner: CollectionLockOwner) => void;
}

/** What {@link CollectionStore.refreshSelectionIndex} built. */
export interface SelectionIndexInfo {
  /** Nodes in the index. */
  nodes: number;
  /** `flat` (exact) below the size threshold, `hnsw` (faiss) above it. */
  kind: 'flat' | 'hnsw';
  /** Documents whose vectors were read again (0 when nothing changed). */
  refreshed: number;
}

/**
 * Storage of a collection: manifest rows, per-document artifacts and the selection index. The embedded file store
 * (`FileCollectionStore` of `@doctree/pipeline`) is the default; other stores (a database) implement the same
 * interface and pass `runCollectionStoreConformance` (`@doctree/pipeline/testing`).
 *
 * Every change is transactional per document: after a crash a reader sees each document either as it was before
 * or as it is after its commit, never half of it.
 */
export interface CollectionStore {
  /** Where the collection lives (a folder, a connection name); for messages. */
  readonly location: string;
  /** The manifest, or undefined when the collection does not exist yet. @throws DocTreeError `FORMAT_VERSION_UNSUPPORTED`, `SCHEMA_INVALID`. */
  readManifest(): Promise<CollectionManifest | undefined>;
  /** Creates an empty collection when there is none (else only records `input_dir`); returns the manifest. */
  initialize(init: { input_dir: string }): Promise<CollectionManifest>;
  /** A private local folder to build one document's artifacts in (`doctree.mm.json`, `index/`); nothing is visible yet. */
  stageDocument(docId: string): Promise<string>;
  /**
   * Makes a staged document visible with its manifest row and selection data, replacing an older version of the same
   * `doc_id`, in one step; a failure record of the same path is cleared and the manifest's `embedder` becomes that of
   * `selection`.
   */
  commitDocument(row: CollectionDocument, staged: string, selection: DocumentSelectionData): Promise<void>;
  /** Drops a staged folder that will not be committed. */
  discardStaged(staged: string): Promise<void>;
  /** Removes a document, its row and its selection data; a no-op for an unknown id. */
  removeDocument(docId: string): Promise<void>;
  /** Records that a source file failed to build (replaces an older failure of the same path). */
  recordFailure(failure: CollectionFailure): Promise<void>;
  /** Forgets the failure of a path (its file was deleted). */
  clearFailure(path: string): Promise<void>;
  /**
   * Replaces the metadata of a document, with its description and selection profile when given, in one step.
   * @throws DocTreeError `INPUT_NOT_FOUND` for an unknown id.
   */
  updateMetadata(docId: string, update: CollectionMetadataUpdate): Promise<CollectionDocument>;
  /** A local folder holding the document's `doctree.mm.json` and `index/`. @throws DocTreeError `INPUT_NOT_FOUND`. */
  documentDir(docId: string): Promise<string>;
  /** The selection data of a document. @throws DocTreeError `INPUT_NOT_FOUND`, `INDEX_CORRUPT`. */
  selectionData(docId: string): Promise<DocumentSelectionData>;
  /** Brings the collection-level node index in step with the committed documents (only changed documents are read again). */
  refreshSelectionIndex(): Promise<SelectionIndexInfo>;
  /** The `k` nodes nearest to `query` over the whole collection, best first; `docIds` restricts the documents. */
  searchNodes(query: Float32Array, k: number, docIds?: ReadonlySet<string>): Promise<SelectionNodeHit[]>;
  /** Takes the collection's write lock (one writer at a time). @throws DocTreeError `COLLECTION_LOCKED` naming the holder. */
  lock(options: CollectionLockOptions): Promise<CollectionLock>;
}
