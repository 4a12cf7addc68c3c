import { DocumentQueue, queueConnection, redactUrl } from '@doctree/jobs';
import { DocTreeError } from '@doctree/schema';
import { isPostgresUrl, PostgresStore, POSTGRES_SCHEMA_VERSION, redactDsn } from '@doctree/store-postgres';

/** The collection store `doctree doctor` found: the embedded one, or a PostgreSQL store and what one connect found. */
export interface StoreStatus {
  kind: 'embedded' | 'postgres';
  /** URL with its password redacted (Postgres only). */
  url?: string;
  ok: boolean;
  /** `PostgreSQL 15.x`, pgvector version, schema version — or why it failed. */
  detail: string;
  hint?: string;
}

/** The job queue `doctree doctor` found: none (documents built in process) or BullMQ on Redis / PostgreSQL. */
export interface QueueStatus {
  kind: 'in-process' | 'redis' | 'postgres';
  url?: string;
  ok: boolean;
  detail: string;
  hint?: string;
}

/** Options of {@link checkStore} and {@link checkQueue}. */
export interface ServiceCheckOptions {
  /** Time allowed for the connect and the one query, ms. Default 3000. */
  timeoutMs?: number;
}

/** Defaults of {@link ServiceCheckOptions}. */
export const SERVICE_CHECK_DEFAULTS = { timeoutMs: 3000 } as const satisfies ServiceCheckOptions;

/** `work()` or a `BACKEND_UNAVAILABLE` after `ms` (the work is left to its own cleanup). */
async function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DocTreeError('BACKEND_UNAVAILABLE', `${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const STORE_HINT = 'Check that PostgreSQL (with the pgvector extension) runs and the URL is right; `npm run services` starts a local one and prints DOCTREE_STORE.';

/**
 * Connects once to the store of `url` (no migration: the doctor changes nothing) and reads the server version, the
 * pgvector version and DocTree's schema version. Never throws; the password never appears in the result.
 */
export async function checkStore(url: string | undefined, options: ServiceCheckOptions = {}): Promise<StoreStatus> {
  if (url === undefined || url === '') return { kind: 'embedded', ok: true, detail: 'embedded (collection folders: files + faiss/minisearch; set DOCTREE_STORE or --store postgres://… for PostgreSQL)' };
  const shown = redactDsn(url);
  if (!isPostgresUrl(url)) return { kind: 'postgres', url: shown, ok: false, detail: 'not a postgres:// URL', hint: 'e.g. postgres://user:password@127.0.0.1:5432/doctree' };
  const { timeoutMs } = { ...SERVICE_CHECK_DEFAULTS, ...options };
  let store: PostgresStore | undefined;
  const opening = PostgresStore.open({ url, migrate: false, maxConnections: 1, connectTimeoutMs: timeoutMs, statementTimeoutMs: timeoutMs });
  try {
    store = await bounded(opening, timeoutMs + 500, 'connecting to PostgreSQL');
    const [row] = await store.query<{ server: string; vector: string | null }>('checking the store', `SELECT current_setting('server_version') AS server, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector`);
    const migrations = await store
      .query<{ version: number }>('reading the schema version', `SELECT max(version) AS version FROM ${store.quotedSchema}.schema_migrations`)
      .then((rows) => rows[0]?.version ?? null)
      .catch(() => null);
    const vector = row?.vector ?? null;
    const schema = migrations === null ? `no DocTree schema yet (created at the first write, version ${POSTGRES_SCHEMA_VERSION})` : `DocTree schema version ${migrations}${migrations > POSTGRES_SCHEMA_VERSION ? ` (newer than this DocTree's ${POSTGRES_SCHEMA_VERSION})` : ''}`;
    const ok = migrations === null || migrations <= POSTGRES_SCHEMA_VERSION;
    return {
      kind: 'postgres',
      url: shown,
      ok,
      detail: `PostgreSQL ${row?.server ?? '?'}, pgvector ${vector ?? 'not created yet (CREATE EXTENSION at the first write)'}, ${schema}`,
      ...(ok ? {} : { hint: 'Upgrade DocTree, or point --store at another database.' }),
    };
  } catch (error) {
    const e = DocTreeError.from(error, 'BACKEND_UNAVAILABLE');
    return { kind: 'postgres', url: shown, ok: false, detail: redactDsn(e.message), hint: e.hint ? redactDsn(e.hint) : STORE_HINT };
  } finally {
    // A connect still under way when the time ran out is closed when it lands.
    if (store) await store.close();
    else opening.then((s) => s.close()).catch(() => undefined);
  }
}

/**
 * Connects once to the queue of `url` and counts its jobs (BullMQ on Redis needs the `ioredis` driver; on PostgreSQL
 * BullMQ's backend creates its tables when missing). Never throws; the password never appears in the result.
 */
export async function checkQueue(url: string | undefined, options: ServiceCheckOptions = {}): Promise<QueueStatus> {
  if (url === undefined || url === '') return { kind: 'in-process', ok: true, detail: 'none: collection sync builds documents in process (set DOCTREE_QUEUE or --queue for workers)' };
  const shown = redactUrl(url);
  let kind: QueueStatus['kind'] = /^postgres/i.test(url.trim()) ? 'postgres' : 'redis';
  try {
    kind = queueConnection(url).kind;
  } catch (error) {
    const e = DocTreeError.from(error, 'USAGE');
    return { kind, url: shown, ok: false, detail: redactUrl(e.message), ...(e.hint ? { hint: e.hint } : {}) };
  }
  const { timeoutMs } = { ...SERVICE_CHECK_DEFAULTS, ...options };
  let queue: DocumentQueue | undefined;
  const opening = DocumentQueue.open({ url });
  try {
    queue = await bounded(opening, timeoutMs, `connecting to the queue ${shown}`);
    const c = await bounded(queue.counts(), timeoutMs, 'counting jobs');
    return { kind, url: shown, ok: true, detail: `BullMQ on ${kind === 'redis' ? 'Redis' : 'PostgreSQL'}, queue ${queue.name}: ${c.waiting} waiting, ${c.active} active, ${c.delayed} delayed, ${c.failed} failed, ${c.dead} dead letter(s)` };
  } catch (error) {
    const e = DocTreeError.from(error, 'BACKEND_UNAVAILABLE');
    return { kind, url: shown, ok: false, detail: redactUrl(e.message), hint: 'Check that the queue server runs and the URL is right; `npm run services` starts a local Redis and prints DOCTREE_QUEUE.' };
  } finally {
    // A connect still under way when the time ran out is closed when it lands.
    if (queue) await queue.close();
    else opening.then((q) => q.close()).catch(() => undefined);
  }
}
