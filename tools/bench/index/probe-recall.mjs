#!/usr/bin/env node
// Retrieval probe on the dev questions: question -> top-10 hits of the coarse and leaf views -> pages (1-based) ->
// evidence-page recall@5 / @10 and MRR, per embedder, for sparse-only (BM25F), dense-only and fused (RRF) retrieval,
// plus each single lane. Also prints each embedder's index build time (embed step and whole build) per page.
// Nothing is tuned here: the numbers are the starting point of the retrieval issue.
//
//   npx nx run-many -t build -p ingest index && node tools/bench/index/probe-recall.mjs
//     [--data ../shared/data/eval/dev] [--work /tmp/doctree-bench-index] [--embedders hashing,sif] [--k 10]
//     [--rebuild] [--json]
// Ingest is shared with bench-index.mjs (cached by PDF sha256 under <work>/docs); each embedder has its own indexes
// under <work>/<embedder>/ (rebuilt only when stale, or with --rebuild).
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devSet, embedderByName, flag, importDist, ingestCached, option, workDir } from './bench-common.mjs';

const { dataDir, pdfDir } = devSet();
const ingest = await importDist('ingest');
const index = await importDist('index');
const asJson = flag('json');
const log = asJson ? (...a) => console.error(...a) : (...a) => console.log(...a);
const K = Number(option('k', '10'));
const embedderNames = option('embedders', 'hashing,sif').split(',').filter(Boolean);
const RRF_K = 60;

const questions = readFileSync(join(dataDir, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))
  .filter((q) => q.answerable && Array.isArray(q.evidence_pages) && q.evidence_pages.length > 0);
const docFiles = [...new Set(questions.map((q) => q.doc_file))].sort();
log(`probe: ${questions.length} answerable questions with evidence pages over ${docFiles.length} documents; top-${K} per lane, RRF k=${RRF_K}`);

// ---- ingest once (shared cache) ---------------------------------------------------------------------------------
const docsDir = join(workDir(), 'docs');
const ingested = new Map();
for (const docFile of docFiles) {
  const pdf = join(dataDir, docFile);
  if (!existsSync(pdf)) throw new Error(`missing ${pdf}`);
  ingested.set(docFile, await ingestCached(ingest, pdf, docsDir));
}
void pdfDir;

// ---- metrics ------------------------------------------------------------------------------------------------------
/** Pages (1-based) of a ranked list of hit ids, in order of first appearance. */
function pagesOf(loaded, ids) {
  const pages = [];
  for (const id of ids) {
    const node = loaded.view.node(id.split('#')[0]);
    if (!node) continue;
    const page = node.page_span[0] + 1;
    if (!pages.includes(page)) pages.push(page);
  }
  return pages;
}

