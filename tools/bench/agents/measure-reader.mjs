#!/usr/bin/env node
// Reader measurement on the dev questions, separated from retrieval: each question's evidence pages (gold, 1-based)
// are observed whole — every paragraph, list, table and figure on them (Observer) — plus, with --distractors N, the
// N pages after them, and the offline ExtractiveReader answers. Scored with @doctree/eval's rule scorer. Prints
// accuracy overall and by gold answer format, how often the support lies on a gold page, and read latency.
// Used only to measure (never to tune rules to these questions). Needs built dist (`npm run setup`).
//
//   node tools/bench/agents/measure-reader.mjs [--data ../shared/data/eval/dev] [--work /tmp/doctree-reader-bench]
//        [--distractors 0] [--limit N] [--verbose] [--json]
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dataDir = resolve(root, option('--data', '../shared/data/eval/dev'));
const work = resolve(option('--work', '/tmp/doctree-reader-bench'));
const distractors = Number(option('--distractors', '0'));
const limit = Number(option('--limit', '100000'));
const verbose = args.includes('--verbose');
const json = args.includes('--json');
const questionsFile = join(dataDir, 'questions.jsonl');
if (!existsSync(questionsFile)) {
  console.log(`measure-reader: no questions at ${questionsFile} (pass --data DIR); nothing to measure.`);
  process.exit(0);
}
const dist = (pkg) => join(root, 'packages', pkg, 'dist', 'index.js');
for (const pkg of ['ingest', 'index', 'agents', 'eval']) {
  if (!existsSync(dist(pkg))) {
    console.error(`measure-reader: packages/${pkg}/dist missing; run \`npm run setup\` first.`);
    process.exit(2);
  }
}
const { ingestFile } = await import(dist('ingest'));
const { DocView } = await import(dist('index'));
const { Observer, ExtractiveReader } = await import(dist('agents'));
const { loadQuestions, scorePrediction } = await import(dist('eval'));

const questions = (await loadQuestions(questionsFile)).slice(0, limit);
mkdirSync(work, { recursive: true });
const trees = new Map();
async function treeOf(docFile) {
  if (trees.has(docFile)) return trees.get(docFile);
  const result = await ingestFile(join(dataDir, docFile), { outDir: work, copySource: false });
  const entry = { tree: result.tree, view: new DocView(result.tree), docDir: result.docDir };
  trees.set(docFile, entry);
  return entry;
}

const observer = new Observer();
const reader = new ExtractiveReader();
const rows = [];
const latencies = [];
for (const q of questions) {
  const index = await treeOf(q.doc_file);
  const pages = new Set();
  for (const p of q.evidence_pages) for (let d = 0; d <= distractors; d++) pages.add(p + d);
  const ids = index.tree.nodes
    .filter((n) => n.role !== 'section' && n.role !== 'document' && n.role !== 'caption' && n.bboxes.some((b) => pages.has(b.page_idx + 1)))
    .map((n) => n.node_id);
  const observations = await observer.observe(ids, index);
  const t0 = performance.now();
  const result = await reader.read({ question: q.question, observations });
  latencies.push(performance.now() - t0);
  const score = scorePrediction(q, { answer: result.answer, ranked_pages: [], error: null });
  const onGold = result.support.length === 0 ? null : result.support.some((s) => q.evidence_pages.includes(s.page));
  const format = q.answerable === false ? 'None' : (q.answer_format ?? 'open');
  rows.push({ id: q.id, format, accuracy: score.accuracy, onGold, answer: result.answer, gold: q.answer, observations: observations.length });
  if (verbose) console.log(`${score.accuracy >= 0.5 ? 'ok ' : 'BAD'} ${q.id} [${format}] gold=${JSON.stringify(q.answer)} got=${JSON.stringify(result.answer)} (${observations.length} obs)`);
}
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const byFormat = {};
for (const r of rows) (byFormat[r.format] ??= []).push(r.accuracy);
latencies.sort((a, b) => a - b);
const summary = {
  questions: rows.length,
  distractor_pages: distractors,
  accuracy: Number(mean(rows.map((r) => r.accuracy)).toFixed(3)),
  by_format: Object.fromEntries(Object.entries(byFormat).map(([f, xs]) => [f, { n: xs.length, accuracy: Number(mean(xs).toFixed(3)) }])),
  support_on_gold_page: Number(mean(rows.filter((r) => r.onGold !== null).map((r) => (r.onGold ? 1 : 0))).toFixed(3)),
  answered: rows.filter((r) => r.answer !== 'Not answerable').length,
  read_ms_p50: Number((latencies[Math.floor(latencies.length / 2)] ?? 0).toFixed(2)),
  read_ms_p95: Number((latencies[Math.floor(latencies.length * 0.95)] ?? 0).toFixed(2)),
};
if (json) console.log(JSON.stringify(summary, null, 2));
else {
  console.log(`measure-reader: ${summary.questions} questions, evidence pages${distractors ? ` + ${distractors} distractor page(s)` : ''} observed whole`);
  console.log(`  accuracy ${summary.accuracy}  answered ${summary.answered}/${summary.questions}  support on a gold page ${summary.support_on_gold_page}`);
  for (const [f, g] of Object.entries(summary.by_format)) console.log(`  ${f.padEnd(6)} n=${String(g.n).padStart(3)}  accuracy ${g.accuracy}`);
  console.log(`  read latency p50 ${summary.read_ms_p50} ms, p95 ${summary.read_ms_p95} ms`);
}
