import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pgvector from 'pgvector';
import {
  COLLECTION_MANIFEST_FORMAT,
  COLLECTION_MANIFEST_VERSION,
  CollectionDocIdSchema,
  CollectionManifestSchema,
  DocTreeError,
} from '@doctree/schema';
import type {
  CollectionDocument,
  CollectionFailure,
  CollectionLock,
  CollectionLockOptions,
  CollectionLockOwner,
  CollectionManifest,
  CollectionMetadataUpdate,
  CollectionSelectionNode,
  CollectionStore,
  DocumentSelectionData,
  SelectionIndexInfo,
  SelectionNodeHit,
} from '@doctree/schema';
import { readIndexBundle } from './index-bundle.js';
import { sqlJson, sqlText } from './postgres-store.js';
import type { PostgresStore } from './postgres-store.js';

/** Options of {@link PostgresCollectionStore}. */
export interface PostgresCollectionStoreOptions {
  store: PostgresStore;
  /** Collection name (rows are keyed by it). */
  collection: string;
  /** Local folder for staged builds and for documents materialised by `documentDir`. Default `<tmp>/doctree-pg-cache/<hash>`. */
  cacheDir?: string;
  /** How often a waiting `lock` tries again, ms. Default 200. */
  lockPollMs?: number;
  /** Selection nodes from which `refreshSelectionIndex` builds the HNSW index (below it Postgres scans exactly). Default 50 000. */
  hnswMinNodes?: number;
}

/** Defaults of {@link PostgresCollectionStoreOptions}. */
export const POSTGRES_COLLECTION_STORE_DEFAULTS = { lockPollMs: 200, hnswMinNodes: 50_000 } as const;

interface CollectionRow {
  input_dir: string;
  embedder_id: string;
  dimension: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * The collection store on PostgreSQL: manifest rows, failures, every document's artifacts (so any machine can
 * materialise `documentDir`), its nodes / pages / embeddings for hybrid search, and the selection nodes with an HNSW
 * index — each document committed in one transaction. The write lock is a session advisory lock: it is released by
 * the server when its holder dies, so a killed run never leaves a stale lock.
 *
 * @example
 * ```ts
 * const store = await PostgresStore.open({ url: process.env.DOCTREE_STORE! });
 * const collection = new PostgresCollectionStore({ store, collection: 'reports' });
 * const lock = await collection.lock({ waitMs: 0 });
 * await collection.initialize({ input_dir: '/data/reports' });
 * await lock.release();
 * ```
 */
export class PostgresCollectionStore implements CollectionStore {
  readonly location: string;
  readonly #store: PostgresStore;
  readonly #collection: string;
  readonly #cacheDir: string;
  readonly #lockPollMs: number;
  readonly #hnswMinNodes: number;

  constructor(options: PostgresCollectionStoreOptions) {
    if (typeof options.collection !== 'string' || options.collection.length === 0 || options.collection.length > 200) {
      throw new DocTreeError('USAGE', 'a collection name of 1 to 200 characters is needed');
    }
    const o = { ...POSTGRES_COLLECTION_STORE_DEFAULTS, ...options };
    this.#store = o.store;
    this.#collection = o.collection;
    this.location = `${o.store.location}/${o.collection}`;
    const key = createHash('sha256').update(`${o.store.location}\u0000${o.collection}`).digest('hex').slice(0, 16);
    this.#cacheDir = o.cacheDir ?? join(tmpdir(), 'doctree-pg-cache', key);
    this.#lockPollMs = o.lockPollMs;
    this.#hnswMinNodes = o.hnswMinNodes;
  }

