// What the PostgreSQL store costs per document: write (one transaction: nodes, pages, embeddings, artifacts), read
// back (artifacts materialised, sha256-checked) and index load, against the index load from the local folder.
//
//   DOCTREE_STORE=postgres://… node --conditions=@doctree/source --import ./tools/scripts/typescript-loader.mjs \
//     tools/bench/scale/store-roundtrip.ts <doc_dir>...
//
// Writes into the collection `roundtrip-<pid>` of schema `doctree_bench` and removes it at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createIndexComponents } from '@doctree/pipeline';
import { loadDocIndex } from '@doctree/index';
import { resolveConfig } from '@doctree/schema';
import { bundleHash, PostgresCollectionStore, PostgresStore, readIndexBundle } from '@doctree/store-postgres';

const dirs = process.argv.slice(2);
const url = process.env['DOCTREE_STORE'];
if (!url || dirs.length === 0) {
  console.error('usage: DOCTREE_STORE=postgres://… store-roundtrip.ts <doc_dir>...');
  process.exit(2);
}
const config = resolveConfig({}).config;
const { sparse, embedder, backend } = await createIndexComponents(config);
const store = await PostgresStore.open({ url, schema: 'doctree_bench' });
const collection = `roundtrip-${process.pid}`;
const cache = mkdtempSync(join(tmpdir(), 'doctree-roundtrip-'));
const docs = new PostgresCollectionStore({ store, collection, cacheDir: cache });
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
try {
  for (const dir of dirs) {
    const docId = basename(dir);
    let t = performance.now();
    const local = await loadDocIndex(dir, { sparse, embedder, backend });
    const localMs = performance.now() - t;
    const bundle = await readIndexBundle(dir);
    const artifacts = bundle.artifacts.filter((a) => a.path === 'doctree.mm.json' || a.path.startsWith('index/'));
    const hash = bundleHash({ artifacts });
    t = performance.now();
    await store.writeDocument({ collection, doc_id: docId, content_sha256: hash, row: { doc_id: docId, build_id: hash.slice(0, 16) }, nodes: bundle.nodes, pages: bundle.pages, embeddings: bundle.embeddings, embedder_id: bundle.embedder_id, artifacts });
    const writeMs = performance.now() - t;
    t = performance.now();
    const copy = await docs.documentDir(docId);
    const readMs = performance.now() - t;
    t = performance.now();
    await loadDocIndex(copy, { sparse, embedder, backend });
    const loadMs = performance.now() - t;
    const bytes = artifacts.reduce((sum, a) => sum + a.content.byteLength, 0);
    console.log(`${docId}: ${local.tree.doc.page_count ?? '?'} pages, ${bundle.nodes.length} nodes, ${bundle.embeddings.length} embeddings, ${(bytes / 1e6).toFixed(1)} MB; write ${writeMs.toFixed(0)} ms, read back ${readMs.toFixed(0)} ms, load ${loadMs.toFixed(0)} ms (local load ${localMs.toFixed(0)} ms)`);
  }
} finally {
  for (const dir of dirs) await store.removeDocument(collection, basename(dir)).catch(() => undefined);
  await store.close();
  rmSync(cache, { recursive: true, force: true });
}
