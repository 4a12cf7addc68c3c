import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PostgresStore } from '@doctree/store-postgres';
import { announceSkip, serviceAvailability, startTestService } from '@doctree/store-postgres/testing';
import type { TestService } from '@doctree/store-postgres/testing';
import type { DocumentJob } from './document-job.js';
import { DocumentQueue } from './document-queue.js';
import { runInProcess } from './in-process.js';
import { redisDriverInstalled } from './queue-connection.js';
import { runWorker } from './run-worker.js';
import { fixtureHandlers } from './__fixtures__/fixture-build.js';

// BullMQ runs on Redis (needs its `ioredis` driver) or on its PostgreSQL backend (needs `pg`, installed). The specs
// run on every backend this machine has: PostgreSQL always when its server is installed, Redis when ioredis is too.
const pg = serviceAvailability('postgres');
if (!pg.ok) announceSkip('@doctree/jobs (BullMQ workers)', pg.reason);
const redis = serviceAvailability('redis');
const redisReady = redis.ok && redisDriverInstalled();
if (!redisReady) announceSkip('@doctree/jobs on Redis', redis.ok ? "BullMQ's Redis driver (npm package ioredis) is not installed; the same specs run on BullMQ's PostgreSQL backend" : redis.reason);
const backends = [...(pg.ok ? ['postgres'] : []), ...(pg.ok && redisReady ? ['redis'] : [])] as const;

let postgres: TestService | undefined;
let redisService: TestService | undefined;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doctree-jobs-q-'));
  if (pg.ok) postgres = await startTestService('postgres');
  if (pg.ok && redisReady) redisService = await startTestService('redis');
}, 90_000);
afterAll(async () => {
  await Promise.all([postgres?.stop(), redisService?.stop()]);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

function source(collection: string, docId: string, text: string): DocumentJob {
  const path = join(dir, `${collection}-${docId}.txt`);
  writeFileSync(path, text);
  return { op: 'upsert', collection, doc_id: docId, path, sha256: createHash('sha256').update(text).digest('hex') };
}

function corpus(collection: string, n: number): DocumentJob[] {
  return Array.from({ length: n }, (_, i) => source(collection, `doc-${i}`, Array.from({ length: 3 + (i % 4) }, (_, p) => `document ${i} paragraph ${p} on gearbox maintenance`).join('\n\n')));
}

/** What the store holds of a collection, comparable between runs. */
async function snapshot(store: PostgresStore, collection: string): Promise<unknown[]> {
  return (await store.listDocuments(collection)).map((d) => [d.doc_id, d.content_sha256, d.nodes, d.embeddings]);
}

const describeBackend = backends.length > 0 ? describe.each(backends) : describe.skip.each(['postgres']);

describeBackend('BullMQ document jobs on %s', (backend) => {
  const queueUrl = (): string => (backend === 'redis' ? redisService!.url : postgres!.url);

  it('processes enqueued jobs once, retries with backoff, dead-letters the failing one with its error', async () => {
    const store = await PostgresStore.open({ url: postgres!.url, schema: `jobs_${backend}_a` });
    const queue = await DocumentQueue.open({ url: queueUrl(), name: `${backend}-a`, attempts: 3, backoffMs: 50 });
    const failures = new Map<string, number>();
    const worker = await runWorker({ queue: queueUrl(), name: `${backend}-a`, store, handlers: fixtureHandlers({ failures }), concurrency: 2 });
    try {
      const jobs = [...corpus('a', 4), source('a', 'flaky', 'FAIL-TWICE\n\nthen fine'), source('a', 'bad', 'BAD-INPUT')];
      const first = await queue.enqueue(jobs);
      const again = await queue.enqueue(jobs.slice(0, 2));
      expect(again).toEqual({ jobIds: first.jobIds.slice(0, 2), duplicates: 2 });
      const counts = await queue.drained(60_000);
      expect(counts).toMatchObject({ waiting: 0, active: 0, delayed: 0, completed: 5, failed: 1, dead: 1 });
      expect((await store.listDocuments('a')).map((d) => d.doc_id)).toEqual(['doc-0', 'doc-1', 'doc-2', 'doc-3', 'flaky']);
      expect(failures.get('flaky')).toBe(3);
      expect(await queue.deadLetters()).toEqual([expect.objectContaining({ job: expect.objectContaining({ doc_id: 'bad' }), attempts: 1, error: { code: 'INPUT_UNSUPPORTED', message: 'bad: not a document' } })]);
    } finally {
      await worker.close();
      await queue.close();
      await store.close();
    }
  }, 90_000);

  it('loses nothing when a worker is killed -9 mid-job: the job is retried and the store converges to a clean build', async () => {
    const store = await PostgresStore.open({ url: postgres!.url, schema: `jobs_${backend}_kill` });
    const jobs = corpus('kill', 8);
    // The reference: the same jobs built in process, into another collection.
    await runInProcess({ jobs: jobs.map((j) => ({ ...j, collection: 'clean' })), store, handlers: fixtureHandlers(), concurrency: 2 });
    const queue = await DocumentQueue.open({ url: queueUrl(), name: `${backend}-kill`, attempts: 5, backoffMs: 50 });
    let child: ChildProcess | undefined;
    let survivor: Awaited<ReturnType<typeof runWorker>> | undefined;
    try {
      child = spawn(process.execPath, ['--conditions=@doctree/source', '--import', pathToFileURL(join(__dirname, '..', '..', '..', 'tools', 'scripts', 'typescript-loader.mjs')).href, join(__dirname, '__fixtures__', 'worker-child.ts')], {
        env: { ...process.env, QUEUE_URL: queueUrl(), QUEUE_NAME: `${backend}-kill`, STORE_URL: postgres!.url, STORE_SCHEMA: `jobs_${backend}_kill`, DELAY_MS: '1500' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const started = new Promise<void>((resolve, reject) => {
        child!.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if ((out.match(/^start /gm) ?? []).length >= 2) resolve();
        });
        child!.on('exit', (code) => reject(new Error(`worker exited early (${code}): ${err}`)));
      });
      await queue.enqueue(jobs);
      await started;
      // Two builds are in flight (1.5 s each): kill the worker without warning.
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
      const afterKill = await store.listDocuments('kill');
      for (const doc of afterKill) expect(doc.nodes).toBe(doc.embeddings); // never half a document
      expect(afterKill.length).toBeLessThan(jobs.length);
      // Another worker takes over; the killed worker's jobs come back once their lock expires.
      survivor = await runWorker({ queue: queueUrl(), name: `${backend}-kill`, store, handlers: fixtureHandlers(), concurrency: 2, lockDurationMs: 1500, stalledIntervalMs: 500 });
      const counts = await queue.drained(60_000);
      expect(counts).toMatchObject({ completed: jobs.length, failed: 0, dead: 0 });
      expect(await snapshot(store, 'kill')).toEqual(await snapshot(store, 'clean'));
    } finally {
      child?.kill('SIGKILL');
      await survivor?.close();
      await queue.close();
      await store.close();
    }
  }, 120_000);
});
