// Load and fault bench of the scale-out path, on loopback only (docs/scale-out.md):
//   1. N worker processes (1, 2) × a generated collection of PDFs: documents/s, pages/s per worker, job latency.
//   2. Faults: during a sync, kill -9 one worker and crash-restart PostgreSQL; restart a worker; the collection must
//      converge to the same rows as a clean build.
//   3. 20 concurrent hybrid retrievals (the agent's retrieval calls) against the Postgres store: queries/s, p50/p95.
// Run: node --conditions=@doctree/source --import ./tools/scripts/typescript-loader.mjs tools/bench/scale/scale-bench.ts [--docs 100] [--pages 3]
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HashingEmbedder } from '@doctree/index';
import { writeSimplePdf } from '@doctree/ingest';
import { DocumentQueue } from '@doctree/jobs';
import type { DocumentJob } from '@doctree/jobs';
import { PostgresRetriever, PostgresStore } from '@doctree/store-postgres';
// @ts-expect-error plain ESM helper without types
import { startPostgres } from '../../services/start-postgres.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const DOCS = flag('--docs', 100);
const PAGES = flag('--pages', 3);
const TOPICS = ['pump maintenance', 'valve inspection', 'turbine vibration', 'boiler pressure', 'conveyor belts', 'cooling towers', 'gearbox lubrication', 'compressor seals', 'heat exchangers', 'electric motors'];

function pdfFor(i: number): Uint8Array {
  const topic = TOPICS[i % TOPICS.length]!;
  return writeSimplePdf(
    Array.from({ length: PAGES }, (_, p) => ({
      runs: [
        { text: `${p === 0 ? `Handbook ${i}: ${topic}` : `Section ${p + 1}: ${topic} procedures`}`, x: 72, y: 72, size: 16, bold: true },
        ...Array.from({ length: 8 }, (_, l) => ({ text: `Unit ${i}-${p}-${l}: check ${topic} at interval ${(i * 7 + p * 3 + l) % 50 + 10} hours and log reading ${(i * 13 + l) % 97}.`, x: 72, y: 110 + l * 18, size: 10 })),
      ],
    })),
  );
}

interface Service {
  url: string;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

const root = mkdtempSync(join(tmpdir(), 'doctree-scale-'));
const pg = (await startPostgres()) as Service;
const report: string[] = [];
const log = (line: string): void => {
  console.log(line);
  report.push(line);
};

function makeCorpus(): DocumentJob[] {
  const dir = join(root, 'input');
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: DOCS }, (_, i) => {
    const path = join(dir, `handbook-${String(i).padStart(3, '0')}.pdf`);
    writeFileSync(path, pdfFor(i));
    return { op: 'upsert' as const, collection: '', doc_id: `handbook-${String(i).padStart(3, '0')}`, path, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
  });
}

