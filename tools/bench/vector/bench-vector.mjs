#!/usr/bin/env node
// Vector backend micro-benchmark: build and query time of faiss flat, faiss HNSW and the pure-TS exact index on
// random unit vectors, as ratios to exact measured in the same process, plus recall@10 of HNSW against flat.
// Runs from the built package: `npx nx run index:build && node tools/bench/vector/bench-vector.mjs`
//   [--n 20000] [--dim 384] [--queries 200] [--k 10] [--seed 1] [--ef-construction 200] [--ef-search 64] [--no-hnsw]
// Note: with Debian's libfaiss 1.7.3 (generic x86-64 build, no AVX2) building the 20k HNSW index with
// efConstruction 200 takes minutes on 2 cores; flat and exact take about a second. Random vectors are a
// worst case for HNSW recall (no low-dimensional structure); real embeddings score much higher.
import { performance } from 'node:perf_hooks';

const { createVectorIndex, detectVectorBackend } = await import(new URL('../../../packages/index/dist/index.js', import.meta.url).href).catch((error) => {
  console.error(`Cannot load packages/index/dist (${error.message}); build it first: npx nx run index:build`);
  process.exit(1);
});

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('n', 20_000);
const DIM = arg('dim', 384);
const QUERIES = arg('queries', 200);
const K = arg('k', 10);
const HNSW = { efConstruction: arg('ef-construction', 200), efSearch: arg('ef-search', 64) };

let seed = arg('seed', 1) >>> 0;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const unit = () => {
  const v = new Float32Array(DIM);
  let norm = 0;
  for (let i = 0; i < DIM; i++) {
    v[i] = random() * 2 - 1;
    norm += v[i] * v[i];
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < DIM; i++) v[i] /= norm;
  return v;
};

const ids = Array.from({ length: N }, (_, i) => `v${i}`);
const vectors = Array.from({ length: N }, unit);
const queries = Array.from({ length: QUERIES }, unit);
const status = await detectVectorBackend();
console.log(`vector bench: N=${N} dim=${DIM} queries=${QUERIES} k=${K}; ${status.reason}`);

async function run(label, options) {
  const index = await createVectorIndex({ dimension: DIM, embedderId: 'bench', ...options });
  let t = performance.now();
  index.add(ids, vectors);
  const build = performance.now() - t;
  index.search(queries[0], { k: K }); // warm-up
  t = performance.now();
  const results = queries.map((q) => index.search(q, { k: K }).map((hit) => hit.id));
  const query = (performance.now() - t) / QUERIES;
  return { label, build, query, results, parameters: index.hnswParameters };
}

const rows = [await run('exact', { backend: 'exact' })];
if (status.faiss.available) {
  rows.push(await run('faiss flat', { backend: 'faiss', kind: 'flat' }));
  if (!process.argv.includes('--no-hnsw')) {
    console.log(`building faiss hnsw (efConstruction ${HNSW.efConstruction}); this can take minutes with a generic faiss build...`);
    rows.push(await run('faiss hnsw', { backend: 'faiss', kind: 'hnsw', hnsw: HNSW }));
  }
} else {
  console.log('faiss-node is not available: only the exact index is measured (run npm run setup).');
}

const recall = (results, truth) => {
  let found = 0;
  results.forEach((hits, q) => {
    const expected = new Set(truth[q]);
    for (const id of hits) if (expected.has(id)) found++;
  });
  return found / (truth.length * K);
};

const exact = rows[0];
const pad = (value, width) => String(value).padStart(width);
console.log(`${'backend'.padEnd(12)}${pad('build ms', 10)}${pad('x exact', 9)}${pad('query ms', 10)}${pad('x exact', 9)}${pad('recall@10', 11)}`);
for (const row of rows) {
  const truth = (rows.find((r) => r.label === 'faiss flat') ?? exact).results;
  console.log(
    `${row.label.padEnd(12)}${pad(row.build.toFixed(0), 10)}${pad((row.build / exact.build).toFixed(2), 9)}` +
      `${pad(row.query.toFixed(3), 10)}${pad((row.query / exact.query).toFixed(2), 9)}${pad(recall(row.results, truth).toFixed(3), 11)}`,
  );
}
const hnsw = rows.find((r) => r.label === 'faiss hnsw');
if (hnsw !== undefined) {
  console.log(`recall@${K} of hnsw vs faiss flat: ${recall(hnsw.results, rows[1].results).toFixed(3)} (M=${hnsw.parameters?.m}, efConstruction=${hnsw.parameters?.efConstruction}, efSearch=${hnsw.parameters?.efSearch})`);
  console.log(`flat vs exact agreement@${K}: ${recall(rows[1].results, exact.results).toFixed(3)}`);
}
