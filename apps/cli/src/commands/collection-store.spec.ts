import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentQueue, documentJobId } from '@doctree/jobs';
import { METADATA_EXTRACTOR_VERSION } from '@doctree/pipeline';
import { CollectionStatusReportSchema, CollectionSyncReportSchema } from '@doctree/schema';
import type { CollectionDocument } from '@doctree/schema';
import { PostgresCollectionStore, PostgresStore } from '@doctree/store-postgres';
import { announceSkip, serviceAvailability, startTestService } from '@doctree/store-postgres/testing';
import type { TestService } from '@doctree/store-postgres/testing';
import { captureIo } from '../__fixtures__/capture-io.js';
import { OFFLINE_INDEX_ENV, cliRunner } from '../__fixtures__/cli-runner.js';
import { run } from '../main.js';
import { checkQueue, checkStore } from './doctor-services.js';
import { workerCli } from './worker.js';

jest.setTimeout(180_000);

const doc = (company: string, year: number, topic: string) =>
  `<!-- page 1 -->\n\n# ${company} Annual Report ${year}\n\n## Operations\n\n${company} sells ${topic}.\n\n<!-- page 2 -->\n\n## Cash\n\n${company} held cash of $2.5 million at the end of ${year}.\n`;

describe('collections and the doctor without a reachable store', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'doctree-cli-store-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a store that is not PostgreSQL and a queue without a shared store, printing no password', async () => {
    const io = captureIo(dir, { DOCTREE_STORE: 'mysql://app:pw-in-env@h/db' });
    expect(await run(['collection', 'status', '--collection-dir', 'col'], io)).toBe(2);
    expect(io.err).toContain('DOCTREE_STORE must be a postgres://');
    expect(io.err).not.toContain('pw-in-env');
    const queue = captureIo(dir);
    expect(await run(['collection', 'sync', '--collection-dir', 'col', '--input-dir', '.', '--queue', 'redis://:q-secret@127.0.0.1:1'], queue)).toBe(2);
    expect(queue.err).toContain('--queue needs --store postgres://');
    expect(queue.err).not.toContain('q-secret');
  });

  it('doctor reports an unreachable store within its bound, with a hint and without the password', async () => {
    const started = Date.now();
    const store = await checkStore('postgres://app:doctor-pw@127.0.0.1:1/db', { timeoutMs: 1500 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(store).toMatchObject({ kind: 'postgres', ok: false, url: 'postgres://app:[redacted]@127.0.0.1:1/db' });
    expect(store.hint).toBeDefined();
    expect(JSON.stringify(store)).not.toContain('doctor-pw');
    expect(await checkStore(undefined)).toMatchObject({ kind: 'embedded', ok: true });
    expect(await checkQueue(undefined)).toMatchObject({ kind: 'in-process', ok: true });
    const queue = await checkQueue('ftp://x', { timeoutMs: 1000 });
    expect(queue.ok).toBe(false);
    expect(queue.detail).toContain('redis://');
    const io = captureIo(dir, { DOCTREE_STORE: 'postgres://app:doctor-pw@127.0.0.1:1/db' });
    expect(await run(['doctor'], io)).toBe(1);
    expect(io.out).toMatch(/FAIL store: postgres:\/\/app:\[redacted\]@127\.0\.0\.1:1\/db/);
    expect(io.out).toContain('ok   queue: none');
    expect(`${io.out}${io.err}`).not.toContain('doctor-pw');
  });
});

const availability = serviceAvailability('postgres');
if (!availability.ok) announceSkip('doctree collection --store (PostgreSQL)', availability.reason);

