import { basename, join, resolve } from 'node:path';
import { Collection } from '@doctree/pipeline';
import { DocTreeError } from '@doctree/schema';
import { isPostgresUrl, PostgresCollectionStore, PostgresStore, redactDsn } from '@doctree/store-postgres';
import type { CliConfig, CliIo } from '../cli-context.js';

/** Where a command's collection lives: the collection folder (embedded store) or a PostgreSQL store. */
export interface CollectionTarget {
  /** `--collection-dir DIR` (resolved). */
  dir?: string;
  /** `--store postgres://…` or `DOCTREE_STORE` (undefined: the embedded store in `dir`). */
  storeUrl?: string;
  /** `--collection NAME` (Postgres store). */
  name?: string;
}

/** An opened collection and what closes it. */
export interface OpenedCollection {
  collection: Collection;
  /** Where the collection is, as printed (a Postgres URL with its password redacted). */
  location: string;
  /** The Postgres store when the collection lives there. */
  postgres?: { store: PostgresStore; collection: PostgresCollectionStore; name: string };
  close(): Promise<void>;
}

/**
 * The store URL of `--store` or, without it, `DOCTREE_STORE`; undefined selects the embedded store.
 * @throws DocTreeError `USAGE` for a URL that is not `postgres://…` (printed redacted).
 */
export function storeUrlOf(io: CliIo, value: unknown): string | undefined {
  const url = typeof value === 'string' ? value : io.env['DOCTREE_STORE'];
  if (url === undefined || url === '') return undefined;
  if (!isPostgresUrl(url)) {
    throw new DocTreeError('USAGE', `${typeof value === 'string' ? '--store' : 'DOCTREE_STORE'} must be a postgres://… URL, not ${JSON.stringify(redactDsn(url))}`, {
      hint: 'e.g. --store postgres://user:password@127.0.0.1:5432/doctree (`npm run services` starts a local one and prints it); leave it unset for the embedded store in --collection-dir.',
    });
  }
  return url;
}

/** The collection name in a Postgres store: `--collection`, else the folder name of `--collection-dir`, else `default`. */
export function collectionNameOf(target: CollectionTarget): string {
  return target.name ?? (target.dir !== undefined ? basename(target.dir) : 'default');
}

/** Opens the PostgreSQL store of `url` (migrations applied; connection problems reported redacted on stderr). */
export function openPostgresStore(io: CliIo, url: string): Promise<PostgresStore> {
  return PostgresStore.open({ url, log: (line) => io.stderr(`doctree: ${line}\n`) });
}

/**
 * Opens the collection a command names: in `--collection-dir` (the embedded store), or — with `--store postgres://…`
 * / `DOCTREE_STORE` — the collection `--collection NAME` of that PostgreSQL store, whose documents are materialised
 * under `<data_dir>/.cache/pg-collections` when asked.
 * @throws DocTreeError `USAGE` without a folder or a store, `BACKEND_UNAVAILABLE` when Postgres cannot be reached.
 */
export async function openCollectionTarget(io: CliIo, config: CliConfig, target: CollectionTarget, usage: string): Promise<OpenedCollection> {
  const cacheDir = resolve(io.cwd, config.config.data_dir, '.cache');
  if (target.storeUrl === undefined) {
    if (target.dir === undefined) throw new DocTreeError('USAGE', 'this command needs --collection-dir DIR (or --store postgres://… with --collection NAME)', { hint: `Usage:\n${usage}` });
    const collection = await Collection.open(target.dir, { config: config.config, cacheDir });
    return { collection, location: collection.dir, close: async () => undefined };
  }
  const name = collectionNameOf(target);
  const store = await openPostgresStore(io, target.storeUrl);
  try {
    const pgCollection = new PostgresCollectionStore({ store, collection: name, cacheDir: join(cacheDir, 'pg-collections') });
    const collection = await Collection.open(target.dir ?? io.cwd, { config: config.config, cacheDir, store: pgCollection });
    return { collection, location: pgCollection.location, postgres: { store, collection: pgCollection, name }, close: () => store.close() };
  } catch (error) {
    await store.close();
    throw error;
  }
}
