/** DocTree on PostgreSQL + pgvector: one SQL schema with migrations, HNSW vectors, GIN full text, hybrid search in SQL. */
export { dsnPassword, isPostgresUrl, redactDsn } from './dsn.js';
export { MIGRATIONS, POSTGRES_SCHEMA_VERSION, SCHEMA_NAME_PATTERN, quoteSchema, runMigrations, vectorIndexSql } from './migrations.js';
export type { Migration, MigrationResult } from './migrations.js';
export { isConnectionError, toDocTreeError } from './pg-errors.js';
export type { PgErrorContext } from './pg-errors.js';
export { POSTGRES_STORE_DEFAULTS, PostgresStore } from './postgres-store.js';
export type { HybridSearchRequest, PostgresStoreOptions } from './postgres-store.js';
export { collapseRecords, POSTGRES_RETRIEVER_DEFAULTS, PostgresRetriever } from './postgres-retriever.js';
export type { PostgresRetrieverOptions } from './postgres-retriever.js';
export { POSTGRES_COLLECTION_STORE_DEFAULTS, PostgresCollectionStore } from './postgres-collection-store.js';
export type { PostgresCollectionStoreOptions } from './postgres-collection-store.js';
export { bundleHash, POSTGRES_EVAL_SYSTEM_DEFAULTS, postgresEvalSystem } from './postgres-eval-system.js';
export type { PostgresEvalSystemOptions } from './postgres-eval-system.js';
export { readIndexBundle } from './index-bundle.js';
export type { IndexBundle } from './index-bundle.js';
export type { StoredArtifact, StoredDocument, StoredDocumentInfo, StoredEmbedding, StoredNode, StoredSelection } from './stored-document.js';
