#!/usr/bin/env node
// ToolHub benchmark: per question, one retrieval stage (bm25_node + dense + table_index + chart_index + page_locator
// lanes → RRF + feature rerank → structure expansion → MMR pack), warm, on the bundled sample PDF and the dev PDFs.
// Prints p50 / p95 of the stage and its parts, and the ratio of the stage to a reference run in the same process:
// the bare index searches the lanes are built on (sparse coarse + leaf search, query embedding, one vector scan), so
// the ratio is the ToolHub's own overhead. With the dev set it also reports how often an evidence page is among the
// top-10 ranked hits and among the packed evidence pages (measured only; nothing is tuned on these questions).
//
//   npx nx run-many -t build -p ingest index toolhub && node tools/bench/toolhub/bench-toolhub.mjs
//     [--data ../shared/data/eval/dev] [--work /tmp/doctree-bench-index] [--limit N] [--sample-only] [--json]
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { flag, importDist, ingestCached, option, root, workDir } from '../index/bench-common.mjs';

const ingest = await importDist('ingest');
const indexLib = await importDist('index');
const toolhub = await importDist('toolhub');
const asJson = flag('json');
const log = asJson ? (...a) => console.error(...a) : (...a) => console.log(...a);
const limit = Number(option('limit', '1000'));
const dataDir = join(root, option('data', '../shared/data/eval/dev'));
const outDir = join(workDir(), 'docs');
const embedder = new indexLib.HashingEmbedder({ dimension: 512 });
const sparse = indexLib.minisearchSparseBackend();
const METHODS = ['bm25_node.search', 'dense.search', 'table_index.search', 'chart_index.search', 'page_locator.locate'];
const SAMPLE_QUESTIONS = [
  'What was the revenue of the Laboratory Systems segment in 2023?',
  'What does Figure 1 show?',
  'What is on page 3?',
  'How many people did the company employ?',
  'What is the first sub-section of the Financial Review?',
  'What are the main risk factors?',
];

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const time = async (fn) => {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
};

// documents and their questions
const docs = [{ pdf: join(root, 'data/samples/northwind-annual-report-2023.pdf'), questions: SAMPLE_QUESTIONS.map((question) => ({ question })) }];
if (!flag('sample-only') && existsSync(join(dataDir, 'questions.jsonl'))) {
  const byDoc = new Map();
  for (const line of readFileSync(join(dataDir, 'questions.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const q = JSON.parse(line);
    if (!byDoc.has(q.doc_file)) byDoc.set(q.doc_file, []);
    byDoc.get(q.doc_file).push({ question: q.question, evidence: q.answerable === false ? [] : q.evidence_pages ?? [] });
  }
  for (const [docFile, questions] of [...byDoc].sort().slice(0, limit)) docs.push({ pdf: join(dataDir, docFile), questions });
} else if (!flag('sample-only')) log(`No dev set at ${dataDir}; measuring the sample PDF only.`);

const rows = { stage: [], lanes: [], fuse: [], expand: [], pack: [], reference: [] };
let evidenceQuestions = 0;
let top10Hits = 0;
let packHits = 0;
for (const { pdf, questions } of docs) {
  const { docDir } = await ingestCached(ingest, pdf, outDir);
  await indexLib.buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
  const index = await indexLib.loadDocIndex(docDir, { sparse, embedder, backend: 'exact' });
  const hub = toolhub.ToolHub.create({ index });
  const stage = { stage: 'primary', methods: METHODS, k_pages: 8, k_nodes: 50, page_window: 1 };
  // warm-up: navigator caches, JIT
  await hub.runStage(stage, questions[0].question);
  for (const { question, evidence } of questions) {
    const [referenceMs] = await time(async () => {
      index.sparseCoarse.search(question, { k: 160 });
      index.sparseLeaf.search(question, { k: 160 });
      const vector = await embedder.embedQuery(question);
      index.vectors.leaf.search(vector, { k: 210 });
    });
    const [lanesMs, results] = await time(() => hub.runLanes(METHODS.map((tool_id) => ({ tool_id, args: { query: question, k: 50 } }))));
    const [fuseMs, ranked] = await time(() => hub.fuse(results, { query: question }, { diversifyBy: 'section' }));
    const cut = toolhub.cutToPages(ranked, 8, 50);
    const [expandMs, candidates] = await time(() => hub.expand(cut));
    const [packMs, pack] = await time(() => hub.pack(candidates));
    const [stageMs, result] = await time(() => hub.runStage(stage, question, { plan: { rerank: { diversify_by: 'section' } } }));
    rows.stage.push(stageMs);
    rows.lanes.push(lanesMs);
    rows.fuse.push(fuseMs);
    rows.expand.push(expandMs);
    rows.pack.push(packMs);
    rows.reference.push(referenceMs);
    void pack;
    if (evidence && evidence.length > 0) {
      evidenceQuestions++;
      const wanted = new Set(evidence);
      if (result.ranked.slice(0, 10).some((h) => wanted.has(h.page_idx + 1))) top10Hits++;
      if (result.pack.items.some((i) => wanted.has(i.page))) packHits++;
    }
  }
  log(`${pdf.split('/').pop()}: ${index.tree.doc.page_count} pages, ${index.tree.nodes.length} nodes, ${questions.length} questions`);
}

const summary = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, { p50: quantile(v, 0.5), p95: quantile(v, 0.95) }]));
const ratio = summary.stage.p50 / summary.reference.p50;
const report = {
  questions: rows.stage.length,
  ms: summary,
  stage_over_reference_p50: ratio,
  evidence_questions: evidenceQuestions,
  evidence_page_in_top10: evidenceQuestions ? top10Hits / evidenceQuestions : null,
  evidence_page_in_pack: evidenceQuestions ? packHits / evidenceQuestions : null,
};
if (asJson) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`\n${report.questions} questions (warm, one process)`);
  for (const [k, v] of Object.entries(summary)) console.log(`  ${k.padEnd(10)} p50 ${v.p50.toFixed(1).padStart(7)} ms   p95 ${v.p95.toFixed(1).padStart(7)} ms`);
  console.log(`  stage / reference (bare index searches) at p50: ${ratio.toFixed(2)}x`);
  if (evidenceQuestions) {
    console.log(`  evidence page in top-10 ranked hits: ${(100 * report.evidence_page_in_top10).toFixed(1)}% of ${evidenceQuestions} answerable questions`);
    console.log(`  evidence page in the packed evidence: ${(100 * report.evidence_page_in_pack).toFixed(1)}%`);
  }
}
