import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PoolClient } from 'pg';
import pgvector from 'pgvector';
import { DocTreeError } from '@doctree/schema';
import type { BBox, Hit, Modality } from '@doctree/schema';
import { dsnPassword, isPostgresUrl, redactDsn } from './dsn.js';
import { quoteSchema, runMigrations, vectorIndexSql } from './migrations.js';
import type { MigrationResult } from './migrations.js';
import { toDocTreeError } from './pg-errors.js';
import type { StoredDocument, StoredDocumentInfo } from './stored-document.js';

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (the password never reaches a message or log). */
  url: string;
  /** Schema (namespace) of the tables. Default `doctree`. */
  schema?: string;
  /** Pool size. Default 4. */
  maxConnections?: number;
  /** Connect timeout, ms. Default 10000. */
  connectTimeoutMs?: number;
  /** Per-statement timeout, ms (0 = none). Default 60000. */
  statementTimeoutMs?: number;
  /** Run migrations on open. Default true. */
  migrate?: boolean;
  /** RRF constant of hybrid search (`1 / (rrfK + rank)`). Default 60. */
  rrfK?: number;
  /** HNSW `ef_search` (candidate list size of a kNN query). Default 80. */
  efSearch?: number;
  /** Receives redacted log lines (connection problems of idle clients). */
  log?: (line: string) => void;
}

/** Defaults of {@link PostgresStoreOptions}. */
export const POSTGRES_STORE_DEFAULTS = {
  schema: 'doctree',
  maxConnections: 4,
  connectTimeoutMs: 10_000,
  statementTimeoutMs: 60_000,
  migrate: true,
  rrfK: 60,
  efSearch: 80,
} as const satisfies Omit<PostgresStoreOptions, 'url'>;

/** A hybrid (vector + full-text, RRF-fused) search inside Postgres. */
export interface HybridSearchRequest {
  collection: string;
  /** Query text (full-text lane); empty skips the lane. */
  query: string;
  /** Query embedding (vector lane); absent skips the lane. */
  vector?: Float32Array;
  /** Embedder of `vector` (only embeddings of this embedder are compared). */
  embedderId?: string;
  k: number;
  roles?: readonly string[];
  /** 0-based pages. */
  pageIdx?: readonly number[];
  docIds?: readonly string[];
  /** Name put in `Hit.method`. Default `pg.hybrid`. */
  method?: string;
}

interface HitRow {
  doc_id: string;
  node_id: string;
  role: string;
  modality: string;
  page_idx: number;
  title: string;
  body: string;
  bbox: BBox | null;
  extra: Record<string, unknown>;
  score: number;
  dense_rank: string | null;
  sparse_rank: string | null;
}

const SNIPPET_CHARS = 400;

/**
 * DocTree's store on PostgreSQL + pgvector: documents, nodes, pages, index records, embeddings (HNSW), full text
 * (GIN `tsvector`) and artifacts of every collection in one SQL schema with numbered migrations. Each document is
 * written in one transaction, so a crash or a killed worker never leaves half a document; hybrid search (vector kNN +
 * `ts_rank`, fused by reciprocal rank in SQL) runs inside the database.
 *
 * @example
 * ```ts
 * const store = await PostgresStore.open({ url: process.env.DOCTREE_STORE! });
 * await store.writeDocument({ collection: 'reports', doc_id: 'acme-2023', content_sha256, nodes, embeddings, embedder_id: embedder.id });
 * const hits = await store.hybridSearch({ collection: 'reports', query: 'capital expenditures', vector, embedderId: embedder.id, k: 5 });
 * await store.close();
 * ```
 */
export class PostgresStore {
  /** Where the store lives, password redacted (`postgres://app:[redacted]@db:5432/doctree#schema`). */
  readonly location: string;
  readonly schema: string;
  /** Result of the migrations run by {@link open} (undefined with `migrate: false`). */
  migration: MigrationResult | undefined;
  readonly #pool: pg.Pool;
  readonly #options: Required<Omit<PostgresStoreOptions, 'log'>> & Pick<PostgresStoreOptions, 'log'>;
  readonly #secrets: string[];
  readonly #q: string;
  readonly #vectorIndexes = new Set<string>();
  #closed = false;

