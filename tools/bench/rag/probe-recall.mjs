#!/usr/bin/env node
// Evidence-page recall of the RAG baseline on the dev set: for every answerable question with evidence pages, rank the
// pages of its document with (1) RAG dense (top children by cosine, aggregated by page), (2) RAG hybrid (dense + BM25
// over the chunks, RRF) and (3) BM25 over pages (one BM25 document per page), and print recall@1/3/5/10, hit@5 and
// MRR per ranker. The dev PDFs are ingested into a scratch folder outside the repository (cached by sha256).
// Nothing here is tuned on these questions; it only measures.
//
//   npx nx run-many -t build -p ingest index rag-baseline && node tools/bench/rag/probe-recall.mjs
//     [--data ../shared/data/eval/dev] [--work /tmp/doctree-bench-rag] [--embedder hashing|hashing-d<N>|sif]
//     [--backend auto|faiss|exact] [--aggregation max|sum] [--limit N] [--json]
// Prints a message and exits 0 when the dev set is absent.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const asJson = args.includes('--json');
const log = asJson ? (...a) => console.error(...a) : (...a) => console.log(...a);

const dataDir = resolve(root, option('data', '../shared/data/eval/dev'));
if (!existsSync(join(dataDir, 'questions.jsonl'))) {
  log(`No dev set at ${dataDir} (expected questions.jsonl and pdfs/); nothing to measure.`);
  process.exit(0);
}
const workDir = resolve(option('work', '/tmp/doctree-bench-rag'));
if (workDir.startsWith(root + '/') || workDir === root) {
  console.error(`--work must be outside the repository (${root})`);
  process.exit(2);
}

async function importDist(name) {
  const file = join(root, 'packages', name, 'dist', 'index.js');
  try {
    return await import(new URL(`file://${file}`).href);
  } catch (error) {
    console.error(`Cannot load packages/${name}/dist (${error.message}); build first: npx nx run-many -t build -p ingest index rag-baseline`);
    process.exit(1);
  }
}
const ingest = await importDist('ingest');
const index = await importDist('index');
const rag = await importDist('rag-baseline');

const embedderName = option('embedder', 'hashing');
async function makeEmbedder(name) {
  if (name === 'hashing') return new index.HashingEmbedder({ dimension: 512 });
  const match = /^hashing-d(\d+)$/.exec(name);
  if (match) return new index.HashingEmbedder({ dimension: Number(match[1]) });
  if (name === 'sif') {
    const sif = new index.SifEmbedder();
    await sif.initialize();
    return sif;
  }
  console.error(`unknown embedder ${name} (hashing, hashing-d<N>, sif)`);
  process.exit(2);
}
const embedder = await makeEmbedder(embedderName);
const backend = option('backend', 'auto');
const aggregation = option('aggregation', 'max');
const limit = Number(option('limit', '100000'));
const KS = [1, 3, 5, 10];

const questions = readFileSync(join(dataDir, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .filter((q) => q.answerable !== false && Array.isArray(q.evidence_pages) && q.evidence_pages.length > 0)
  .slice(0, limit);

/** Ingests a PDF into `<work>/docs/<doc_id>/` unless the tree of these exact bytes is already there. */
async function ingestCached(pdf) {
  const bytes = readFileSync(pdf);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const outDir = join(workDir, 'docs');
  const docDir = join(outDir, ingest.docIdFromFilename(pdf.split('/').pop()));
  const treePath = join(docDir, 'doctree.mm.json');
  if (existsSync(treePath)) {
    try {
      if (JSON.parse(readFileSync(treePath, 'utf8')).doc?.source?.sha256 === sha) return { docDir, ingestMs: 0 };
    } catch {
      // ingest again
    }
  }
  const t = performance.now();
  const result = await ingest.ingestFile(pdf, { outDir, copySource: false });
  return { docDir: result.docDir, ingestMs: performance.now() - t };
}

const systems = new Map(); // doc_file -> { dense, hybrid, bm25 }
const totals = { ingestMs: 0, buildMs: 0, chunks: 0, pages: 0 };
async function rankersFor(docFile) {
  if (systems.has(docFile)) return systems.get(docFile);
  const { docDir, ingestMs } = await ingestCached(join(dataDir, docFile));
  totals.ingestMs += ingestMs;
  const t = performance.now();
  const built = await rag.buildRagIndex(docDir, { embedder, backend });
  totals.buildMs += performance.now() - t;
  totals.chunks += built.manifest.counts.chunks;
  totals.pages += built.manifest.counts.parents;
  const loaded = await rag.loadRagIndex(docDir, { embedder, backend });
  const entry = {
    'rag-dense': new rag.RagRetriever(loaded, { embedder, pageAggregation: aggregation }),
    'rag-hybrid': new rag.RagRetriever(loaded, { embedder, hybrid: true, pageAggregation: aggregation }),
    'bm25-pages': await rag.PageBm25Retriever.fromDocDir(docDir),
  };
  systems.set(docFile, entry);
  log(`  ${docFile}: ${built.manifest.counts.parents} pages, ${built.manifest.counts.chunks} chunks${built.rebuilt ? '' : ' (index up to date)'}`);
  return entry;
}

const names = ['rag-dense', 'rag-hybrid', 'bm25-pages'];
const sums = Object.fromEntries(names.map((n) => [n, { recall: Object.fromEntries(KS.map((k) => [k, 0])), hit5: 0, mrr: 0, ms: 0 }]));
log(`RAG recall probe: ${questions.length} answerable questions, embedder ${embedder.id}, backend ${backend}, aggregation ${aggregation}, work ${workDir}`);
for (const q of questions) {
  const rankers = await rankersFor(q.doc_file);
  const evidence = new Set(q.evidence_pages);
  for (const name of names) {
    const t = performance.now();
    const ranked = (await rankers[name].rankPages(q.question, { k: 10 })).map((p) => p.page);
    sums[name].ms += performance.now() - t;
    for (const k of KS) sums[name].recall[k] += ranked.slice(0, k).filter((p) => evidence.has(p)).length / evidence.size;
    if (ranked.slice(0, 5).some((p) => evidence.has(p))) sums[name].hit5 += 1;
    const first = ranked.findIndex((p) => evidence.has(p));
    sums[name].mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
}

const n = questions.length;
const rows = names.map((name) => ({
  system: name,
  ...Object.fromEntries(KS.map((k) => [`recall@${k}`, sums[name].recall[k] / n])),
  'hit@5': sums[name].hit5 / n,
  mrr: sums[name].mrr / n,
  ms_per_question: sums[name].ms / n,
}));
if (asJson) {
  console.log(JSON.stringify({ questions: n, embedder: embedder.id, backend, aggregation, totals, rows }, null, 2));
} else {
  const fmt = (v) => v.toFixed(3);
  log(`\n${n} questions, ${systems.size} documents, ${totals.pages} pages, ${totals.chunks} chunks; RAG index build ${(totals.buildMs / 1000).toFixed(1)} s`);
  log(['system', ...KS.map((k) => `R@${k}`), 'hit@5', 'MRR', 'ms/q'].map((h) => h.padEnd(11)).join(''));
  for (const row of rows) {
    log([row.system, ...KS.map((k) => fmt(row[`recall@${k}`])), fmt(row['hit@5']), fmt(row.mrr), row.ms_per_question.toFixed(1)].map((c) => String(c).padEnd(11)).join(''));
  }
}
