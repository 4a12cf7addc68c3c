#!/usr/bin/env node
// `npm run services`: starts a throwaway PostgreSQL (with pgvector) and Redis for development on 127.0.0.1, prints
// their URLs (and the environment lines to use them), runs until Ctrl-C, then stops both and removes their files.
//
//   node tools/services/services.mjs [--json]
import { fileURLToPath } from 'node:url';
import { postgresAvailability, startPostgres } from './start-postgres.mjs';
import { redisAvailability, startRedis } from './start-redis.mjs';

/** Starts whichever of PostgreSQL and Redis are installed; resolves `{ postgres?, redis?, missing[], stop }`. */
export async function startServices() {
  const missing = [];
  let postgres;
  let redis;
  const pg = postgresAvailability();
  if (pg.ok) postgres = await startPostgres();
  else missing.push(`postgres: ${pg.reason}`);
  if (postgres && !postgres.pgvector) missing.push('pgvector: not installed for this PostgreSQL. Fix: sudo bash tools/services/pgvector-build.sh');
  const rd = redisAvailability();
  try {
    if (rd.ok) redis = await startRedis();
    else missing.push(`redis: ${rd.reason}`);
  } catch (error) {
    await postgres?.stop();
    throw error;
  }
  const stop = async () => {
    await Promise.all([postgres?.stop(), redis?.stop()]);
  };
  return { postgres, redis, missing, stop };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const json = process.argv.includes('--json');
  const services = await startServices().catch((error) => {
    console.error(`services: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
  const { postgres, redis, missing, stop } = services;
  if (json) {
    process.stdout.write(`${JSON.stringify({ postgres: postgres?.url, redis: redis?.url, missing })}\n`);
  } else {
    for (const line of missing) console.error(`services: ${line}`);
    if (postgres) console.log(`DOCTREE_STORE=${postgres.url}`);
    if (redis) console.log(`DOCTREE_QUEUE=${redis.url}`);
    console.log('(throwaway services on 127.0.0.1; Ctrl-C stops them and removes their files)');
  }
  if (!postgres && !redis) process.exit(3);
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    void stop().finally(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, shutdown);
  setInterval(() => {}, 1 << 30);
}