function startWorker(schema: string, collection: string, queueName: string): { child: ChildProcess; ready: Promise<void>; events: Array<{ outcome: string; ms: number }> } {
  const events: Array<{ outcome: string; ms: number }> = [];
  const child = spawn(process.execPath, ['--conditions=@doctree/source', '--import', pathToFileURL(join(here, '..', '..', 'scripts', 'typescript-loader.mjs')).href, join(here, 'scale-worker.ts')], {
    env: { ...process.env, QUEUE_URL: pg.url, STORE_URL: pg.url, SCHEMA: schema, COLLECTION: collection, CACHE_DIR: join(root, 'cache', schema), DATA_DIR: join(root, 'data'), QUEUE_NAME: queueName },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        const parsed = JSON.parse(line) as { ready?: boolean; outcome?: string; ms?: number };
        if (parsed.ready) resolve();
        else if (parsed.outcome) events.push({ outcome: parsed.outcome, ms: parsed.ms ?? 0 });
      }
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code})`)));
  });
  ready.catch(() => undefined);
  return { child, ready, events };
}

async function stopWorker(worker: { child: ChildProcess }): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  const gone = new Promise((resolve) => worker.child.once('exit', resolve));
  worker.child.kill('SIGTERM');
  await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  worker.child.kill('SIGKILL');
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function initCollection(schema: string, collection: string): Promise<PostgresStore> {
  const db = await PostgresStore.open({ url: pg.url, schema });
  const { PostgresCollectionStore } = await import('@doctree/store-postgres');
  await new PostgresCollectionStore({ store: db, collection, cacheDir: join(root, 'cache', schema) }).initialize({ input_dir: join(root, 'input') });
  return db;
}

async function rows(db: PostgresStore, collection: string): Promise<string> {
  const docs = await db.listDocuments(collection);
  return JSON.stringify(docs.map((d) => [d.doc_id, d.content_sha256, d.nodes, d.embeddings]));
}

async function sync(workers: number, schema: string, corpus: DocumentJob[], fault?: (running: ReturnType<typeof startWorker>[]) => Promise<ReturnType<typeof startWorker>[]>): Promise<{ seconds: number; events: number[] }> {
  const collection = 'handbooks';
  const db = await initCollection(schema, collection);
  await db.close();
  const queueName = `${schema}-q`;
  const running = Array.from({ length: workers }, () => startWorker(schema, collection, queueName));
  await Promise.all(running.map((w) => w.ready));
  const queue = await DocumentQueue.open({ url: pg.url, name: queueName, attempts: 6, backoffMs: 500 });
  const started = performance.now();
  await queue.enqueue(corpus.map((j) => ({ ...j, collection })));
  const all = fault ? [...running, ...(await fault(running))] : running;
  await queue.drained(1_800_000, 250);
  const seconds = (performance.now() - started) / 1000;
  const counts = await queue.counts();
  if (counts.failed > 0 || counts.dead > 0) log(`  (queue: ${JSON.stringify(counts)}; dead: ${JSON.stringify(await queue.deadLetters())})`);
  await queue.close();
  await Promise.all(all.map(stopWorker));
  return { seconds, events: all.flatMap((w) => w.events.filter((e) => e.outcome === 'written').map((e) => e.ms)) };
}

try {
  const corpus = makeCorpus();
  log(`scale bench: ${DOCS} generated PDFs × ${PAGES} pages, hashing embedder, exact per-document index; PostgreSQL 15 + pgvector and BullMQ (PostgreSQL backend) on 127.0.0.1; ${new Date().toISOString()}`);
  const clean = await sync(1, 'clean', corpus);
  log(`workers=1: ${clean.seconds.toFixed(1)} s, ${(DOCS / clean.seconds).toFixed(2)} docs/s, ${((DOCS * PAGES) / clean.seconds).toFixed(2)} pages/s per worker; job p50 ${percentile(clean.events, 50).toFixed(0)} ms, p95 ${percentile(clean.events, 95).toFixed(0)} ms`);
  const two = await sync(2, 'two', corpus);
  log(`workers=2: ${two.seconds.toFixed(1)} s, ${(DOCS / two.seconds).toFixed(2)} docs/s, ${((DOCS * PAGES) / two.seconds / 2).toFixed(2)} pages/s per worker; job p50 ${percentile(two.events, 50).toFixed(0)} ms, p95 ${percentile(two.events, 95).toFixed(0)} ms; speed-up ×${(clean.seconds / two.seconds).toFixed(2)}`);
  const faults = await sync(2, 'faults', corpus, async (running) => {
    await new Promise((resolve) => setTimeout(resolve, Math.min(8000, (clean.seconds * 1000) / 5)));
    running[0]!.child.kill('SIGKILL');
    log('  fault: kill -9 of worker 1');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await pg.restart();
    log('  fault: PostgreSQL crash-stopped (-m immediate) and restarted');
    const replacement = startWorker('faults', 'handbooks', 'faults-q');
    await replacement.ready;
    log('  a replacement worker started');
    return [replacement];
  });
  const db = await PostgresStore.open({ url: pg.url, schema: 'clean' });
  const faultDb = await PostgresStore.open({ url: pg.url, schema: 'faults' });
  const same = (await rows(db, 'handbooks')) === (await rows(faultDb, 'handbooks'));
  log(`faults (kill -9 a worker + crash-restart PostgreSQL mid-sync): ${faults.seconds.toFixed(1)} s; converged to the clean build's rows: ${same ? 'yes' : 'NO'} (${(await faultDb.listDocuments('handbooks')).length} documents)`);
  await faultDb.close();
  // 20 concurrent retrievals against the Postgres store (the clean collection).
  const embedder = new HashingEmbedder();
  const retriever = new PostgresRetriever({ store: db, collection: 'handbooks' });
  const dense = await db.query<{ embedder_id: string }>('bench', `SELECT DISTINCT embedder_id FROM ${db.quotedSchema}.embeddings LIMIT 1`);
  const queries = Array.from({ length: 100 }, (_, i) => `${TOPICS[i % TOPICS.length]} interval ${(i % 50) + 10} hours`);
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < queries.length) {
        const q = queries[next++]!;
        const t = performance.now();
        await (dense[0]?.embedder_id === embedder.id ? new PostgresRetriever({ store: db, collection: 'handbooks', embedder }) : retriever).retrieve({ query: q, k: 10 });
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  log(`retrieval: 100 hybrid queries, 20 concurrent: ${(100 / elapsed).toFixed(1)} queries/s, p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms`);
  await db.close();
  writeFileSync(join(here, 'last-run.txt'), `${report.join('\n')}\n`);
} finally {
  await pg.stop();
  rmSync(root, { recursive: true, force: true });
}
