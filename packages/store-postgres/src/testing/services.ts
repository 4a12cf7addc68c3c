import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A throwaway service started for a test run. */
export interface TestService {
  url: string;
  /** Stops the service and removes its files (idempotent). */
  stop(): Promise<void>;
}

/** Which service: PostgreSQL (with pgvector) or Redis. */
export type TestServiceKind = 'postgres' | 'redis';

const SCRIPTS: Record<TestServiceKind, string> = { postgres: 'start-postgres.mjs', redis: 'start-redis.mjs' };

/** `tools/services` of the DocTree checkout this file lives in, or undefined (an installed package has none). */
export function servicesDir(from: string = __dirnameOf()): string | undefined {
  let dir = from;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'tools', 'services');
    if (existsSync(join(candidate, SCRIPTS.postgres))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

function __dirnameOf(): string {
  return typeof __dirname === 'string' ? __dirname : process.cwd();
}

/**
 * Whether a throwaway `kind` service can run here: `{ ok: true }`, or `{ ok: false, reason }` naming the missing
 * program and how to install it (the suites skip then — loudly). Synchronous, so a spec can choose
 * `describe` or `describe.skip` at load time.
 */
export function serviceAvailability(kind: TestServiceKind): { ok: true } | { ok: false; reason: string } {
  const dir = servicesDir();
  if (dir === undefined) return { ok: false, reason: 'tools/services not found (run the specs from a DocTree checkout)' };
  const probe = kind === 'postgres'
    ? `import('./start-postgres.mjs').then((m) => { const a = m.postgresAvailability(); const ok = a.ok && a.pgvector; console.log(JSON.stringify(ok ? { ok } : { ok, reason: a.ok ? 'pgvector is not installed for this PostgreSQL. Fix: sudo bash tools/services/pgvector-build.sh' : a.reason })); })`
    : `import('./start-redis.mjs').then((m) => console.log(JSON.stringify(m.redisAvailability())))`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: dir, encoding: 'utf8' });
  try {
    const parsed = JSON.parse(result.stdout.trim().split('\n').pop() ?? '') as { ok: boolean; reason?: string };
    return parsed.ok ? { ok: true } : { ok: false, reason: parsed.reason ?? 'unavailable' };
  } catch {
    return { ok: false, reason: `probe failed: ${result.stderr.trim().split('\n').slice(-2).join(' ')}` };
  }
}

/**
 * Starts a throwaway service (`tools/services/start-<kind>.mjs` in a child process: loopback only, a free port,
 * files in a temp dir) and resolves its URL. The child stops the service when told to, and also when this process
 * dies (it watches its stdin), so no server outlives a crashed test run.
 */
export async function startTestService(kind: TestServiceKind, timeoutMs = 60_000): Promise<TestService> {
  const dir = servicesDir();
  if (dir === undefined) throw new Error('tools/services not found');
  const child: ChildProcess = spawn(process.execPath, [join(dir, SCRIPTS[kind]), '--json', '--stdin'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`${kind} did not start within ${timeoutMs} ms: ${stderr.trim()}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (line && stdout.includes('\n')) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} exited (${code}) before starting: ${stderr.trim()}`));
    });
  });
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([gone, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
      clearTimeout(timer);
    },
  };
}

/** Prints the loud skip notice of a suite that cannot run here. */
export function announceSkip(suite: string, reason: string): void {
  const line = '!'.repeat(100);
  console.warn(`${line}\n${suite}: SKIPPED — ${reason}\n${line}`);
}
