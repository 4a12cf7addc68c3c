import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformanceRow, conformanceSelection, runCollectionStoreConformance } from '@doctree/pipeline/testing';
import { PostgresCollectionStore } from './postgres-collection-store.js';
import { PostgresStore } from './postgres-store.js';
import { announceSkip, serviceAvailability, startTestService } from './testing/index.js';
import type { TestService } from './testing/index.js';

const availability = serviceAvailability('postgres');
if (!availability.ok) announceSkip('@doctree/store-postgres (collection store)', availability.reason);
const describePg = availability.ok ? describe : describe.skip;

let service: TestService | undefined;
let cacheRoot: string;
let counter = 0;
beforeAll(async () => {
  cacheRoot = mkdtempSync(join(tmpdir(), 'doctree-pgc-'));
  if (availability.ok) service = await startTestService('postgres');
}, 90_000);
afterAll(async () => {
  await service?.stop();
  rmSync(cacheRoot, { recursive: true, force: true });
}, 30_000);

async function fresh(): Promise<{ store: PostgresCollectionStore; db: PostgresStore; dispose: () => Promise<void> }> {
  const n = ++counter;
  const db = await PostgresStore.open({ url: service!.url, schema: `coll_${n}` });
  const store = new PostgresCollectionStore({ store: db, collection: 'reports', cacheDir: join(cacheRoot, String(n)) });
  return { store, db, dispose: () => db.close() };
}

describePg('PostgresCollectionStore', () => {
  runCollectionStoreConformance({ name: 'postgres', create: fresh });

  it('rebuilds a document folder on another machine from the stored artifacts, and the lock dies with its holder', async () => {
    const { store, db, dispose } = await fresh();
    try {
      await store.initialize({ input_dir: '/in' });
      const staged = await store.stageDocument('delta');
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(join(staged, 'index'), { recursive: true });
      await writeFile(join(staged, 'index', 'note.txt'), 'nested artifact');
      await store.commitDocument(conformanceRow('delta', 'b7'), staged, conformanceSelection('delta', [[1, 0, 0, 0]]));
      // Another machine: same database, an empty local cache.
      const elsewhere = new PostgresCollectionStore({ store: db, collection: 'reports', cacheDir: join(cacheRoot, 'elsewhere') });
      const dir = await elsewhere.documentDir('delta');
      expect(dir).toBe(join(cacheRoot, 'elsewhere', 'docs', 'delta', 'b7'));
      expect(await readFile(join(dir, 'index', 'note.txt'), 'utf8')).toBe('nested artifact');
      // A holder whose connection is gone (a killed process) no longer blocks anyone.
      const lock = await store.lock({ waitMs: 0 });
      const waited: number[] = [];
      const second = elsewhere.lock({ waitMs: 5_000, onWait: (owner) => waited.push(owner.pid) });
      await new Promise((resolve) => setTimeout(resolve, 400));
      // The holder dies without releasing: its session ends (as when its process is killed -9).
      await db.query('test', "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'doctree-lock' AND pid <> pg_backend_pid() AND query LIKE '%collection_locks%'");
      const taken = await second;
      expect(taken.owner.pid).toBe(process.pid);
      expect(waited).toEqual([process.pid]);
      await taken.release();
      await lock.release();
    } finally {
      await dispose();
    }
  }, 60_000);
});
