import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { conformanceTestGlobals, errorCodeOf } from '@doctree/schema/testing';
import type { CollectionDocument, CollectionStore, DocumentSelectionData } from '@doctree/schema';

/** Options of {@link runCollectionStoreConformance}. */
export interface CollectionStoreConformanceOptions {
  /** Name shown in the test titles. */
  name: string;
  /** A fresh, empty store for each test (and its own cleanup in `dispose`). */
  create: () => Promise<{ store: CollectionStore; dispose?: () => Promise<void> }>;
}

const DIM = 4;

function unit(values: number[]): Float32Array {
  const norm = Math.hypot(...values) || 1;
  return Float32Array.from(values.map((v) => v / norm));
}

/** A selection record with one node per vector given. */
export function conformanceSelection(docId: string, vectors: number[][]): DocumentSelectionData {
  return {
    doc_id: docId,
    embedder_id: 'conformance:d4',
    profile: `profile of ${docId}`,
    profile_vector: unit(vectors[0] ?? [1, 0, 0, 0]),
    nodes: vectors.map((_, i) => ({ node_id: `n${i}`, title: `Section ${i}`, text: `Section ${i} of ${docId}`, level: 1, pages: [i + 1, i + 1] as [number, number] })),
    node_vectors: vectors.map(unit),
  };
}

/** A manifest row for a conformance document. */
export function conformanceRow(docId: string, buildId: string, path = `${docId}.md`): CollectionDocument {
  const at = new Date().toISOString();
  return {
    doc_id: docId,
    path,
    kind: 'markdown',
    sha256: 'a'.repeat(64),
    size: 10,
    mtime: at,
    build_id: buildId,
    pages: 1,
    ingest_warnings: [],
    indexed_at: at,
    created_at: at,
    updated_at: at,
    description: `Description of ${docId}`,
    metadata: { edited: [] },
  };
}

async function stage(store: CollectionStore, docId: string, marker: string): Promise<string> {
  const staged = await store.stageDocument(docId);
  await mkdir(staged, { recursive: true });
  await writeFile(join(staged, 'marker.txt'), marker);
  return staged;
}

/**
 * The behaviour every {@link CollectionStore} must show: an empty store has no manifest; committed documents are
 * visible with their row, artifacts and selection data; a commit replaces the older version of a document; staged and
 * discarded documents never show; removal, failures and metadata updates; the selection index finds nodes across
 * documents, honours a document filter and follows commits and removals; the lock is exclusive and names its holder.
 * Run it from a spec: `runCollectionStoreConformance({ name: 'file', create: async () => ({ store }) })`.
 */
