#!/usr/bin/env node
// A throwaway PostgreSQL cluster (with pgvector when installed) for tests and development: initdb in a fresh temp dir,
// listening on 127.0.0.1 only, on a free port, trust authentication for the `postgres` role; stopped and removed on
// exit. As root the cluster runs as the `postgres` system user (PostgreSQL refuses to run as root).
//
//   node tools/services/start-postgres.mjs [--json] [--stdin]
//     prints the URL (postgres://postgres@127.0.0.1:PORT/postgres), runs until Ctrl-C / SIGTERM (or, with --stdin,
//     until stdin closes), then stops the server and removes its directory.
//   import { startPostgres, postgresAvailability } from './start-postgres.mjs'  — the same from a script.
//
// Environment: DOCTREE_PG_BIN  directory of initdb/pg_ctl/postgres (default: the newest /usr/lib/postgresql/*/bin,
// else PATH).
import { spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, readdirSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, isRoot, makeTempDir, removeDir, run, serveUntilStopped, servicesTempRoot, which } from './service-common.mjs';

/** Directory of the PostgreSQL server programs, or undefined when none is installed. */
export function postgresBinDir() {
  const configured = process.env.DOCTREE_PG_BIN;
  if (configured) return existsSync(join(configured, 'initdb')) ? configured : undefined;
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) if (existsSync(join(base, version, 'bin', 'initdb'))) return join(base, version, 'bin');
  }
  const initdb = which('initdb');
  return initdb ? join(initdb, '..') : undefined;
}

/** The server's share dir (extensions live in `<share>/extension`). */
function shareDir(bin) {
  const pgConfig = join(bin, 'pg_config');
  if (existsSync(pgConfig)) {
    const result = spawnSync(pgConfig, ['--sharedir'], { encoding: 'utf8' });
    if (result.status === 0) return result.stdout.trim();
  }
  const version = /postgresql\/(\d+)\/bin/.exec(bin)?.[1];
  return version ? `/usr/share/postgresql/${version}` : undefined;
}

/**
 * Whether a throwaway cluster can be started here: `{ ok: true, bin, pgvector }` or `{ ok: false, reason }` naming
 * what is missing and how to install it.
 */
export function postgresAvailability() {
  const bin = postgresBinDir();
  if (!bin) return { ok: false, reason: 'PostgreSQL server programs (initdb, pg_ctl) not found. Fix: sudo apt-get install postgresql-15, or set DOCTREE_PG_BIN' };
  if (isRoot() && spawnSync('id', ['-u', 'postgres']).status !== 0) return { ok: false, reason: 'running as root without a postgres system user to run the server as' };
  const share = shareDir(bin);
  const pgvector = share !== undefined && existsSync(join(share, 'extension', 'vector.control'));
  return { ok: true, bin, pgvector };
}

/**
 * An initdb'd data directory kept under the services' temp root (one per server version and user), copied for each cluster:
 * initdb takes seconds on a loaded machine, a copy a fraction of one. Made atomically (initdb into a sibling, rename).
 */
function ensureTemplate(bin, exec, scratch) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const template = join(servicesTempRoot(), `doctree-pg-template-${basename(join(bin, '..'))}-${uid}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const fresh = join(scratch, 'template');
  exec('initdb', ['-D', fresh, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  try {
    renameSync(fresh, template);
  } catch {
    if (!existsSync(join(template, 'PG_VERSION'))) return fresh;
  }
  return template;
}

/**
 * Starts a throwaway cluster. Resolves `{ url, port, dir, pgvector, stop, restart }`; `stop()` stops the server and
 * removes the directory (idempotent); `restart()` crash-stops and restarts it (fault tests).
 */
export async function startPostgres(options = {}) {
  const availability = postgresAvailability();
  if (!availability.ok) throw new Error(availability.reason);
  const { bin } = availability;
  const dir = makeTempDir('doctree-pg-', options.parent);
  const data = join(dir, 'data');
  const asPostgres = isRoot();
  const exec = (program, args) => (asPostgres ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { cwd: dir }) : run(join(bin, program), args, { cwd: dir }));
  let started = false;
  const stop = async () => {
    if (started) {
      started = false;
      spawnSync(asPostgres ? 'runuser' : join(bin, 'pg_ctl'), asPostgres ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'] : ['-D', data, '-m', 'immediate', '-w', 'stop'], { stdio: 'ignore' });
    }
    removeDir(dir);
  };
  try {
    if (asPostgres) chownSync(dir, Number(run('id', ['-u', 'postgres']).trim()), Number(run('id', ['-g', 'postgres']).trim()));
    const template = ensureTemplate(bin, exec, dir);
    cpSync(template, data, { recursive: true, preserveTimestamps: true });
    if (asPostgres) run('chown', ['-R', 'postgres:postgres', data]);
    for (let attempt = 0; ; attempt++) {
      const port = options.port ?? (await freePort());
      const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100 -c shared_buffers=32MB`;
      try {
        exec('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
        started = true;
        /** Crash-stops the server (`-m immediate`, as a kill would) and starts it again on the same port and data. */
        const restart = async () => {
          exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
          exec('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
        };
        return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, pgvector: availability.pgvector, stop, restart };
      } catch (error) {
        if (attempt >= 2 || options.port !== undefined) throw error;
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const availability = postgresAvailability();
  if (!availability.ok) {
    console.error(`start-postgres: ${availability.reason}`);
    process.exit(3);
  }
  try {
    const service = await startPostgres();
    await serveUntilStopped(service, { json: args.includes('--json'), watchStdin: args.includes('--stdin'), label: `postgres${service.pgvector ? ' (pgvector)' : ' (no pgvector: sudo bash tools/services/pgvector-build.sh)'}` });
  } catch (error) {
    console.error(`start-postgres: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
