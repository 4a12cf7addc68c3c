import type { PoolClient } from 'pg';
import { DocTreeError } from '@doctree/schema';

/** One step of the SQL schema: applied once, in order, inside a transaction. */
export interface Migration {
  /** 1, 2, 3… (the order they are applied in). */
  version: number;
  name: string;
  /** SQL of the step; `{{schema}}` stands for the quoted schema name. */
  sql: string;
}

/**
 * The SQL schema of the Postgres store, as numbered migrations. Every table is keyed by `collection` then `doc_id`
 * (the natural sharding key: a Citus distribution column, a hash partition key). Full text is a generated `tsvector`
 * column with a GIN index; embeddings are pgvector `vector` values of any dimension, indexed by one HNSW expression
 * index per dimension ({@link vectorIndexSql}).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'collections, documents, nodes, pages, index records, embeddings, artifacts, selection',
    sql: `
CREATE TABLE {{schema}}.collections (
  collection text PRIMARY KEY,
  input_dir text NOT NULL DEFAULT '',
  embedder_id text NOT NULL DEFAULT '',
  dimension integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE {{schema}}.documents (
  collection text NOT NULL,
  doc_id text NOT NULL,
  content_sha256 text NOT NULL,
  row jsonb NOT NULL DEFAULT '{}'::jsonb,
  written_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (collection, doc_id)
);
CREATE TABLE {{schema}}.failures (
  collection text NOT NULL,
  path text NOT NULL,
  failure jsonb NOT NULL,
  PRIMARY KEY (collection, path)
);
CREATE TABLE {{schema}}.nodes (
  collection text NOT NULL,
  doc_id text NOT NULL,
  node_id text NOT NULL,
  role text NOT NULL,
  modality text NOT NULL,
  page_idx integer NOT NULL,
  title text NOT NULL DEFAULT '',
  body text NOT NULL,
  bbox jsonb,
  extra jsonb NOT NULL DEFAULT '{}'::jsonb,
  tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')) STORED,
  PRIMARY KEY (collection, doc_id, node_id)
);
CREATE INDEX nodes_tsv_gin ON {{schema}}.nodes USING gin (tsv);
CREATE INDEX nodes_page ON {{schema}}.nodes (collection, doc_id, page_idx);
CREATE TABLE {{schema}}.pages (
  collection text NOT NULL,
  doc_id text NOT NULL,
  page_idx integer NOT NULL,
  body text NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED,
  PRIMARY KEY (collection, doc_id, page_idx)
);
CREATE INDEX pages_tsv_gin ON {{schema}}.pages USING gin (tsv);
CREATE TABLE {{schema}}.index_records (
  collection text NOT NULL,
  doc_id text NOT NULL,
  record_id text NOT NULL,
  kind text NOT NULL,
  body jsonb NOT NULL,
  PRIMARY KEY (collection, doc_id, kind, record_id)
);
CREATE TABLE {{schema}}.embeddings (
  collection text NOT NULL,
  doc_id text NOT NULL,
  node_id text NOT NULL,
  view text NOT NULL,
  role text NOT NULL,
  page_idx integer NOT NULL,
  embedder_id text NOT NULL,
  dimension integer NOT NULL,
  embedding public.vector NOT NULL,
  PRIMARY KEY (collection, doc_id, view, node_id),
  CHECK (public.vector_dims(embedding) = dimension)
);
CREATE TABLE {{schema}}.artifacts (
  collection text NOT NULL,
  doc_id text NOT NULL,
  path text NOT NULL,
  sha256 text NOT NULL,
  content bytea NOT NULL,
  PRIMARY KEY (collection, doc_id, path)
);
CREATE TABLE {{schema}}.selection (
  collection text NOT NULL,
  doc_id text NOT NULL,
  embedder_id text NOT NULL,
  profile text NOT NULL,
  profile_vector public.vector NOT NULL,
  nodes jsonb NOT NULL,
  PRIMARY KEY (collection, doc_id)
);
`,
  },
  {
    version: 2,
    name: 'selection nodes (collection-level node vectors) and collection lock owners',
    sql: `
CREATE TABLE {{schema}}.selection_nodes (
  collection text NOT NULL,
  doc_id text NOT NULL,
  ord integer NOT NULL,
  node_id text NOT NULL,
  dimension integer NOT NULL,
  embedding public.vector NOT NULL,
  PRIMARY KEY (collection, doc_id, ord),
  CHECK (public.vector_dims(embedding) = dimension)
);
CREATE TABLE {{schema}}.collection_locks (
  collection text PRIMARY KEY,
  pid integer NOT NULL,
  host text NOT NULL,
  started timestamptz NOT NULL
);
`,
  },
];

/** The newest schema version this code knows. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** A schema (namespace) name DocTree accepts: lower-case letters, digits and `_`, up to 63 characters. */
export const SCHEMA_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** The quoted SQL identifier of a schema name (validated against {@link SCHEMA_NAME_PATTERN}). */
export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME_PATTERN.test(schema)) {
    throw new DocTreeError('CONFIG_INVALID', `Postgres schema name ${JSON.stringify(schema)} is not allowed`, { hint: 'Use lower-case letters, digits and "_" (at most 63), starting with a letter or "_".' });
  }
  return `"${schema}"`;
}

/**
 * SQL of the HNSW index (cosine distance) over the embeddings of one dimension: a partial expression index, so one
 * table holds embedders of several dimensions. Queries use the same expression (`embedding::vector(n)`).
 */
export function vectorIndexSql(schema: string, dimension: number, table: 'embeddings' | 'selection_nodes' = 'embeddings'): string {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 2000) {
    throw new DocTreeError('USAGE', `embedding dimension must be an integer in 1..2000 (pgvector's HNSW limit), got ${dimension}`);
  }
  return `CREATE INDEX IF NOT EXISTS ${table}_hnsw_${dimension} ON ${quoteSchema(schema)}.${table} USING hnsw ((embedding::public.vector(${dimension})) public.vector_cosine_ops) WHERE dimension = ${dimension}`;
}

/** What {@link runMigrations} did. */
export interface MigrationResult {
  /** Versions applied by this call (empty when the schema was current). */
  applied: number[];
  /** Schema version after the call. */
  version: number;
}

/** Advisory lock of migrations: one for the whole database, since `CREATE EXTENSION` is database-wide. */
const MIGRATION_LOCK = 'doctree.migrations';

/**
 * Brings `schema` to {@link POSTGRES_SCHEMA_VERSION}: creates the `vector` extension and the schema when missing,
 * then applies each missing migration in one transaction, recording it in `schema_migrations`. Concurrent callers
 * serialise on a transaction-scoped advisory lock, so two processes starting together apply each step once.
 * A database newer than this code is refused with `FORMAT_VERSION_UNSUPPORTED`.
 */
export async function runMigrations(client: PoolClient, schema: string, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationResult> {
  const q = quoteSchema(schema);
  const newest = migrations[migrations.length - 1]?.version ?? 0;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await client.query('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public');
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${q}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${q}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${q}.schema_migrations ORDER BY version`);
    const have = new Set(rows.map((r) => r.version));
    const highest = rows.length > 0 ? rows[rows.length - 1]!.version : 0;
    if (highest > newest) {
      throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `The Postgres store schema "${schema}" is at version ${highest}; this DocTree knows up to ${newest}`, { hint: 'Upgrade DocTree, or point --store at another database or schema.' });
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (have.has(migration.version)) continue;
      await client.query(migration.sql.split('{{schema}}').join(q));
      await client.query(`INSERT INTO ${q}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return { applied, version: Math.max(highest, ...applied) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