export function runCollectionStoreConformance(options: CollectionStoreConformanceOptions): void {
  const { describe, it, expect } = conformanceTestGlobals('runCollectionStoreConformance');
  describe(`CollectionStore conformance: ${options.name}`, () => {
    const withStore = (body: (store: CollectionStore) => Promise<void>) => async () => {
      const { store, dispose } = await options.create();
      try {
        await body(store);
      } finally {
        await dispose?.();
      }
    };

    it(
      'starts empty, commits documents with their artifacts and replaces an older version in one step',
      withStore(async (store) => {
        expect(await store.readManifest()).toBe(undefined);
        const manifest = await store.initialize({ input_dir: '/in' });
        expect(manifest.documents).toEqual([]);
        await store.commitDocument(conformanceRow('alpha', 'b1'), await stage(store, 'alpha', 'one'), conformanceSelection('alpha', [[1, 0, 0, 0]]));
        expect(await readFile(join(await store.documentDir('alpha'), 'marker.txt'), 'utf8')).toBe('one');
        await store.commitDocument(conformanceRow('alpha', 'b2'), await stage(store, 'alpha', 'two'), conformanceSelection('alpha', [[0, 1, 0, 0]]));
        const after = (await store.readManifest())!;
        expect(after.documents.map((d) => [d.doc_id, d.build_id])).toEqual([['alpha', 'b2']]);
        expect(after.embedder).toEqual({ id: 'conformance:d4', dimension: DIM });
        expect(await readFile(join(await store.documentDir('alpha'), 'marker.txt'), 'utf8')).toBe('two');
        expect((await store.selectionData('alpha')).node_vectors[0]![1]).toBeCloseTo(1);
      }),
    );

    it(
      'never shows a discarded staged document; removes documents; records and clears failures',
      withStore(async (store) => {
        await store.initialize({ input_dir: '/in' });
        await store.discardStaged(await stage(store, 'ghost', 'x'));
        await store.commitDocument(conformanceRow('beta', 'b1'), await stage(store, 'beta', 'b'), conformanceSelection('beta', [[1, 1, 0, 0]]));
        expect((await store.readManifest())!.documents.map((d) => d.doc_id)).toEqual(['beta']);
        expect(await errorCodeOf(store.documentDir('ghost'))).toBe('INPUT_NOT_FOUND');
        await store.recordFailure({ path: 'bad.pdf', sha256: 'b'.repeat(64), code: 'PDF_CORRUPT', message: 'broken', at: new Date().toISOString() });
        expect((await store.readManifest())!.failures.map((f) => f.path)).toEqual(['bad.pdf']);
        await store.clearFailure('bad.pdf');
        expect((await store.readManifest())!.failures).toEqual([]);
        await store.removeDocument('beta');
        await store.removeDocument('never-there');
        expect((await store.readManifest())!.documents).toEqual([]);
        expect(await errorCodeOf(store.selectionData('beta'))).toBe('INPUT_NOT_FOUND');
      }),
    );

    it(
      'updates metadata, description and profile of one document',
      withStore(async (store) => {
        await store.initialize({ input_dir: '/in' });
        await store.commitDocument(conformanceRow('gamma', 'b1'), await stage(store, 'gamma', 'g'), conformanceSelection('gamma', [[0, 0, 1, 0]]));
        const row = await store.updateMetadata('gamma', { metadata: { company: 'Gamma Co', year: 2020, edited: ['company', 'year'] }, description: 'Gamma Co 2020', profile: { text: 'new profile', vector: unit([0, 0, 0, 1]) } });
        expect([row.doc_id, row.description, row.metadata.company, row.metadata.year]).toEqual(['gamma', 'Gamma Co 2020', 'Gamma Co', 2020]);
        expect((await store.readManifest())!.documents[0]!.metadata.company).toBe('Gamma Co');
        expect((await store.selectionData('gamma')).profile).toBe('new profile');
        expect(await errorCodeOf(store.updateMetadata('nope', { metadata: { edited: [] } }))).toBe('INPUT_NOT_FOUND');
      }),
    );

    it(
      'searches nodes across documents, filtered by document, and follows commits and removals',
      withStore(async (store) => {
        await store.initialize({ input_dir: '/in' });
        await store.commitDocument(conformanceRow('d1', 'b1'), await stage(store, 'd1', '1'), conformanceSelection('d1', [[1, 0, 0, 0], [0, 1, 0, 0]]));
        await store.commitDocument(conformanceRow('d2', 'b1'), await stage(store, 'd2', '2'), conformanceSelection('d2', [[0.9, 0.1, 0, 0]]));
        const info = await store.refreshSelectionIndex();
        expect([info.nodes, info.kind]).toEqual([3, 'flat']);
        expect((await store.refreshSelectionIndex()).refreshed).toBe(0);
        const hits = await store.searchNodes(unit([1, 0, 0, 0]), 2);
        expect(hits.map((h) => [h.doc_id, h.node_id])).toEqual([
          ['d1', 'n0'],
          ['d2', 'n0'],
        ]);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        expect((await store.searchNodes(unit([1, 0, 0, 0]), 5, new Set(['d2']))).map((h) => h.doc_id)).toEqual(['d2']);
        await store.removeDocument('d1');
        expect((await store.searchNodes(unit([1, 0, 0, 0]), 5)).map((h) => h.doc_id)).toEqual(['d2']);
      }),
    );

    it(
      'holds one writer at a time and names the holder to the second',
      withStore(async (store) => {
        const lock = await store.lock({ waitMs: 0 });
        expect(lock.owner.pid).toBe(process.pid);
        // A second lock while one is held (even from the same process) is refused, never handed out silently.
        expect(await errorCodeOf(store.lock({ waitMs: 0 }))).toBe('COLLECTION_LOCKED');
        await lock.release();
        await lock.release();
        const again = await store.lock({ waitMs: 0 });
        await again.release();
      }),
    );
  });
}
