import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isProcessAlive } from '@doctree/ingest';
import { createVectorIndex, loadVectorIndex, type VectorBackendRequest } from '@doctree/index';
import {
  COLLECTION_MANIFEST_FORMAT,
  COLLECTION_MANIFEST_VERSION,
  CollectionDocIdSchema,
  CollectionManifestSchema,
  DocTreeError,
  parseWith,
  type CollectionDocument,
  type CollectionFailure,
  type CollectionLock,
  type CollectionLockOptions,
  type CollectionManifest,
  type CollectionMetadataUpdate,
  type CollectionStore,
  type DocumentSelectionData,
  type SelectionIndexInfo,
  type SelectionNodeHit,
  type VectorIndex,
} from '@doctree/schema';
import { swapDirectory, writeFileAtomic } from '@doctree/schema/node';
import { acquireFileLock } from './collection-lock.js';
import { decodeSelectionData, encodeSelectionData } from './selection-file.js';

/** Files and folders of a collection folder. */
export const COLLECTION_FILES = {
  manifest: 'collection.json',
  lock: '.lock',
  docs: 'docs',
  staging: '.staging',
  selection: 'selection',
  selectionFile: 'selection.json',
} as const;

/** Options of {@link FileCollectionStore}. */
export interface FileCollectionStoreOptions {
  /** Vector backend of the selection index (`config.index.backend`). Default `auto`. */
  backend?: VectorBackendRequest;
  /** Nodes from which the selection index is an HNSW graph (faiss) rather than an exact scan. Default 50 000. */
  hnswMinNodes?: number;
}

/** Defaults of {@link FileCollectionStoreOptions}. */
export const FILE_COLLECTION_STORE_DEFAULTS = { backend: 'auto', hnswMinNodes: 50_000 } as const satisfies Required<FileCollectionStoreOptions>;

/** `selection/index.json`: which document versions the node index holds, and its id table. */
interface SelectionIndexFile {
  format: 'doctree.collection-selection-index';
  version: 1;
  embedder_id: string;
  kind: 'flat' | 'hnsw';
  documents: Array<{ doc_id: string; build_id: string }>;
  /** Node of each vector id (the id is the position). */
  nodes: Array<[string, string]>;
}

const STAGED_NAME = /^(\d+)-[0-9a-f]+$/;

/**
 * The embedded collection store: one folder.
 *
 * ```text
 * <dir>/collection.json                      manifest (written atomically after each document)
 * <dir>/docs/<doc_id>/<build_id>/            a document version: doctree.mm.json, index/, selection.json
 * <dir>/selection/index.json, nodes.vec      the collection-level node index (exact, or faiss HNSW when large)
 * <dir>/.staging/<pid>-<random>/<doc_id>/    documents being built (removed when their process is gone)
 * <dir>/.lock                                the writer's pid, host and start time
 * ```
 *
 * A document becomes visible when the manifest names its version: the version folder is renamed into `docs/` first,
 * then the manifest is replaced atomically (the commit point), then the old version is removed. A crash at any step
 * leaves the last committed state readable; {@link FileCollectionStore.lock} sweeps what a dead run left.
 */
export class FileCollectionStore implements CollectionStore {
  readonly location: string;
  private readonly options: Required<FileCollectionStoreOptions>;
  private manifest: CollectionManifest | undefined;
  private loadedIndex: { file: SelectionIndexFile; vectors: VectorIndex } | undefined;

  constructor(dir: string, options: FileCollectionStoreOptions = {}) {
    this.location = dir;
    this.options = { ...FILE_COLLECTION_STORE_DEFAULTS, ...options };
  }

  private get manifestPath(): string {
    return join(this.location, COLLECTION_FILES.manifest);
  }

