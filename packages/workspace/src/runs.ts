import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceContext } from './context.js';
import { readJsonIfPresent } from './io.js';
import { QueryRunSchema, type QueryRun } from './query-run.js';

/** A query run by id. */
export function readRun(ctx: WorkspaceContext, queryId: string): Promise<QueryRun | undefined> {
  if (!/^[A-Za-z0-9_-]+$/.test(queryId)) return Promise.resolve(undefined);
  return readJsonIfPresent(join(ctx.paths.queryRuns, `${queryId}.json`), QueryRunSchema, 'query run');
}

/**
 * The newest query run (of a mode), by creation time (`created_at`, milliseconds). Run ids carry the time in seconds
 * only, with a random suffix, so the name order does not tell runs of the same second apart.
 */
export async function readLatestRun(ctx: WorkspaceContext, mode?: QueryRun['mode']): Promise<QueryRun | undefined> {
  let names: string[];
  try {
    names = (await readdir(ctx.paths.queryRuns)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return undefined;
  }
  let latest: QueryRun | undefined;
  for (const name of names) {
    const run = await readJsonIfPresent(join(ctx.paths.queryRuns, name), QueryRunSchema, 'query run').catch(() => undefined);
    if (!run || (mode !== undefined && run.mode !== mode)) continue;
    if (latest === undefined || Date.parse(run.created_at) >= Date.parse(latest.created_at)) latest = run;
  }
  return latest;
}
