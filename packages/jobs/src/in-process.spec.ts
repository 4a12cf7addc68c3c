import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { DocTreeError } from '@doctree/schema';
import type { StoredDocument } from '@doctree/store-postgres';
import { documentJobId, parseDocumentJob } from './document-job.js';
import type { DocumentJob } from './document-job.js';
import { runInProcess } from './in-process.js';
import { isPermanentError, processDocumentJob } from './job-handlers.js';
import type { JobStore } from './job-handlers.js';
import { queueConnection } from './queue-connection.js';
import { fixtureHandlers } from './__fixtures__/fixture-build.js';

/** An in-memory store with the same contract (whole documents, hash lookup). */
class MemoryStore implements JobStore<StoredDocument> {
  readonly docs = new Map<string, StoredDocument>();
  writes = 0;
  async documentHash(collection: string, docId: string): Promise<string | undefined> {
    return this.docs.get(`${collection}/${docId}`)?.content_sha256;
  }
  async writeDocument(doc: StoredDocument): Promise<void> {
    this.writes++;
    this.docs.set(`${doc.collection}/${doc.doc_id}`, doc);
  }
  async removeDocument(collection: string, docId: string): Promise<boolean> {
    return this.docs.delete(`${collection}/${docId}`);
  }
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'doctree-jobs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function source(docId: string, text: string): DocumentJob {
  const path = join(dir, `${docId}.txt`);
  writeFileSync(path, text);
  return { op: 'upsert', collection: 'c', doc_id: docId, path, sha256: createHash('sha256').update(text).digest('hex') };
}