  /** @inheritdoc */
  async readManifest(): Promise<CollectionManifest | undefined> {
    let text: string;
    try {
      text = await readFile(this.manifestPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new DocTreeError('INPUT_UNREADABLE', 'cannot read the collection manifest', { file: this.manifestPath, cause: error });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (cause) {
      throw new DocTreeError('SCHEMA_INVALID', 'the collection manifest is not valid JSON', { file: this.manifestPath, cause });
    }
    const head = raw as { format?: unknown; version?: unknown };
    if (head?.format !== COLLECTION_MANIFEST_FORMAT || head.version !== COLLECTION_MANIFEST_VERSION) {
      throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `expected ${COLLECTION_MANIFEST_FORMAT} version ${COLLECTION_MANIFEST_VERSION}`, { file: this.manifestPath });
    }
    this.manifest = parseWith(CollectionManifestSchema, raw, { file: this.manifestPath, what: 'collection manifest' });
    return this.manifest;
  }

  private async current(): Promise<CollectionManifest> {
    const manifest = this.manifest ?? (await this.readManifest());
    if (!manifest) throw new DocTreeError('INPUT_NOT_FOUND', 'no collection here', { file: this.manifestPath, hint: 'Create it with `doctree collection ingest --input-dir <dir> --collection-dir <dir>`.' });
    return manifest;
  }

  private async writeManifest(manifest: CollectionManifest): Promise<void> {
    const checked = parseWith(CollectionManifestSchema, manifest, { file: this.manifestPath, what: 'collection manifest', code: 'INTERNAL' });
    await writeFileAtomic(this.manifestPath, `${JSON.stringify(checked, null, 2)}\n`);
    this.manifest = checked;
  }

  /** @inheritdoc */
  async initialize(init: { input_dir: string }): Promise<CollectionManifest> {
    const existing = await this.readManifest();
    const now = new Date().toISOString();
    if (existing) {
      if (existing.input_dir === init.input_dir) return existing;
      const moved = { ...existing, input_dir: init.input_dir, updated_at: now };
      await this.writeManifest(moved);
      return moved;
    }
    const manifest: CollectionManifest = { format: COLLECTION_MANIFEST_FORMAT, version: COLLECTION_MANIFEST_VERSION, input_dir: init.input_dir, created_at: now, updated_at: now, documents: [], failures: [] };
    await this.writeManifest(manifest);
    return manifest;
  }

  /** @inheritdoc */
  async stageDocument(docId: string): Promise<string> {
    assertDocId(docId);
    const dir = join(this.location, COLLECTION_FILES.staging, `${process.pid}-${randomBytes(6).toString('hex')}`, docId);
    await mkdir(dirname(dir), { recursive: true });
    return dir;
  }

  private versionDir(docId: string, buildId: string): string {
    return join(this.location, COLLECTION_FILES.docs, docId, buildId);
  }

  /** @inheritdoc */
  async commitDocument(row: CollectionDocument, staged: string, selection: DocumentSelectionData): Promise<void> {
    assertDocId(row.doc_id);
    if (!/^[A-Za-z0-9._-]+$/.test(row.build_id)) throw new DocTreeError('INTERNAL', `unsafe build id ${JSON.stringify(row.build_id)}`);
    const manifest = await this.current();
    await writeFileAtomic(join(staged, COLLECTION_FILES.selectionFile), encodeSelectionData(selection));
    const target = this.versionDir(row.doc_id, row.build_id);
    await mkdir(dirname(target), { recursive: true });
    await swapDirectory(staged, target);
    await rm(dirname(staged), { recursive: true, force: true });
    const previous = manifest.documents.find((d) => d.doc_id === row.doc_id);
    const documents = [...manifest.documents.filter((d) => d.doc_id !== row.doc_id), row].sort((a, b) => a.doc_id.localeCompare(b.doc_id));
    const embedder = { id: selection.embedder_id, dimension: selection.profile_vector.length };
    await this.writeManifest({ ...manifest, updated_at: new Date().toISOString(), embedder, documents, failures: manifest.failures.filter((f) => f.path !== row.path) });
    if (previous && previous.build_id !== row.build_id) await rm(this.versionDir(previous.doc_id, previous.build_id), { recursive: true, force: true });
  }

  /** @inheritdoc */
  async discardStaged(staged: string): Promise<void> {
    await rm(dirname(staged), { recursive: true, force: true });
  }

  /** @inheritdoc */
  async removeDocument(docId: string): Promise<void> {
    const manifest = await this.current();
    const row = manifest.documents.find((d) => d.doc_id === docId);
    if (!row) return;
    await this.writeManifest({ ...manifest, updated_at: new Date().toISOString(), documents: manifest.documents.filter((d) => d.doc_id !== docId) });
    await rm(join(this.location, COLLECTION_FILES.docs, docId), { recursive: true, force: true });
  }

  /** @inheritdoc */
  async recordFailure(failure: CollectionFailure): Promise<void> {
    const manifest = await this.current();
    await this.writeManifest({ ...manifest, updated_at: new Date().toISOString(), failures: [...manifest.failures.filter((f) => f.path !== failure.path), failure] });
  }

  /** @inheritdoc */
  async clearFailure(path: string): Promise<void> {
    const manifest = await this.current();
    if (!manifest.failures.some((f) => f.path === path)) return;
    await this.writeManifest({ ...manifest, updated_at: new Date().toISOString(), failures: manifest.failures.filter((f) => f.path !== path) });
  }

  /** @inheritdoc */
  async updateMetadata(docId: string, update: CollectionMetadataUpdate): Promise<CollectionDocument> {
    const manifest = await this.current();
    const row = manifest.documents.find((d) => d.doc_id === docId);
    if (!row) throw unknownDocument(docId, this.manifestPath);
    const at = new Date().toISOString();
    const updated: CollectionDocument = { ...row, metadata: update.metadata, ...(update.description !== undefined ? { description: update.description } : {}), updated_at: at };
    if (update.profile) {
      // The profile lives in selection.json of the committed version: replaced atomically before the row.
      const data = await this.selectionData(docId);
      await writeFileAtomic(join(this.versionDir(row.doc_id, row.build_id), COLLECTION_FILES.selectionFile), encodeSelectionData({ ...data, profile: update.profile.text, profile_vector: update.profile.vector }));
    }
    await this.writeManifest({ ...manifest, updated_at: at, documents: manifest.documents.map((d) => (d.doc_id === docId ? updated : d)) });
    return updated;
  }

  /** @inheritdoc */
  async documentDir(docId: string): Promise<string> {
    const manifest = await this.current();
    const row = manifest.documents.find((d) => d.doc_id === docId);
    if (!row) throw unknownDocument(docId, this.manifestPath);
    return this.versionDir(row.doc_id, row.build_id);
  }

  /** @inheritdoc */
  async selectionData(docId: string): Promise<DocumentSelectionData> {
    const file = join(await this.documentDir(docId), COLLECTION_FILES.selectionFile);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (cause) {
      throw new DocTreeError('INDEX_MISSING', 'the selection data of this document is missing', { file, cause, hint: 'Rebuild the document: `doctree collection sync --force`.' });
    }
    return decodeSelectionData(text, file);
  }

  private get selectionDir(): string {
    return join(this.location, COLLECTION_FILES.selection);
  }

  private async readSelectionIndex(): Promise<{ file: SelectionIndexFile; vectors: VectorIndex } | undefined> {
    if (this.loadedIndex) return this.loadedIndex;
    try {
      const file = JSON.parse(await readFile(join(this.selectionDir, 'index.json'), 'utf8')) as SelectionIndexFile;
      if (file.format !== 'doctree.collection-selection-index' || file.version !== 1) return undefined;
      const vectors = await loadVectorIndex(join(this.selectionDir, 'nodes.vec'), { backend: this.options.backend, validation: 'fast' });
      this.loadedIndex = { file, vectors };
      return this.loadedIndex;
    } catch {
      // Missing, damaged or of another backend: rebuilt from the documents' selection data.
      return undefined;
    }
  }

  /** @inheritdoc */
  async refreshSelectionIndex(): Promise<SelectionIndexInfo> {
    const manifest = await this.current();
    const existing = await this.readSelectionIndex();
    const held = new Map((existing?.file.documents ?? []).map((d) => [d.doc_id, d.build_id]));
    const changed = manifest.documents.filter((d) => held.get(d.doc_id) !== d.build_id).length + [...held.keys()].filter((id) => !manifest.documents.some((d) => d.doc_id === id)).length;
    const embedder = manifest.embedder;
    if (!embedder) return { nodes: 0, kind: 'flat', refreshed: 0 };
    if (existing && changed === 0 && existing.file.embedder_id === embedder.id) {
      return { nodes: existing.file.nodes.length, kind: existing.file.kind, refreshed: 0 };
    }
    const ids: string[] = [];
    const vectors: Float32Array[] = [];
    const nodes: Array<[string, string]> = [];
    for (const row of manifest.documents) {
      const data = await this.selectionData(row.doc_id);
      data.nodes.forEach((node, i) => {
        ids.push(String(nodes.length));
        nodes.push([row.doc_id, node.node_id]);
        vectors.push(data.node_vectors[i]!);
      });
    }
    const kind: 'flat' | 'hnsw' = nodes.length >= this.options.hnswMinNodes ? 'hnsw' : 'flat';
    const index = await createVectorIndex({ backend: this.options.backend, kind, dimension: embedder.dimension, embedderId: embedder.id });
    if (ids.length > 0) index.add(ids, vectors);
    const file: SelectionIndexFile = { format: 'doctree.collection-selection-index', version: 1, embedder_id: embedder.id, kind: index.info.kind, documents: manifest.documents.map((d) => ({ doc_id: d.doc_id, build_id: d.build_id })), nodes };
    await mkdir(this.selectionDir, { recursive: true });
    await index.save(join(this.selectionDir, 'nodes.vec'));
    await writeFileAtomic(join(this.selectionDir, 'index.json'), `${JSON.stringify(file)}\n`);
    this.loadedIndex = { file, vectors: index };
    return { nodes: nodes.length, kind: index.info.kind, refreshed: changed };
  }

  /** @inheritdoc */
  async searchNodes(query: Float32Array, k: number, docIds?: ReadonlySet<string>): Promise<SelectionNodeHit[]> {
    let loaded = await this.readSelectionIndex();
    const manifest = await this.current();
    const stale = !loaded || loaded.file.documents.length !== manifest.documents.length || manifest.documents.some((d, i) => loaded!.file.documents[i]?.build_id !== d.build_id);
    if (stale) {
      await this.refreshSelectionIndex();
      loaded = this.loadedIndex;
    }
    if (!loaded || loaded.file.nodes.length === 0) return [];
    const table = loaded.file.nodes;
    const filter = docIds ? (id: string) => docIds.has(table[Number(id)]?.[0] ?? '') : undefined;
    return loaded.vectors.search(query, { k, ...(filter ? { filter } : {}) }).map((hit) => {
      const [docId, nodeId] = table[Number(hit.id)]!;
      return { doc_id: docId, node_id: nodeId, score: hit.score };
    });
  }

  /**
   * @inheritdoc
   * Once held, sweeps what runs that were killed left behind: staging folders of dead processes and document versions
   * the manifest does not name.
   */
  async lock(options: CollectionLockOptions): Promise<CollectionLock> {
    await mkdir(this.location, { recursive: true });
    const lock = await acquireFileLock(join(this.location, COLLECTION_FILES.lock), options);
    try {
      await this.sweep();
    } catch (error) {
      await lock.release();
      throw error;
    }
    return lock;
  }

  private async sweep(): Promise<void> {
    const staging = join(this.location, COLLECTION_FILES.staging);
    for (const name of await readdir(staging).catch(() => [] as string[])) {
      const pid = Number(STAGED_NAME.exec(name)?.[1]);
      if (Number.isFinite(pid) && !isProcessAlive(pid)) await rm(join(staging, name), { recursive: true, force: true });
    }
    this.manifest = undefined;
    const manifest = await this.readManifest();
    const named = new Map((manifest?.documents ?? []).map((d) => [d.doc_id, d.build_id]));
    const docs = join(this.location, COLLECTION_FILES.docs);
    for (const docId of await readdir(docs).catch(() => [] as string[])) {
      const keep = named.get(docId);
      for (const version of await readdir(join(docs, docId)).catch(() => [] as string[])) {
        if (version !== keep) await rm(join(docs, docId, version), { recursive: true, force: true });
      }
      if (keep === undefined) await rm(join(docs, docId), { recursive: true, force: true });
    }
  }
}

function assertDocId(docId: string): void {
  if (!CollectionDocIdSchema.safeParse(docId).success) throw new DocTreeError('USAGE', `invalid document id ${JSON.stringify(docId)}`, { hint: 'Use letters, digits, ".", "_" and "-" only.' });
}

function unknownDocument(docId: string, file: string): DocTreeError {
  return new DocTreeError('INPUT_NOT_FOUND', `no document ${JSON.stringify(docId)} in this collection`, { file, hint: 'List the documents with `doctree collection status`.' });
}