/** Reciprocal rank fusion of ranked id lists. */
function rrf(lists) {
  const scores = new Map();
  for (const list of lists) list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

function score(rows) {
  const out = { 'r@5': 0, 'r@10': 0, mrr: 0 };
  for (const { pages, evidence } of rows) {
    const set = new Set(evidence);
    out['r@5'] += pages.slice(0, 5).filter((p) => set.has(p)).length / set.size;
    out['r@10'] += pages.slice(0, 10).filter((p) => set.has(p)).length / set.size;
    const first = pages.findIndex((p) => set.has(p));
    out.mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  for (const key of Object.keys(out)) out[key] /= rows.length;
  return out;
}

function randomBaseline(loadedByDoc) {
  const out = { 'r@5': 0, 'r@10': 0 };
  for (const q of questions) {
    const n = loadedByDoc.get(q.doc_file).tree.doc.page_count;
    out['r@5'] += Math.min(5, n) / n;
    out['r@10'] += Math.min(10, n) / n;
  }
  return { 'r@5': out['r@5'] / questions.length, 'r@10': out['r@10'] / questions.length };
}

// ---- per embedder -------------------------------------------------------------------------------------------------
const sparse = index.minisearchSparseBackend();
const rows = [];
const builds = [];
let baseline;
for (const name of embedderNames) {
  const embedder = await embedderByName(index, name);
  const loadedByDoc = new Map();
  let pages = 0;
  const buildMs = { embed: 0, total: 0 };
  for (const docFile of docFiles) {
    const source = ingested.get(docFile).docDir;
    const docDir = join(workDir(), name, source.split('/').pop());
    mkdirSync(docDir, { recursive: true });
    copyFileSync(join(source, 'doctree.mm.json'), join(docDir, 'doctree.mm.json'));
    const built = await index.buildDocIndex(docDir, { embedder, sparse, force: flag('rebuild') });
    const timings = built.manifest.timings_ms;
    buildMs.embed += timings.embed ?? 0;
    buildMs.total += Object.values(timings).reduce((a, b) => a + b, 0);
    const loaded = await index.loadDocIndex(docDir, { sparse, embedder, validation: 'fast' });
    pages += loaded.tree.doc.page_count;
    loadedByDoc.set(docFile, loaded);
  }
  builds.push({ embedder: name, id: embedder.id, pages, embed_ms_per_page: buildMs.embed / pages, build_ms_per_page: buildMs.total / pages });
  baseline ??= randomBaseline(loadedByDoc);

  const lanes = { dense_coarse: [], dense_leaf: [], dense_leaf_raw: [], sparse_coarse: [], sparse_leaf: [], sparse: [], dense: [], fused: [] };
  for (const q of questions) {
    const loaded = loadedByDoc.get(q.doc_file);
    const vector = await embedder.embedQuery(q.question);
    const ids = {
      dense_coarse: loaded.vectors.coarse.search(vector, { k: K }).map((h) => h.id),
      dense_leaf: loaded.vectors.leaf.search(vector, { k: K }).map((h) => h.id),
      dense_leaf_raw: loaded.vectors.leaf_raw.search(vector, { k: K }).map((h) => h.id),
      sparse_coarse: loaded.sparseCoarse.search(q.question, { k: K }).map((h) => h.id),
      sparse_leaf: loaded.sparseLeaf.search(q.question, { k: K }).map((h) => h.id),
    };
    ids.sparse = rrf([ids.sparse_coarse, ids.sparse_leaf]);
    ids.dense = rrf([ids.dense_coarse, ids.dense_leaf]);
    ids.fused = rrf([ids.dense_coarse, ids.dense_leaf, ids.sparse_coarse, ids.sparse_leaf]);
    for (const [lane, list] of Object.entries(ids)) lanes[lane].push({ pages: pagesOf(loaded, list), evidence: q.evidence_pages });
  }
  for (const [lane, list] of Object.entries(lanes)) {
    if (lane.startsWith('sparse') && rows.some((r) => r.lane === lane)) continue; // sparse lanes do not depend on the embedder
    const perQuestion = list.map(({ pages, evidence }) => pages.slice(0, 10).filter((p) => evidence.includes(p)).length / new Set(evidence).size);
    rows.push({ lane, embedder: lane.startsWith('sparse') ? '-' : name, ...score(list), perQuestion });
  }
  log(`  ${name}: ${embedder.id}, ${pages} pages`);
}

// Paired comparison with the first embedder: questions whose R@10 is higher / lower (noise check for 83 questions).
for (const row of rows) {
  const first = rows.find((r) => r.lane === row.lane && r.embedder === embedderNames[0]);
  if (!first || first === row || row.embedder === '-') continue;
  const diffs = row.perQuestion.map((v, i) => v - first.perQuestion[i]);
  row.vs_first = { better: diffs.filter((d) => d > 1e-9).length, worse: diffs.filter((d) => d < -1e-9).length };
}
for (const row of rows) delete row.perQuestion;

if (asJson) {
  console.log(JSON.stringify({ questions: questions.length, documents: docFiles.length, k: K, rrf_k: RRF_K, rows, builds, random: baseline }, null, 2));
} else {
  const pad = (s, n) => String(s).padStart(n);
  const order = ['sparse', 'dense', 'fused', 'sparse_coarse', 'sparse_leaf', 'dense_coarse', 'dense_leaf', 'dense_leaf_raw'];
  const label = { sparse: 'sparse-only (coarse+leaf RRF)', dense: 'dense-only (coarse+leaf RRF)', fused: 'fused (4 lanes RRF)' };
  console.log(`\n${'lane'.padEnd(32)}${'embedder'.padEnd(15)}${pad('R@5', 7)}${pad('R@10', 7)}${pad('MRR', 7)}  R@10 vs ${embedderNames[0]} (+/-)`);
  for (const lane of order) {
    if (lane === 'sparse_coarse') console.log('single lanes:');
    for (const row of rows.filter((r) => r.lane === lane)) {
      const paired = row.vs_first ? `  ${row.vs_first.better}/${row.vs_first.worse}` : '';
      console.log(`${(label[lane] ?? `  ${lane}`).padEnd(32)}${row.embedder.padEnd(15)}${pad(row['r@5'].toFixed(3), 7)}${pad(row['r@10'].toFixed(3), 7)}${pad(row.mrr.toFixed(3), 7)}${paired}`);
    }
  }
  console.log(`${'random pages (expected)'.padEnd(47)}${pad(baseline['r@5'].toFixed(3), 7)}${pad(baseline['r@10'].toFixed(3), 7)}`);
  console.log(`\n${'embedder'.padEnd(12)}${pad('embed ms/page', 15)}${pad('build ms/page', 15)}  id`);
  for (const b of builds) console.log(`${b.embedder.padEnd(12)}${pad(b.embed_ms_per_page.toFixed(2), 15)}${pad(b.build_ms_per_page.toFixed(2), 15)}  ${b.id}`);
  console.log(`\nR@k: share of a question's evidence pages among the first k distinct pages of the ranked hits (page = first page of the hit's node).`);
}
