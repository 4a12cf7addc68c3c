#!/usr/bin/env node
// Set-up step (called by tools/setup/setup.mjs): makes the development/test services DocTree's Postgres store and job
// queue are tested against available — PostgreSQL 15 with pgvector (built from Debian trixie's source package by
// pgvector-build.sh) and Debian `redis-server` — as root on Debian/Ubuntu; otherwise says what is missing and how to
// install it. Idempotent and quick when everything is there. DOCTREE_SKIP_SERVICES=1 skips it.
// The specs of @doctree/store-postgres and @doctree/jobs skip, loudly, only when these programs are absent.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRoot, which } from './service-common.mjs';
import { postgresAvailability } from './start-postgres.mjs';
import { redisAvailability } from './start-redis.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const log = (message) => console.log(`[setup] services: ${message}`);

/** Runs the step; returns a one-line summary. */
export function ensureServices() {
  if (process.env.DOCTREE_SKIP_SERVICES === '1') return 'skipped (DOCTREE_SKIP_SERVICES=1); the Postgres store and job queue specs will be skipped';
  const canApt = process.platform === 'linux' && existsSync('/etc/debian_version') && which('apt-get') !== undefined && isRoot();
  const pg = postgresAvailability();
  const needPgvector = !pg.ok || !pg.pgvector;
  const needRedis = !redisAvailability().ok;
  if (!needPgvector && !needRedis) return 'postgresql + pgvector and redis-server found';
  if (!canApt) {
    const fixes = [needPgvector ? 'sudo bash tools/services/pgvector-build.sh' : '', needRedis ? 'sudo apt-get install redis-server' : ''].filter(Boolean);
    return `${[needPgvector ? 'postgresql + pgvector' : '', needRedis ? 'redis-server' : ''].filter(Boolean).join(' and ')} missing (not root or no apt-get); the Postgres store / job queue specs will be skipped. Fix: ${fixes.join(' && ')}`;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const problems = [];
  if (needPgvector) {
    log('building pgvector for PostgreSQL 15 (apt: postgresql-15, postgresql-server-dev-15; source: Debian trixie)');
    const result = spawnSync('bash', [join(here, 'pgvector-build.sh')], { stdio: 'inherit', env });
    if (result.status !== 0) problems.push(`pgvector build failed (exit ${result.status})`);
  }
  if (needRedis) {
    log('apt-get install redis-server');
    let result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], { stdio: 'inherit', env });
    if (result.status !== 0) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
      result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], { stdio: 'inherit', env });
    }
    if (result.status !== 0) problems.push(`apt-get install redis-server failed (exit ${result.status})`);
  }
  return problems.length > 0 ? `WARNING ${problems.join('; ')}; the affected specs will be skipped` : 'postgresql + pgvector and redis-server installed';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) log(ensureServices());
