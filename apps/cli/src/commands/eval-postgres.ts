import type { EvalSystemFactory } from '@doctree/pipeline';
import { DocTreeError } from '@doctree/schema';
import { postgresEvalSystem } from '@doctree/store-postgres';
import type { CliIo } from '../cli-context.js';
import { openPostgresStore, storeUrlOf } from './collection-store.js';

/** Eval systems on the PostgreSQL store, by id: `doctree-pg` (the agent over documents read back from the store) and `doctree-pg-hybrid` (plus the store's hybrid search in SQL as a lane). */
export const POSTGRES_EVAL_SYSTEM_IDS = ['doctree-pg', 'doctree-pg-hybrid'] as const;

/** The Postgres eval systems of one `doctree eval` run and what closes their store. */
export interface PostgresEvalSystems {
  factories: ReadonlyMap<string, EvalSystemFactory>;
  close(): Promise<void>;
}

/**
 * Opens the store of `--store` / `DOCTREE_STORE` when the run asks for a Postgres system and returns their
 * factories (none, and no connection, otherwise). The evaluation's documents go to the collection `eval`.
 * @throws DocTreeError `USAGE` when such a system is asked for without a store URL, `BACKEND_UNAVAILABLE` when
 * Postgres cannot be reached (URL redacted).
 */
export async function postgresEvalSystems(io: CliIo, systems: readonly string[], storeOption: unknown): Promise<PostgresEvalSystems> {
  const asked = systems.filter((s) => (POSTGRES_EVAL_SYSTEM_IDS as readonly string[]).includes(s));
  if (asked.length === 0) return { factories: new Map(), close: async () => undefined };
  const url = storeUrlOf(io, storeOption);
  if (url === undefined) {
    throw new DocTreeError('USAGE', `system ${asked[0]} needs a PostgreSQL store: --store postgres://… (or DOCTREE_STORE)`, { hint: '`npm run services` starts a local PostgreSQL with pgvector and prints its URL.' });
  }
  const store = await openPostgresStore(io, url);
  return {
    factories: new Map<string, EvalSystemFactory>([
      ['doctree-pg', postgresEvalSystem({ store })],
      ['doctree-pg-hybrid', postgresEvalSystem({ store, id: 'doctree-pg-hybrid', label: 'DocTree on PostgreSQL + pgvector, with hybrid search in SQL', hybridLane: true })],
    ]),
    close: () => store.close(),
  };
}
