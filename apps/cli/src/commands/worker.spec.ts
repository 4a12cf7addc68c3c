import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentQueue } from '@doctree/jobs';
import { PostgresCollectionStore, PostgresStore } from '@doctree/store-postgres';
import { describeWithService } from '@doctree/store-postgres/testing';
import { run } from '../main.js';
import { captureIo } from '../__fixtures__/capture-io.js';
import { workerCli } from './worker.js';

describe('doctree worker', () => {
  it('says what it needs instead of starting without a queue or a Postgres store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctree-cli-worker-'));
    try {
      const io = captureIo(dir);
      expect(await run(['worker', '--store', 'postgres://u:pw@h/d'], io)).toBe(2);
      expect(io.err).toContain('doctree worker needs --queue');
      const io2 = captureIo(dir, { DOCTREE_QUEUE: 'redis://:s3cret@h:6379' });
      expect(await run(['worker', '--store', 'sqlite://x'], io2)).toBe(2);
      expect(io2.err).toContain('needs --store postgres://');
      expect(io2.err).not.toContain('s3cret');
      const help = captureIo(dir);
      expect(await run(['worker', '--help'], help)).toBe(0);
      expect(help.out).toContain('doctree worker --queue');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeWithService('postgres', { title: 'doctree worker against a throwaway PostgreSQL', skipName: 'doctree worker', dirPrefix: 'doctree-cli-worker-pg-' }, (pg) => {

  it('builds an enqueued document into the collection, one line per job, never printing the password', async () => {
    // Trust authentication accepts any password: the URL carries one so the output can be checked for it.
    const url = pg.url.replace('postgres@', 'postgres:hunter2-pw@');
    const path = join(pg.dir, 'pumps.md');
    writeFileSync(path, '# Pump handbook\n\n## Seals\n\nReplace worn seals every 500 operating hours.\n');
    const io = captureIo(pg.dir, { DOCTREE_EMBEDDER: 'hashing', DOCTREE_VECTOR_BACKEND: 'exact', DOCTREE_DATA_DIR: join(pg.dir, 'data') });
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = workerCli(io, ['--queue', url, '--store', url, '--collection', 'handbooks', '--name', 'cli-test'], stopped);
    const queue = await DocumentQueue.open({ url, name: 'cli-test' });
    try {
      await queue.enqueue([{ op: 'upsert', collection: 'handbooks', doc_id: 'pumps', path, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') }]);
      for (let i = 0; i < 600 && !io.out.includes('written pumps'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(io.out).toMatch(/^written pumps \d+ ms$/m);
    } finally {
      stop();
      expect(await running).toBe(0);
      await queue.close();
    }
    const db = await PostgresStore.open({ url: pg.url });
    try {
      const manifest = await new PostgresCollectionStore({ store: db, collection: 'handbooks', cacheDir: join(pg.dir, 'c') }).readManifest();
      expect(manifest?.documents.map((d) => d.doc_id)).toEqual(['pumps']);
    } finally {
      await db.close();
    }
    expect(io.err).toContain('store postgres://postgres:[redacted]@127.0.0.1');
    expect(`${io.out}${io.err}`).not.toContain('hunter2-pw');
  }, 120_000);
});