  private constructor(options: PostgresStoreOptions) {
    this.#options = { ...POSTGRES_STORE_DEFAULTS, ...options };
    this.schema = this.#options.schema;
    this.#q = quoteSchema(this.schema);
    const password = dsnPassword(options.url);
    this.#secrets = password === undefined ? [] : [password];
    this.location = `${this.redact(options.url)}#${this.schema}`;
    this.#pool = new pg.Pool({
      connectionString: options.url,
      max: this.#options.maxConnections,
      connectionTimeoutMillis: this.#options.connectTimeoutMs,
      ...(this.#options.statementTimeoutMs > 0 ? { statement_timeout: this.#options.statementTimeoutMs } : {}),
      application_name: 'doctree',
    });
    // An idle client whose server went away emits 'error' on the pool: report it (redacted), never crash.
    this.#pool.on('error', (error) => this.#options.log?.(this.redact(`postgres: idle connection lost: ${error.message}`)));
  }

  /**
   * Connects (one round trip to check the server), runs the migrations unless `migrate: false`, and returns the store.
   * @throws DocTreeError `USAGE` for a URL that is not `postgres://`, `BACKEND_UNAVAILABLE` when the server cannot be
   * reached, `FORMAT_VERSION_UNSUPPORTED` for a database written by a newer DocTree.
   */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    if (!isPostgresUrl(options.url)) {
      throw new DocTreeError('USAGE', `not a PostgreSQL URL: ${redactDsn(String(options.url))}`, { hint: 'Use postgres://user:password@host:port/database (npm run services prints a local one).' });
    }
    const store = new PostgresStore(options);
    try {
      const client = await store.#connect('connecting');
      try {
        if (store.#options.migrate) store.migration = await runMigrations(client, store.schema);
      } finally {
        client.release();
      }
    } catch (error) {
      await store.close();
      throw store.#error(error, 'running migrations');
    }
    return store;
  }

  /** `text` with the connection password and every connection-string password replaced by `[redacted]`. */
  redact(text: string): string {
    return redactDsn(text, this.#secrets);
  }

  /** Runs `fn` in one transaction on one connection (rolled back when it throws). */
  async transaction<T>(action: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#connect(action);
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.#error(error, action);
    } finally {
      client.release();
    }
  }

  /** Runs one query outside a transaction (errors redacted and mapped). */
  async query<R extends pg.QueryResultRow>(action: string, sql: string, params: unknown[] = []): Promise<R[]> {
    this.#ensureOpen();
    try {
      const result = await this.#pool.query<R>(sql, params);
      return result.rows;
    } catch (error) {
      throw this.#error(error, action);
    }
  }

  /** The quoted schema, for SQL written by companions of this class (`"doctree"`). */
  get quotedSchema(): string {
    return this.#q;
  }

  /** True when the HNSW index of `dimension` on `table` exists. */
  async hasVectorIndex(dimension: number, table: 'embeddings' | 'selection_nodes' = 'embeddings'): Promise<boolean> {
    const rows = await this.query('looking for an index', 'SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [this.schema, `${table}_hnsw_${dimension}`]);
    return rows.length > 0;
  }

  /** Creates the HNSW index of one embedding dimension when missing (idempotent). */
  async ensureVectorIndex(dimension: number, table: 'embeddings' | 'selection_nodes' = 'embeddings'): Promise<void> {
    if (this.#vectorIndexes.has(`${table}:${dimension}`)) return;
    const sql = vectorIndexSql(this.schema, dimension, table);
    await this.transaction('creating the HNSW index', async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`doctree.hnsw:${this.schema}:${dimension}`]);
      await client.query(sql);
    });
    this.#vectorIndexes.add(`${table}:${dimension}`);
  }

  /**
   * Writes one document — manifest row, nodes, pages, records, embeddings, artifacts, selection data — in one
   * transaction, replacing every row of an older version of the same `doc_id`. Readers see the old version or the
   * new one, never a mix; a failure (or a killed process) leaves the old version in place.
   */
  async writeDocument(doc: StoredDocument, alsoInTransaction?: (client: PoolClient) => Promise<void>): Promise<void> {
    validateDocument(doc);
    const dims = new Set((doc.embeddings ?? []).map((e) => e.vector.length));
    for (const dimension of dims) await this.ensureVectorIndex(dimension);
    const q = this.#q;
    await this.transaction(`writing document ${doc.doc_id}`, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`doctree.doc:${doc.collection}:${doc.doc_id}`]);
      await deleteDocumentRows(client, q, doc.collection, doc.doc_id);
      await client.query(`INSERT INTO ${q}.documents (collection, doc_id, content_sha256, row) VALUES ($1, $2, $3, $4)`, [doc.collection, doc.doc_id, doc.content_sha256, sqlJson(doc.row ?? {})]);
      const nodes = doc.nodes;
      if (nodes.length > 0) {
        await client.query(
          `INSERT INTO ${q}.nodes (collection, doc_id, node_id, role, modality, page_idx, title, body, bbox, extra)
           SELECT $1, $2, t.node_id, t.role, t.modality, t.page_idx, t.title, t.body, t.bbox::jsonb, t.extra::jsonb
           FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[]) AS t(node_id, role, modality, page_idx, title, body, bbox, extra)`,
          [
            doc.collection,
            doc.doc_id,
            nodes.map((n) => n.node_id),
            nodes.map((n) => n.role),
            nodes.map((n) => n.modality),
            nodes.map((n) => n.page_idx),
            nodes.map((n) => sqlText(n.title ?? '')),
            nodes.map((n) => sqlText(n.text)),
            nodes.map((n) => (n.bbox ? JSON.stringify(n.bbox) : null)),
            nodes.map((n) => sqlJson(n.extra ?? {})),
          ],
        );
      }
      const pages = doc.pages ?? [];
      if (pages.length > 0) {
        await client.query(`INSERT INTO ${q}.pages (collection, doc_id, page_idx, body) SELECT $1, $2, t.p, t.b FROM unnest($3::int[], $4::text[]) AS t(p, b)`, [doc.collection, doc.doc_id, pages.map((p) => p.page_idx), pages.map((p) => sqlText(p.text))]);
      }
      const records = doc.records ?? [];
      if (records.length > 0) {
        await client.query(`INSERT INTO ${q}.index_records (collection, doc_id, kind, record_id, body) SELECT $1, $2, t.k, t.r, t.b::jsonb FROM unnest($3::text[], $4::text[], $5::text[]) AS t(k, r, b)`, [
          doc.collection,
          doc.doc_id,
          records.map((r) => r.kind),
          records.map((r) => r.record_id),
          records.map((r) => sqlJson(r.body)),
        ]);
      }
      const embeddings = doc.embeddings ?? [];
      if (embeddings.length > 0) {
        const byId = new Map(nodes.map((n) => [n.node_id, n]));
        await client.query(
          `INSERT INTO ${q}.embeddings (collection, doc_id, node_id, view, role, page_idx, embedder_id, dimension, embedding)
           SELECT $1, $2, t.n, t.v, t.r, t.p, $3, t.d, t.e::public.vector
           FROM unnest($4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[]) AS t(n, v, r, p, d, e)`,
          [
            doc.collection,
            doc.doc_id,
            doc.embedder_id ?? '',
            embeddings.map((e) => e.node_id),
            embeddings.map((e) => e.view),
            embeddings.map((e) => byId.get(e.node_id)?.role ?? e.view),
            embeddings.map((e) => byId.get(e.node_id)?.page_idx ?? 0),
            embeddings.map((e) => e.vector.length),
            embeddings.map((e) => pgvector.toSql(Array.from(e.vector)) as string),
          ],
        );
      }
      const artifacts = doc.artifacts ?? [];
      for (const artifact of artifacts) {
        await client.query(`INSERT INTO ${q}.artifacts (collection, doc_id, path, sha256, content) VALUES ($1, $2, $3, $4, $5)`, [
          doc.collection,
          doc.doc_id,
          artifact.path,
          createHash('sha256').update(artifact.content).digest('hex'),
          Buffer.from(artifact.content.buffer, artifact.content.byteOffset, artifact.content.byteLength),
        ]);
      }
      if (doc.selection) {
        const s = doc.selection;
        await client.query(`INSERT INTO ${q}.selection (collection, doc_id, embedder_id, profile, profile_vector, nodes) VALUES ($1, $2, $3, $4, $5::public.vector, $6::jsonb)`, [
          doc.collection,
          doc.doc_id,
          s.embedder_id,
          sqlText(s.profile),
          pgvector.toSql(Array.from(s.profile_vector)) as string,
          sqlJson(s.nodes),
        ]);
        if (s.nodes.length > 0) {
          await client.query(
            `INSERT INTO ${q}.selection_nodes (collection, doc_id, ord, node_id, dimension, embedding)
             SELECT $1, $2, t.o, t.n, t.d, t.e::public.vector FROM unnest($3::int[], $4::text[], $5::int[], $6::text[]) AS t(o, n, d, e)`,
            [
              doc.collection,
              doc.doc_id,
              s.nodes.map((_, i) => i),
              s.nodes.map((n) => n.node_id),
              s.node_vectors.map((v) => v.length),
              s.node_vectors.map((v) => pgvector.toSql(Array.from(v)) as string),
            ],
          );
        }
      }
      await alsoInTransaction?.(client);
    });
  }

  /** Removes a document and all its rows (one transaction); false when it was not there. */
  async removeDocument(collection: string, docId: string): Promise<boolean> {
    return this.transaction(`removing document ${docId}`, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`doctree.doc:${collection}:${docId}`]);
      return deleteDocumentRows(client, this.#q, collection, docId);
    });
  }

  /** The documents of a collection, by `doc_id`, with their row counts. */
  async listDocuments(collection: string): Promise<StoredDocumentInfo[]> {
    const q = this.#q;
    const rows = await this.query<{ doc_id: string; content_sha256: string; row: Record<string, unknown>; nodes: string; embeddings: string }>(
      'listing documents',
      `SELECT d.doc_id, d.content_sha256, d.row,
              (SELECT count(*) FROM ${q}.nodes n WHERE n.collection = d.collection AND n.doc_id = d.doc_id) AS nodes,
              (SELECT count(*) FROM ${q}.embeddings e WHERE e.collection = d.collection AND e.doc_id = d.doc_id) AS embeddings
       FROM ${q}.documents d WHERE d.collection = $1 ORDER BY d.doc_id`,
      [collection],
    );
    return rows.map((r) => ({ doc_id: r.doc_id, content_sha256: r.content_sha256, row: r.row, nodes: Number(r.nodes), embeddings: Number(r.embeddings) }));
  }

  /** The source hash a document was written with, or undefined when the store does not hold it. */
  async documentHash(collection: string, docId: string): Promise<string | undefined> {
    const rows = await this.query<{ content_sha256: string }>('reading a document hash', `SELECT content_sha256 FROM ${this.#q}.documents WHERE collection = $1 AND doc_id = $2`, [collection, docId]);
    return rows[0]?.content_sha256;
  }

  /**
   * Hybrid search inside Postgres: the `k`-nearest embeddings (HNSW, cosine; iterative scan so filters keep recall)
   * and the full-text matches (`ts_rank` over the GIN-indexed `tsvector`, query terms OR-ed), each ranked, fused by
   * reciprocal rank (`Σ 1 / (rrfK + rank)`) in one SQL statement. Returns DocTree hits, best first; ties broken by
   * doc and node id, so the order is deterministic.
   */
  async hybridSearch(request: HybridSearchRequest): Promise<Hit[]> {
    const { collection, query, vector, k } = request;
    const pool = Math.max(40, k * 4);
    const method = request.method ?? 'pg.hybrid';
    const params: unknown[] = [collection, query, pool, k, this.#options.rrfK];
    const filters: string[] = [];
    if (request.roles && request.roles.length > 0) {
      params.push([...request.roles]);
      filters.push(`role = ANY($${params.length}::text[])`);
    }
    if (request.pageIdx && request.pageIdx.length > 0) {
      params.push([...request.pageIdx]);
      filters.push(`page_idx = ANY($${params.length}::int[])`);
    }
    if (request.docIds) {
      params.push([...request.docIds]);
      filters.push(`doc_id = ANY($${params.length}::text[])`);
    }
    const where = (alias: string): string => filters.map((f) => ` AND ${alias}.${f}`).join('');
    const q = this.#q;
    let dense = `SELECT NULL::text AS doc_id, NULL::text AS node_id, NULL::bigint AS rank WHERE false`;
    if (vector !== undefined && vector.length > 0) {
      const dimension = vector.length;
      if (!Number.isInteger(dimension) || dimension > 2000) throw new DocTreeError('USAGE', `query vector dimension ${dimension} is not supported`);
      params.push(pgvector.toSql(Array.from(vector)) as string);
      const v = `$${params.length}::public.vector(${dimension})`;
      params.push(request.embedderId ?? '');
      const embedder = `$${params.length}`;
      dense = `SELECT doc_id, node_id, row_number() OVER (ORDER BY dist, doc_id, node_id) AS rank FROM (
          SELECT DISTINCT ON (doc_id, node_id) doc_id, node_id, dist FROM (
            SELECT e.doc_id, e.node_id, e.embedding::public.vector(${dimension}) <=> ${v} AS dist
            FROM ${q}.embeddings e
            WHERE e.collection = $1 AND e.dimension = ${dimension} AND e.embedder_id = ${embedder} AND e.view <> 'selection'${where('e')}
            ORDER BY e.embedding::public.vector(${dimension}) <=> ${v} LIMIT $3
          ) nearest ORDER BY doc_id, node_id, dist
        ) best`;
    }
    const sql = `WITH tq AS (
        SELECT coalesce((SELECT string_agg('''' || replace(replace(l, '\\', ''), '''', '''''') || '''', ' | ')
                         FROM unnest(tsvector_to_array(to_tsvector('english', $2))) AS l), '') AS text
      ),
      query AS (SELECT CASE WHEN tq.text = '' THEN NULL ELSE tq.text::tsquery END AS q FROM tq),
      dense AS (${dense}),
      sparse AS (
        SELECT doc_id, node_id, row_number() OVER (ORDER BY r DESC, doc_id, node_id) AS rank FROM (
          SELECT n.doc_id, n.node_id, ts_rank(n.tsv, query.q) AS r
          FROM ${q}.nodes n, query
          WHERE query.q IS NOT NULL AND n.collection = $1 AND n.tsv @@ query.q${where('n')}
          ORDER BY r DESC, n.doc_id, n.node_id LIMIT $3
        ) matched
      ),
      fused AS (
        SELECT coalesce(d.doc_id, s.doc_id) AS doc_id, coalesce(d.node_id, s.node_id) AS node_id,
               coalesce(1.0 / ($5 + d.rank), 0) + coalesce(1.0 / ($5 + s.rank), 0) AS score, d.rank AS dense_rank, s.rank AS sparse_rank
        FROM dense d FULL OUTER JOIN sparse s ON d.doc_id = s.doc_id AND d.node_id = s.node_id
      )
      SELECT f.doc_id, f.node_id, n.role, n.modality, n.page_idx, n.title, n.body, n.bbox, n.extra, f.score::float8 AS score, f.dense_rank, f.sparse_rank
      FROM fused f JOIN ${q}.nodes n ON n.collection = $1 AND n.doc_id = f.doc_id AND n.node_id = f.node_id
      ORDER BY f.score DESC, f.doc_id, f.node_id LIMIT $4`;
    const rows = await this.transaction('searching', async (client) => {
      await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(this.#options.efSearch, pool)}`);
      await client.query(`SET LOCAL hnsw.iterative_scan = strict_order`);
      const result = await client.query<HitRow>(sql, params);
      return result.rows;
    });
    return rows.map((row) => toHit(row, method));
  }

  /** A connection of its own (not from the pool), e.g. to hold a session-level advisory lock; the caller ends it. */
  async dedicatedClient(action: string): Promise<pg.Client> {
    this.#ensureOpen();
    const client = new pg.Client({ connectionString: this.#options.url, connectionTimeoutMillis: this.#options.connectTimeoutMs, application_name: 'doctree-lock' });
    client.on('error', (error) => this.#options.log?.(this.redact(`postgres: lock connection lost: ${error.message}`)));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw this.#error(error, action);
    }
    return client;
  }

  /** Closes the pool (idempotent). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end().catch(() => undefined);
  }

  async #connect(action: string): Promise<PoolClient> {
    this.#ensureOpen();
    try {
      return await this.#pool.connect();
    } catch (error) {
      throw this.#error(error, action);
    }
  }

  #ensureOpen(): void {
    if (this.#closed) throw new DocTreeError('USAGE', `the Postgres store ${this.location} is closed`);
  }

  #error(error: unknown, action: string): DocTreeError {
    return toDocTreeError(error, { action, url: this.#options.url, secrets: this.#secrets });
  }
}

/**
 * Text as PostgreSQL stores it: `text` and `jsonb` cannot hold U+0000 (PDF text layers sometimes carry it), so it
 * becomes U+FFFD (same length, offsets kept). The document's files keep their bytes (artifacts are `bytea`).
 */
export function sqlText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

/** JSON for a `jsonb` column, every string passed through {@link sqlText}. */
export function sqlJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? sqlText(v) : v));
}

async function deleteDocumentRows(client: PoolClient, q: string, collection: string, docId: string): Promise<boolean> {
  for (const table of ['nodes', 'pages', 'index_records', 'embeddings', 'artifacts', 'selection', 'selection_nodes']) {
    await client.query(`DELETE FROM ${q}.${table} WHERE collection = $1 AND doc_id = $2`, [collection, docId]);
  }
  const result = await client.query(`DELETE FROM ${q}.documents WHERE collection = $1 AND doc_id = $2`, [collection, docId]);
  return (result.rowCount ?? 0) > 0;
}

function validateDocument(doc: StoredDocument): void {
  if (typeof doc.collection !== 'string' || doc.collection.length === 0) throw new DocTreeError('USAGE', 'writeDocument: collection must be a non-empty string');
  if (typeof doc.doc_id !== 'string' || doc.doc_id.length === 0) throw new DocTreeError('USAGE', 'writeDocument: doc_id must be a non-empty string');
  const ids = new Set<string>();
  for (const node of doc.nodes) {
    if (ids.has(node.node_id)) throw new DocTreeError('SCHEMA_INVALID', `document ${doc.doc_id}: duplicate node id ${node.node_id}`, { nodeId: node.node_id });
    if (!Number.isInteger(node.page_idx) || node.page_idx < 0) throw new DocTreeError('SCHEMA_INVALID', `document ${doc.doc_id}: node ${node.node_id} has page_idx ${node.page_idx}`, { nodeId: node.node_id });
    ids.add(node.node_id);
  }
  for (const embedding of doc.embeddings ?? []) {
    if (!ids.has(embedding.node_id)) throw new DocTreeError('SCHEMA_INVALID', `document ${doc.doc_id}: embedding of unknown node ${embedding.node_id}`, { nodeId: embedding.node_id });
    if (embedding.vector.some((x) => !Number.isFinite(x))) throw new DocTreeError('SCHEMA_INVALID', `document ${doc.doc_id}: embedding of ${embedding.node_id} holds a non-finite value`, { nodeId: embedding.node_id });
  }
  if (doc.selection && doc.selection.node_vectors.length !== doc.selection.nodes.length) {
    throw new DocTreeError('SCHEMA_INVALID', `document ${doc.doc_id}: ${doc.selection.nodes.length} selection nodes but ${doc.selection.node_vectors.length} vectors`);
  }
  for (const artifact of doc.artifacts ?? []) {
    if (artifact.path.split('/').some((part) => part === '..' || part === '') || artifact.path.startsWith('/')) {
      throw new DocTreeError('SCHEMA_INVALID', `document ${doc.doc_id}: artifact path ${JSON.stringify(artifact.path)} leaves the document folder`);
    }
  }
}

const MODALITIES = new Set<string>(['text', 'table', 'image', 'chart', 'equation', 'list', 'section', 'page']);

function toHit(row: HitRow, method: string): Hit {
  const modality = (MODALITIES.has(row.modality) ? row.modality : 'text') as Modality;
  const snippet = row.body.length > SNIPPET_CHARS ? `${row.body.slice(0, SNIPPET_CHARS)}…` : row.body;
  return {
    eid: `${row.doc_id}:${row.node_id}`,
    doc_id: row.doc_id,
    page_idx: row.page_idx,
    node_id: row.node_id,
    modality,
    snippet,
    bbox: row.bbox,
    score_raw: Number(row.score),
    method,
    extra: {
      ...row.extra,
      role: row.role,
      ...(row.title ? { title: row.title } : {}),
      dense_rank: row.dense_rank === null ? null : Number(row.dense_rank),
      sparse_rank: row.sparse_rank === null ? null : Number(row.sparse_rank),
    },
  };
}