(availability.ok ? describe : describe.skip)('doctree collection and ask on a PostgreSQL store', () => {
  let service: TestService | undefined;
  let dir: string;
  let url: string;
  const cli = cliRunner(() => dir, (cwd) => ({ ...OFFLINE_INDEX_ENV, DOCTREE_DATA_DIR: join(cwd, 'data') }));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-store-pg-'));
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'Alder_2021_10K.md'), doc('Alder Mills', 2021, 'sawn timber'));
    writeFileSync(join(dir, 'in', 'Birch_2022_10K.md'), doc('Birch Labs', 2022, 'lab glassware'));
    service = await startTestService('postgres');
    // Trust authentication accepts any password: the URL carries one so the output can be checked for it.
    url = service.url.replace('postgres@', 'postgres:col-pw-77@');
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('ingests, reports and answers from the store, and enqueues the next sync for workers', async () => {
    const ingest = await cli('collection', 'ingest', '--input-dir', 'in', '--store', url, '--collection', 'mills', '--json');
    expect(ingest.status).toBe(0);
    const report = CollectionSyncReportSchema.parse(JSON.parse(ingest.out));
    expect(report).toMatchObject({ mode: 'ingest', added: ['alder_2021_10k', 'birch_2022_10k'], documents: 2, collection_dir: expect.stringMatching(/^postgres:\/\/postgres:\[redacted\]@127\.0\.0\.1:\d+\/postgres#doctree\/mills$/) });

    const status = await cli('collection', 'status', '--store', url, '--collection', 'mills', '--json');
    expect(status.status).toBe(0);
    expect(CollectionStatusReportSchema.parse(JSON.parse(status.out))).toMatchObject({ documents: 2, pending: 0 });

    const ask = await cli('ask', '--store', url, '--collection', 'mills', '--doc', 'birch_2022_10k', 'How much cash did Birch Labs hold at the end of 2022?', '--json');
    expect(ask.status).toBe(0);
    const answer = JSON.parse(ask.out) as { doc_id: string; answer: { answer: unknown; pages: number[] } };
    expect(answer.doc_id).toBe('birch_2022_10k');
    expect(String(answer.answer.answer)).toContain('2.5');
    expect(answer.answer.pages).toEqual([2]);

    // A queue that cannot be used (BullMQ's Redis driver is not installed here, or the server is down) changes nothing.
    const unusable = await cli('collection', 'sync', '--store', url, '--collection', 'mills', '--queue', 'redis://:rq-pw@127.0.0.1:1');
    expect(unusable.status).not.toBe(0);
    expect(`${unusable.out}${unusable.err}`).not.toContain('rq-pw');

    // Alder's metadata as an older extractor wrote it (no extractor version recorded): stale, its content unchanged.
    const rows = async (): Promise<Map<string, CollectionDocument>> => {
      const db = await PostgresStore.open({ url: service!.url });
      try {
        const manifest = await new PostgresCollectionStore({ store: db, collection: 'mills', cacheDir: join(dir, 'spec-cache') }).readManifest();
        return new Map(manifest!.documents.map((d) => [d.doc_id, d]));
      } finally {
        await db.close();
      }
    };
    const current = await rows();
    const db = await PostgresStore.open({ url: service!.url });
    try {
      await new PostgresCollectionStore({ store: db, collection: 'mills', cacheDir: join(dir, 'spec-cache') }).updateMetadata('alder_2021_10k', { metadata: { edited: [] } });
    } finally {
      await db.close();
    }

    // A new file: the sync enqueues one build job, one refresh job for the stale unchanged row and nothing for the
    // current one; a second sync adds nothing.
    writeFileSync(join(dir, 'in', 'Cedar_2023_10K.md'), doc('Cedar Foods', 2023, 'oat milk'));
    const queueUrl = url;
    const first = await cli('collection', 'sync', '--store', url, '--collection', 'mills', '--queue', queueUrl, '--json');
    expect(first.status).toBe(0);
    const enqueued = JSON.parse(first.out) as { job_ids: string[] };
    expect(enqueued).toMatchObject({ format: 'doctree.collection-enqueue', added: ['cedar_2023_10k'], refreshed: ['alder_2021_10k'], unchanged: ['birch_2022_10k'], already_queued: 0, counts: { waiting: 2 } });
    // The refresh job's id is not the completed build job's of the same content (which the queue may still hold).
    const alder = current.get('alder_2021_10k')!;
    const refreshJob = { op: 'refresh' as const, collection: 'mills', doc_id: 'alder_2021_10k', path: join(dir, 'in', 'Alder_2021_10K.md'), sha256: alder.sha256, extractor: METADATA_EXTRACTOR_VERSION };
    expect(enqueued.job_ids).toContain(documentJobId(refreshJob));
    const { extractor: _, ...buildJob } = refreshJob;
    expect(enqueued.job_ids).not.toContain(documentJobId({ ...buildJob, op: 'upsert' }));
    const second = await cli('collection', 'sync', '--store', url, '--collection', 'mills', '--queue', queueUrl);
    expect(second.status).toBe(0);
    expect(second.out).toContain('build: added 1, updated 0; refresh metadata: 1; remove: 0; unchanged 1; already queued 2');
    expect(second.out).toContain('doctree worker --queue <url> --store <url> --collection mills');
    const queue = await DocumentQueue.open({ url: queueUrl });
    try {
      expect((await queue.counts()).waiting).toBe(2);
    } finally {
      await queue.close();
    }
    // Nothing was built here: the collection still holds two documents until a worker takes the job.
    const after = await cli('collection', 'status', '--store', url, '--collection', 'mills');
    expect(after.out).toMatch(/Documents: {2}2/);
    expect(after.out).toMatch(/\[NEW\] cedar_2023_10k/);

    // A worker takes the jobs: the new document lands under the path sync records, so the next status finds nothing
    // to do; the stale row gets its metadata back without a rebuild.
    const workerIo = captureIo(dir, { DOCTREE_EMBEDDER: 'hashing', DOCTREE_VECTOR_BACKEND: 'exact', DOCTREE_DATA_DIR: join(dir, 'data') });
    let stop: () => void = () => undefined;
    const running = workerCli(workerIo, ['--queue', queueUrl, '--store', url, '--collection', 'mills'], new Promise<void>((resolve) => (stop = resolve)));
    try {
      for (let i = 0; i < 600 && !(workerIo.out.includes('written cedar_2023_10k') && workerIo.out.includes('refreshed alder_2021_10k')); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(workerIo.out).toMatch(/^written cedar_2023_10k \d+ ms$/m);
      expect(workerIo.out).toMatch(/^refreshed alder_2021_10k \d+ ms$/m);
    } finally {
      stop();
      expect(await running).toBe(0);
    }
    expect(workerIo.out).not.toContain('written alder_2021_10k');
    const built = await cli('collection', 'status', '--store', url, '--collection', 'mills', '--json');
    expect(CollectionStatusReportSchema.parse(JSON.parse(built.out))).toMatchObject({ documents: 3, pending: 0 });
    const refreshed = (await rows()).get('alder_2021_10k')!;
    expect(refreshed.metadata).toEqual(alder.metadata);
    expect(refreshed.metadata.extractor).toBe(METADATA_EXTRACTOR_VERSION);
    expect(refreshed).toMatchObject({ build_id: alder.build_id, indexed_at: alder.indexed_at, description: alder.description });
    // Every row current now: the next sync enqueues nothing.
    const third = await cli('collection', 'sync', '--store', url, '--collection', 'mills', '--queue', queueUrl, '--json');
    expect(third.status).toBe(0);
    expect(JSON.parse(third.out)).toMatchObject({ added: [], updated: [], refreshed: [], unchanged: ['alder_2021_10k', 'birch_2022_10k', 'cedar_2023_10k'], job_ids: [] });

    const doctor = await cli('doctor', '--store', url, '--queue', queueUrl, '--json');
    const checked = JSON.parse(doctor.out) as { store: { ok: boolean; detail: string }; queue: { ok: boolean; detail: string } };
    expect(checked.store).toMatchObject({ ok: true, detail: expect.stringMatching(/^PostgreSQL \d+.*pgvector \d/) });
    expect(checked.queue).toMatchObject({ ok: true, detail: expect.stringContaining('0 waiting, 0 active') });

    const all = [ingest, status, ask, first, second, after, built, third, doctor, { out: workerIo.out, err: workerIo.err }].map((r) => `${r.out}${r.err}`).join('\n');
    expect(all).not.toContain('col-pw-77');
  });
});