describe('document jobs', () => {
  it('job ids come from the content hash: same content one id, changed content another', () => {
    const a = source('a', 'alpha\n\nbeta');
    expect(documentJobId(a)).toBe(documentJobId({ ...a }));
    expect(documentJobId(a)).toMatch(/^doc-[0-9a-f]{64}$/);
    expect(documentJobId({ ...a, sha256: 'b'.repeat(64) })).not.toBe(documentJobId(a));
    expect(documentJobId({ ...a, op: 'remove' })).not.toBe(documentJobId(a));
  });

  it('a refresh job of unchanged content has its own id, which changes with the extractor version', () => {
    const build = source('a', 'alpha\n\nbeta');
    const refresh: DocumentJob = { ...build, op: 'refresh', extractor: 3 };
    // The queue keeps the completed build job's id: the refresh must not be taken for it.
    expect(documentJobId(refresh)).not.toBe(documentJobId(build));
    expect(documentJobId(refresh)).toBe(documentJobId({ ...refresh }));
    expect(documentJobId({ ...refresh, extractor: 4 })).not.toBe(documentJobId(refresh));
    expect(documentJobId({ ...refresh, sha256: 'b'.repeat(64) })).not.toBe(documentJobId(refresh));
    // Build and remove ids are what they were before refresh jobs existed (ids already in queues stay valid).
    const key = `upsert\u0000c\u0000a\u0000${build.sha256}`;
    expect(documentJobId(build)).toBe(`doc-${createHash('sha256').update(key).digest('hex')}`);
  });

  it('refuses malformed job data from the queue with SCHEMA_INVALID naming the field', () => {
    const good = source('ok', 'text');
    expect(parseDocumentJob(good)).toEqual(good);
    expect(() => parseDocumentJob({ ...good, doc_id: '../etc' })).toThrow(/doc_id/);
    expect(() => parseDocumentJob({ ...good, sha256: 'x' })).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }));
    expect(() => parseDocumentJob(JSON.parse(`{"__proto__": {"op": "remove"}, ${JSON.stringify(good).slice(1)}`))).toThrow(/__proto__: unknown field/);
    expect(() => parseDocumentJob(null)).toThrow(/expected an object/);
    expect(() => parseDocumentJob({ ...good, op: 'rebuild' })).toThrow(/op: expected "upsert", "refresh", "remove"/);
    expect(() => parseDocumentJob({ ...good, op: 'REFRESH', extractor: 3 })).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }));
  });

  it('accepts a refresh job only with a sane extractor version, and no other job with one', () => {
    const good: DocumentJob = { ...source('ok', 'text'), op: 'refresh', extractor: 3 };
    expect(parseDocumentJob(good)).toEqual(good);
    for (const extractor of [undefined, 0, -1, 2.5, '3', 1e9, null, Number.NaN]) {
      expect(() => parseDocumentJob({ ...good, extractor })).toThrow(/extractor: a "refresh" job needs an integer/);
    }
    const { extractor: _, ...withoutVersion } = good;
    expect(() => parseDocumentJob(withoutVersion)).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }));
    expect(() => parseDocumentJob({ ...good, op: 'upsert' })).toThrow(/extractor: only a "refresh" job carries one/);
    expect(() => parseDocumentJob({ ...good, op: 'remove' })).toThrow(/extractor/);
  });

  it('runs each job once, retries transient failures with backoff, dead-letters permanent ones at once', async () => {
    const store = new MemoryStore();
    const failures = new Map<string, number>();
    const jobs = [source('one', 'first\n\nsecond'), source('flaky', 'FAIL-TWICE then fine'), source('bad', 'BAD-INPUT')];
    const events: string[] = [];
    const started = Date.now();
    const result = await runInProcess({ jobs: [...jobs, jobs[0]!], store, handlers: fixtureHandlers({ failures }), backoffMs: 20, attempts: 4, concurrency: 2, onJob: (e) => events.push(`${e.doc_id}:${e.outcome}:${e.attempt}`) });
    expect([...result.outcomes.values()].sort()).toEqual(['written', 'written']);
    expect(store.docs.get('c/one')?.nodes.map((n) => n.text)).toEqual(['first', 'second']);
    expect(failures.get('flaky')).toBe(3);
    expect(events.filter((e) => e.startsWith('flaky'))).toEqual(['flaky:failed:1', 'flaky:failed:2', 'flaky:written:3']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(20 + 40);
    expect(result.dead).toEqual([expect.objectContaining({ job: jobs[2], attempts: 1, error: { code: 'INPUT_UNSUPPORTED', message: 'bad: not a document' } })]);
    // Run again: everything the store holds with the same hash is skipped.
    const again = await runInProcess({ jobs: jobs.slice(0, 2), store, handlers: fixtureHandlers({ failures }), backoffMs: 1 });
    expect([...again.outcomes.values()]).toEqual(['unchanged', 'unchanged']);
    expect(store.writes).toBe(2);
  });

  it('gives up after the last attempt with the error in the dead letter', async () => {
    const store = new MemoryStore();
    const job = source('never', 'never works');
    const handlers = { build: async () => Promise.reject(new Error('disk on fire at postgres://u:pw@db/x')) };
    const result = await runInProcess({ jobs: [job], store, handlers, attempts: 3, backoffMs: 1 });
    expect(result.dead).toEqual([expect.objectContaining({ attempts: 3, error: { code: 'INTERNAL', message: 'disk on fire at postgres://u:[redacted]@db/x' } })]);
    expect(store.docs.size).toBe(0);
  });

  it('removes documents and tells permanent errors from transient ones', async () => {
    const store = new MemoryStore();
    const job = source('gone', 'text');
    await processDocumentJob(job, store, fixtureHandlers());
    expect(await processDocumentJob({ ...job, op: 'remove' }, store, fixtureHandlers())).toBe('removed');
    expect(await processDocumentJob({ ...job, op: 'remove' }, store, fixtureHandlers())).toBe('absent');
    expect(isPermanentError(new DocTreeError('PDF_CORRUPT', 'x'))).toBe(true);
    expect(isPermanentError(new DocTreeError('BACKEND_UNAVAILABLE', 'x'))).toBe(false);
    expect(isPermanentError(new Error('x'))).toBe(false);
  });

  it('names the missing Redis driver and the way out instead of crashing', () => {
    expect(() => queueConnection('redis://127.0.0.1:6379', () => false)).toThrow(expect.objectContaining({ code: 'BACKEND_UNAVAILABLE', hint: expect.stringContaining('npm install ioredis') }));
    expect(queueConnection('redis://127.0.0.1:6379', () => true)).toMatchObject({ kind: 'redis' });
    expect(queueConnection('postgres://u:p@h/d')).toMatchObject({ kind: 'postgres' });
    expect(() => queueConnection('amqp://h')).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});

describe('refreshing unchanged documents', () => {
  /** A store that can refresh what it derives from a held document, once (as a collection store refreshes stale metadata). */
  class RefreshingStore extends MemoryStore implements JobStore<StoredDocument> {
    readonly stale = new Set<string>();
    async refreshUnchanged(collection: string, docId: string): Promise<boolean> {
      return this.stale.delete(`${collection}/${docId}`);
    }
  }

  it('reports a held document the store refreshed as refreshed, never building it again', async () => {
    const store = new RefreshingStore();
    const jobs = [source('kept', 'one\n\ntwo'), source('old', 'three\n\nfour')];
    await runInProcess({ jobs, store, handlers: fixtureHandlers() });
    store.stale.add('c/old');
    const built: string[] = [];
    const events: string[] = [];
    const result = await runInProcess({ jobs, store, handlers: fixtureHandlers({ onStart: (job) => built.push(job.doc_id) }), onJob: (e) => events.push(`${e.doc_id}:${e.outcome}`) });
    expect(events.sort()).toEqual(['kept:unchanged', 'old:refreshed']);
    expect([...result.outcomes.values()].sort()).toEqual(['refreshed', 'unchanged']);
    expect(built).toEqual([]);
    expect(store.writes).toBe(2);
    // A changed document is built as before, whatever the hook would say.
    store.stale.add('c/old');
    expect(await processDocumentJob(source('old', 'three\n\nfive'), store, fixtureHandlers())).toBe('written');
  });

  it('a refresh job refreshes a held document, and builds one whose content changed since it was enqueued', async () => {
    const store = new RefreshingStore();
    const kept = source('kept', 'one\n\ntwo');
    await runInProcess({ jobs: [kept], store, handlers: fixtureHandlers() });
    store.stale.add('c/kept');
    const built: string[] = [];
    const handlers = fixtureHandlers({ onStart: (job) => built.push(job.doc_id) });
    const refresh: DocumentJob = { ...kept, op: 'refresh', extractor: 2 };
    // Given with the build job of the same content, it still runs (a different id); one of the two refreshes.
    const result = await runInProcess({ jobs: [kept, refresh], store, handlers });
    expect([...result.outcomes.keys()].sort()).toEqual([documentJobId(kept), documentJobId(refresh)].sort());
    expect([...result.outcomes.values()].sort()).toEqual(['refreshed', 'unchanged']);
    store.stale.add('c/kept');
    expect(await processDocumentJob(refresh, store, handlers)).toBe('refreshed');
    expect(await processDocumentJob(refresh, store, handlers)).toBe('unchanged');
    expect(built).toEqual([]);
    // The file changed after the producer enqueued the refresh: the job carries the new hash, so the document is built.
    expect(await processDocumentJob({ ...source('kept', 'one\n\nthree'), op: 'refresh', extractor: 2 }, store, handlers)).toBe('written');
    expect(built).toEqual(['kept']);
    expect(store.docs.get('c/kept')?.nodes.map((n) => n.text)).toEqual(['one', 'three']);
  });
});
