import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocTree } from '@doctree/schema';
import { HashingEmbedder, buildDocIndex, loadDocIndex, minisearchSparseBackend } from '@doctree/index';
import type { DocIndex } from '@doctree/index';

/** Options of {@link buildFixtureIndex}. */
export interface FixtureIndexOptions {
  /** Folder to build in; default a fresh temporary folder (removed by `cleanup`). */
  dir?: string;
  /** Dimension of the hashing embedder. Default 256. */
  dimension?: number;
  /** Load the index without a query embedder (dense lanes then fail with `BACKEND_UNAVAILABLE`). Default false. */
  withoutEmbedder?: boolean;
}

/** A built and loaded fixture index. */
export interface FixtureIndex {
  index: DocIndex;
  /** The document folder (`doctree.mm.json` + `index/`). */
  dir: string;
  /** Removes the folder when it was created by {@link buildFixtureIndex}. */
  cleanup(): Promise<void>;
}

/**
 * Writes a DocTree into a document folder, builds its index offline (hashing embedder, minisearch BM25F, exact
 * vectors) and loads it: a real {@link DocIndex} for tests and examples, in well under a second for small trees.
 */
export async function buildFixtureIndex(tree: DocTree, options: FixtureIndexOptions = {}): Promise<FixtureIndex> {
  const owned = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'doctree-toolhub-')));
  const embedder = new HashingEmbedder({ dimension: options.dimension ?? 256 });
  const sparse = minisearchSparseBackend();
  await writeFile(join(dir, 'doctree.mm.json'), JSON.stringify(tree));
  await buildDocIndex(dir, { embedder, sparse, backend: 'exact' });
  const index = await loadDocIndex(dir, { sparse, backend: 'exact', ...(options.withoutEmbedder ? {} : { embedder }) });
  return {
    index,
    dir,
    cleanup: async () => {
      if (owned) await rm(dir, { recursive: true, force: true });
    },
  };
}