  get #q(): string {
    return this.#store.quotedSchema;
  }

  /** @inheritdoc */
  async readManifest(): Promise<CollectionManifest | undefined> {
    const q = this.#q;
    const [head] = await this.#store.query<CollectionRow>('reading the collection', `SELECT input_dir, embedder_id, dimension, created_at, updated_at FROM ${q}.collections WHERE collection = $1`, [this.#collection]);
    if (!head) return undefined;
    const docs = await this.#store.query<{ row: unknown }>('reading the collection', `SELECT row FROM ${q}.documents WHERE collection = $1 ORDER BY doc_id`, [this.#collection]);
    const failures = await this.#store.query<{ failure: unknown }>('reading the collection', `SELECT failure FROM ${q}.failures WHERE collection = $1 ORDER BY path`, [this.#collection]);
    const raw = {
      format: COLLECTION_MANIFEST_FORMAT,
      version: COLLECTION_MANIFEST_VERSION,
      input_dir: head.input_dir,
      created_at: head.created_at.toISOString(),
      updated_at: head.updated_at.toISOString(),
      ...(head.dimension > 0 ? { embedder: { id: head.embedder_id, dimension: head.dimension } } : {}),
      documents: docs.map((d) => d.row),
      failures: failures.map((f) => f.failure),
    };
    const parsed = CollectionManifestSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new DocTreeError('SCHEMA_INVALID', `collection ${this.location}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
    }
    return parsed.data;
  }

  async #current(): Promise<CollectionManifest> {
    const manifest = await this.readManifest();
    if (!manifest) throw new DocTreeError('INPUT_NOT_FOUND', `no collection ${this.location}`, { hint: 'Create it with `doctree collection ingest --input-dir <dir> --store postgres://…`.' });
    return manifest;
  }

  /** @inheritdoc */
  async initialize(init: { input_dir: string }): Promise<CollectionManifest> {
    await this.#store.query(
      'creating the collection',
      `INSERT INTO ${this.#q}.collections (collection, input_dir) VALUES ($1, $2)
       ON CONFLICT (collection) DO UPDATE SET input_dir = EXCLUDED.input_dir, updated_at = now() WHERE collections.input_dir <> EXCLUDED.input_dir`,
      [this.#collection, init.input_dir],
    );
    return this.#current();
  }

  /** @inheritdoc */
  async stageDocument(docId: string): Promise<string> {
    assertDocId(docId);
    const dir = join(this.#cacheDir, 'staging', `${process.pid}-${randomBytes(6).toString('hex')}`, docId);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** @inheritdoc */
  async commitDocument(row: CollectionDocument, staged: string, selection: DocumentSelectionData): Promise<void> {
    assertDocId(row.doc_id);
    await this.#current();
    const bundle = await readIndexBundle(staged);
    const q = this.#q;
    await this.#store.writeDocument(
      {
        collection: this.#collection,
        doc_id: row.doc_id,
        content_sha256: row.sha256,
        row: row as unknown as Record<string, unknown>,
        nodes: bundle.nodes,
        pages: bundle.pages,
        embeddings: bundle.embeddings,
        embedder_id: bundle.embedder_id,
        artifacts: bundle.artifacts,
        selection: { embedder_id: selection.embedder_id, profile: selection.profile, profile_vector: selection.profile_vector, nodes: selection.nodes, node_vectors: selection.node_vectors },
      },
      async (client) => {
        await client.query(`DELETE FROM ${q}.failures WHERE collection = $1 AND path = $2`, [this.#collection, row.path]);
        await client.query(`UPDATE ${q}.collections SET embedder_id = $2, dimension = $3, updated_at = now() WHERE collection = $1`, [this.#collection, selection.embedder_id, selection.profile_vector.length]);
      },
    );
    await rm(dirname(staged), { recursive: true, force: true });
  }

  /** @inheritdoc */
  async discardStaged(staged: string): Promise<void> {
    await rm(dirname(staged), { recursive: true, force: true });
  }

  /** @inheritdoc */
  async removeDocument(docId: string): Promise<void> {
    if (await this.#store.removeDocument(this.#collection, docId)) await this.#touch();
    await rm(join(this.#cacheDir, 'docs', docId), { recursive: true, force: true });
  }

  /** @inheritdoc */
  async recordFailure(failure: CollectionFailure): Promise<void> {
    await this.#current();
    await this.#store.query('recording a failure', `INSERT INTO ${this.#q}.failures (collection, path, failure) VALUES ($1, $2, $3) ON CONFLICT (collection, path) DO UPDATE SET failure = EXCLUDED.failure`, [this.#collection, failure.path, sqlJson(failure)]);
    await this.#touch();
  }

  /** @inheritdoc */
  async clearFailure(path: string): Promise<void> {
    const rows = await this.#store.query('clearing a failure', `DELETE FROM ${this.#q}.failures WHERE collection = $1 AND path = $2 RETURNING path`, [this.#collection, path]);
    if (rows.length > 0) await this.#touch();
  }

  /** @inheritdoc */
  async updateMetadata(docId: string, update: CollectionMetadataUpdate): Promise<CollectionDocument> {
    const q = this.#q;
    return this.#store.transaction(`updating the metadata of ${docId}`, async (client) => {
      const { rows } = await client.query<{ row: CollectionDocument }>(`SELECT row FROM ${q}.documents WHERE collection = $1 AND doc_id = $2 FOR UPDATE`, [this.#collection, docId]);
      const current = rows[0]?.row;
      if (!current) throw unknownDocument(docId, this.location);
      const updated: CollectionDocument = { ...current, metadata: update.metadata, ...(update.description !== undefined ? { description: update.description } : {}), updated_at: new Date().toISOString() };
      await client.query(`UPDATE ${q}.documents SET row = $3 WHERE collection = $1 AND doc_id = $2`, [this.#collection, docId, sqlJson(updated)]);
      if (update.profile) {
        await client.query(`UPDATE ${q}.selection SET profile = $3, profile_vector = $4::public.vector WHERE collection = $1 AND doc_id = $2`, [this.#collection, docId, sqlText(update.profile.text), pgvector.toSql(Array.from(update.profile.vector)) as string]);
      }
      await client.query(`UPDATE ${q}.collections SET updated_at = now() WHERE collection = $1`, [this.#collection]);
      return updated;
    });
  }

  /**
   * @inheritdoc
   * Materialised from the stored artifacts into the local cache (checked against their sha256, written to a temp
   * folder and renamed into place), once per build id.
   */
  async documentDir(docId: string): Promise<string> {
    assertDocId(docId);
    const rows = await this.#store.query<{ build_id: string | null }>('reading a document', `SELECT row->>'build_id' AS build_id FROM ${this.#q}.documents WHERE collection = $1 AND doc_id = $2`, [this.#collection, docId]);
    const buildId = rows[0]?.build_id;
    if (!buildId) throw unknownDocument(docId, this.location);
    if (!/^[A-Za-z0-9._-]+$/.test(buildId)) throw new DocTreeError('INDEX_CORRUPT', `unsafe build id ${JSON.stringify(buildId)} of ${docId}`);
    const target = join(this.#cacheDir, 'docs', docId, buildId);
    if (existsSync(join(target, '.complete'))) return target;
    const artifacts = await this.#store.query<{ path: string; sha256: string; content: Buffer }>('reading document artifacts', `SELECT path, sha256, content FROM ${this.#q}.artifacts WHERE collection = $1 AND doc_id = $2 ORDER BY path`, [this.#collection, docId]);
    const temp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      for (const artifact of artifacts) {
        if (createHash('sha256').update(artifact.content).digest('hex') !== artifact.sha256) throw new DocTreeError('INDEX_CORRUPT', `artifact ${artifact.path} of ${docId} does not match its sha256`);
        if (artifact.path.split('/').some((part) => part === '..' || part === '')) throw new DocTreeError('INDEX_CORRUPT', `unsafe artifact path ${JSON.stringify(artifact.path)}`);
        const file = join(temp, ...artifact.path.split('/'));
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, artifact.content);
      }
      await mkdir(temp, { recursive: true });
      await writeFile(join(temp, '.complete'), '');
      await rm(target, { recursive: true, force: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
    return target;
  }

  /** @inheritdoc */
  async selectionData(docId: string): Promise<DocumentSelectionData> {
    const q = this.#q;
    const [row] = await this.#store.query<{ embedder_id: string; profile: string; profile_vector: string; nodes: CollectionSelectionNode[] }>(
      'reading selection data',
      `SELECT embedder_id, profile, profile_vector::text AS profile_vector, nodes FROM ${q}.selection WHERE collection = $1 AND doc_id = $2`,
      [this.#collection, docId],
    );
    if (!row) {
      const known = await this.#store.documentHash(this.#collection, docId);
      if (known === undefined) throw unknownDocument(docId, this.location);
      throw new DocTreeError('INDEX_CORRUPT', `the selection data of ${docId} is missing`, { hint: 'Rebuild the document: `doctree collection sync --force`.' });
    }
    const vectors = await this.#store.query<{ embedding: string }>('reading selection data', `SELECT embedding::text AS embedding FROM ${q}.selection_nodes WHERE collection = $1 AND doc_id = $2 ORDER BY ord`, [this.#collection, docId]);
    if (vectors.length !== row.nodes.length) throw new DocTreeError('INDEX_CORRUPT', `${docId}: ${row.nodes.length} selection nodes but ${vectors.length} vectors`);
    return { doc_id: docId, embedder_id: row.embedder_id, profile: row.profile, profile_vector: parseVector(row.profile_vector), nodes: row.nodes, node_vectors: vectors.map((v) => parseVector(v.embedding)) };
  }

  /**
   * @inheritdoc
   * Postgres keeps the node rows in step at each commit, so nothing is read again (`refreshed` is 0); from
   * `hnswMinNodes` nodes the HNSW index is created (then kept by Postgres), below it searches scan exactly (`flat`).
   */
  async refreshSelectionIndex(): Promise<SelectionIndexInfo> {
    const manifest = await this.#current();
    const [row] = await this.#store.query<{ n: string }>('counting selection nodes', `SELECT count(*) AS n FROM ${this.#q}.selection_nodes WHERE collection = $1`, [this.#collection]);
    const nodes = Number(row?.n ?? 0);
    if (!manifest.embedder) return { nodes, kind: 'flat', refreshed: 0 };
    const dimension = manifest.embedder.dimension;
    if (nodes >= this.#hnswMinNodes) await this.#store.ensureVectorIndex(dimension, 'selection_nodes');
    return { nodes, kind: (await this.#store.hasVectorIndex(dimension, 'selection_nodes')) ? 'hnsw' : 'flat', refreshed: 0 };
  }

  /** @inheritdoc Cosine similarity by HNSW kNN in SQL (`1 - cosine distance`). */
  async searchNodes(query: Float32Array, k: number, docIds?: ReadonlySet<string>): Promise<SelectionNodeHit[]> {
    if (!Number.isInteger(k) || k < 1) throw new DocTreeError('USAGE', `k must be a positive integer, got ${k}`);
    const dimension = query.length;
    if (dimension < 1 || dimension > 2000) throw new DocTreeError('USAGE', `query vector dimension ${dimension} is not supported`);
    const params: unknown[] = [this.#collection, pgvector.toSql(Array.from(query)) as string, k];
    let filter = '';
    if (docIds) {
      params.push([...docIds]);
      filter = ' AND doc_id = ANY($4::text[])';
    }
    const rows = await this.#store.transaction('searching selection nodes', async (client) => {
      await client.query('SET LOCAL hnsw.iterative_scan = strict_order');
      await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(40, Math.min(1000, k * 2))}`);
      const result = await client.query<{ doc_id: string; node_id: string; distance: number }>(
        `SELECT doc_id, node_id, (embedding::public.vector(${dimension}) <=> $2::public.vector(${dimension}))::float8 AS distance
         FROM ${this.#q}.selection_nodes WHERE collection = $1 AND dimension = ${dimension}${filter}
         ORDER BY embedding::public.vector(${dimension}) <=> $2::public.vector(${dimension}), doc_id, ord LIMIT $3`,
        params,
      );
      return result.rows;
    });
    return rows.map((r) => ({ doc_id: r.doc_id, node_id: r.node_id, score: 1 - Number(r.distance) }));
  }

  /**
   * @inheritdoc
   * A session advisory lock on a connection of its own, with the owner (pid, host, start) in `collection_locks` for
   * the message another run gets. The server drops the lock when the holder's connection ends (even on kill -9).
   */
  async lock(options: CollectionLockOptions): Promise<CollectionLock> {
    const client = await this.#store.dedicatedClient('taking the collection lock');
    const key = `doctree.collection:${this.#store.schema}:${this.#collection}`;
    const deadline = Date.now() + Math.max(0, options.waitMs);
    let told = false;
    try {
      for (;;) {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [key]);
        if (rows[0]?.ok) break;
        const owner = await this.#owner();
        if (Date.now() >= deadline) {
          throw new DocTreeError('COLLECTION_LOCKED', `collection ${this.location} is locked${owner ? ` by pid ${owner.pid} on ${owner.host} since ${owner.started}` : ''}`);
        }
        if (!told && owner) {
          told = true;
          options.onWait?.(owner);
        }
        await new Promise((resolve) => setTimeout(resolve, this.#lockPollMs));
      }
      const owner: CollectionLockOwner = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
      await client.query(`INSERT INTO ${this.#q}.collection_locks (collection, pid, host, started) VALUES ($1, $2, $3, $4) ON CONFLICT (collection) DO UPDATE SET pid = EXCLUDED.pid, host = EXCLUDED.host, started = EXCLUDED.started`, [this.#collection, owner.pid, owner.host, owner.started]);
      await this.#sweepStaging();
      let released = false;
      return {
        owner,
        release: async () => {
          if (released) return;
          released = true;
          await client.query(`DELETE FROM ${this.#q}.collection_locks WHERE collection = $1 AND pid = $2 AND host = $3`, [this.#collection, owner.pid, owner.host]).catch(() => undefined);
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
          await client.end().catch(() => undefined);
        },
      };
    } catch (error) {
      await client.end().catch(() => undefined);
      if (DocTreeError.isInstance(error)) throw error;
      throw new DocTreeError('BACKEND_UNAVAILABLE', this.#store.redact(`taking the lock of ${this.location} failed: ${(error as Error).message}`));
    }
  }

  async #owner(): Promise<CollectionLockOwner | undefined> {
    const [row] = await this.#store.query<{ pid: number; host: string; started: Date }>('reading the lock owner', `SELECT pid, host, started FROM ${this.#q}.collection_locks WHERE collection = $1`, [this.#collection]);
    return row ? { pid: row.pid, host: row.host, started: row.started.toISOString() } : undefined;
  }

  async #touch(): Promise<void> {
    await this.#store.query('updating the collection', `UPDATE ${this.#q}.collections SET updated_at = now() WHERE collection = $1`, [this.#collection]);
  }

  /** Removes staging folders of processes that are gone (a killed build). */
  async #sweepStaging(): Promise<void> {
    const staging = join(this.#cacheDir, 'staging');
    for (const name of await readdir(staging).catch(() => [] as string[])) {
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) await rm(join(staging, name), { recursive: true, force: true });
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseVector(text: string): Float32Array {
  return Float32Array.from(text.slice(1, -1).split(',').filter((x) => x.length > 0).map(Number));
}

function assertDocId(docId: string): void {
  if (!CollectionDocIdSchema.safeParse(docId).success) throw new DocTreeError('USAGE', `invalid document id ${JSON.stringify(docId)}`, { hint: 'Use letters, digits, ".", "_" and "-" only.' });
}

function unknownDocument(docId: string, location: string): DocTreeError {
  return new DocTreeError('INPUT_NOT_FOUND', `no document ${JSON.stringify(docId)} in ${location}`, { hint: 'List the documents with `doctree collection status`.' });
}
