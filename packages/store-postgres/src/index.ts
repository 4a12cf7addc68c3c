/** DocTree on PostgreSQL + pgvector. */
export const POSTGRES_SCHEMA_VERSION = 1 as const;
