#!/usr/bin/env node
// Fits the page ranker of @doctree/toolhub (a linear model over PAGE_FEATURES) on questions with evidence pages, with
// cross-validation grouped by document (no document in both a training and a test fold), and reports cross-validated
// recall@1/5/10 and MRR beside BM25 over pages measured in the same run, overall, per split, per benchmark and per
// evidence source.
//
//   npx nx run-many -t build -p pipeline
//   node tools/fit/fit-page-ranker.mjs [--questions a.jsonl,b.jsonl] [--docs DIR] [--folds 5] [--seed 1]
//        [--features FILE] [--recollect] [--out model.json] [--write-default] [--limit N] [--l2 0.003,0.03,0.3,1]
//        [--router rules|single-template]
//
// Defaults: ../shared/data/eval/dev and ../shared/data/eval/wide questions, documents prepared into data/eval-docs
// (shared with `doctree eval --docs data/eval-docs`), per-question features cached in data/fit/page-features.jsonl
// (collected with the offline agent; --recollect refreshes them), the fitted model printed and written to --out
// (default data/fit/page-ranker.json). --write-default also writes packages/toolhub/src/pages/page-ranker-model.ts,
// the default model every DocTreeAgent uses. Your own questions work the same (questions.jsonl with doc_file relative
// to the file's folder and 1-based evidence_pages).
import { resolve } from 'node:path';
import { benchmarkOf, chooseByInnerCv, fittedRecord, flag, nestedCrossValidation, round4, importDist, option, pct, questionFiles, readJsonl, readQuestions, rel, root, writeDefaultModel, writeJson, writeJsonl } from './fit-common.mjs';

const toolhub = await importDist('toolhub');
const FEATURES = toolhub.PAGE_FEATURES;

const docsDir = resolve(root, option('docs', 'data/eval-docs'));
const featuresFile = resolve(root, option('features', 'data/fit/page-features.jsonl'));
const outFile = resolve(root, option('out', 'data/fit/page-ranker.json'));
const folds = Number(option('folds', '5'));
const seed = Number(option('seed', '1'));
const limit = Number(option('limit', '0'));
const agentRouter = option('router', 'rules');
if (!['rules', 'single-template'].includes(agentRouter)) {
  console.error('--router takes rules or single-template');
  process.exit(2);
}
const lambdas = option('l2', '0.003,0.03,0.3,1').split(',').map(Number);
const l2 = lambdas[0];

/** Runs the offline agent and BM25 over pages on every question with evidence pages; one JSON line per question. */
async function collect(questions) {
  const pipeline = await importDist('pipeline');
  const schema = await importDist('schema');
  const rag = await importDist('rag-baseline');
  const agents = await importDist('agents');
  const { config } = schema.resolveConfig({ overrides: { llm: { provider: 'none' } } });
  const documents = new pipeline.EvalDocuments({ config, outDir: docsDir, chat: null, onProgress: (p) => process.stderr.write(`  ${p.message ?? ''}\r`) });
  const existing = new Map((await readJsonl(featuresFile)).map((r) => [r.id, r]));
  const rows = [];
  const agentsByDoc = new Map();
  const bm25ByDoc = new Map();
  let done = 0;
  const started = Date.now();
  for (const q of questions) {
    done++;
    if (!flag('recollect') && existing.has(q.id)) {
      rows.push(existing.get(q.id));
      continue;
    }
    const prepared = await documents.prepare(q.pdf);
    let agent = agentsByDoc.get(q.pdf);
    if (!agent || agent.index !== prepared.index) {
      agent = new agents.DocTreeAgent({ index: prepared.index, router: agentRouter, maxReplans: config.agent.max_replans, ctxTokens: config.agent.ctx_tokens });
      agentsByDoc.set(q.pdf, agent);
      bm25ByDoc.set(q.pdf, new rag.PageBm25Retriever(prepared.index.tree, { pages: 50 }));
    }
    agent.memory.clear?.();
    const run = await agent.ask(q.question);
    const bm25 = (await bm25ByDoc.get(q.pdf).rankPages(q.question, { k: 50 })).map((p) => p.page);
    rows.push({
      id: q.id,
      split: q.split,
      doc: q.doc_file,
      benchmark: benchmarkOf(q.id),
      sources: q.evidence_sources ?? (benchmarkOf(q.id) === 'FinanceBench' ? ['financial-statement'] : ['unknown']),
      gold: q.evidence_pages ?? [],
      query_type: run.decision.query_type,
      bm25,
      candidates: run.pageRanking.map((p) => [p.page, FEATURES.map((f) => Math.round(p.features[f] * 1e5) / 1e5)]),
    });
    if (done % 10 === 0) process.stderr.write(`[fit] ${done}/${questions.length} questions (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  writeJsonl(featuresFile, rows);
  return rows;
}

// ---- listwise softmax ranker (ListNet with the gold pages as the target distribution), L2, Adam --------------

/** Rows as dense matrices (candidates × features) with gold flags, for fast fitting. */
function prepared(rows) {
  return rows
    .filter((r) => r.candidates.some(([p]) => r.gold.includes(p)))
    .map((r) => {
      const n = r.candidates.length;
      const x = new Float64Array(n * FEATURES.length);
      const gold = new Uint8Array(n);
      r.candidates.forEach(([p, f], i) => {
        x.set(f, i * FEATURES.length);
        gold[i] = r.gold.includes(p) ? 1 : 0;
      });
      return { n, x, gold, golds: gold.reduce((a, b) => a + b, 0) };
    });
}

function fit(rows, { epochs = 300, rate = 0.05, lambda = l2 } = {}) {
  const d = FEATURES.length;
  const w = new Float64Array(d);
  const m = new Float64Array(d);
  const v = new Float64Array(d);
  const data = prepared(rows);
  const scores = new Float64Array(4096);
  for (let t = 1; t <= epochs; t++) {
    const g = new Float64Array(d);
    for (const r of data) {
      let max = -Infinity;
      for (let i = 0; i < r.n; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += r.x[i * d + j] * w[j];
        scores[i] = s;
        if (s > max) max = s;
      }
      let z = 0;
      for (let i = 0; i < r.n; i++) z += (scores[i] = Math.exp(scores[i] - max));
      for (let i = 0; i < r.n; i++) {
        const coef = scores[i] / z - (r.gold[i] ? 1 / r.golds : 0);
        if (coef === 0) continue;
        for (let j = 0; j < d; j++) g[j] += coef * r.x[i * d + j];
      }
    }
    for (let j = 0; j < d; j++) {
      const grad = g[j] / data.length + lambda * w[j];
      m[j] = 0.9 * m[j] + 0.1 * grad;
      v[j] = 0.999 * v[j] + 0.001 * grad * grad;
      const mh = m[j] / (1 - 0.9 ** t);
      const vh = v[j] / (1 - 0.999 ** t);
      w[j] -= (rate * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  return Object.fromEntries(FEATURES.map((f, i) => [f, round4(w[i])]));
}

/** Recall@k of one ranking. */
const recallAt = (ranking, gold, k) => gold.filter((p) => ranking.slice(0, k).includes(p)).length / gold.length;

/** How the nested CV fits and judges a model: by recall@5 (as a loss, negated) of the rows it did not see. */
const cvOptions = { folds, seed, fit: (train, lambda) => fit(train, { lambda }), rowLoss: (weights, r) => -recallAt(rankWith(weights, r), r.gold, 5) };

function rankWith(weights, row) {
  const w = FEATURES.map((f) => weights[f] ?? 0);
  return row.candidates
    .map(([p, x]) => [p, x.reduce((s, xi, i) => s + xi * w[i], 0)])
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([p]) => p);
}

function metrics(pairs) {
  // pairs: [{ ranking, gold }]
  const n = pairs.length;
  if (n === 0) return { n: 0 };
  const recall = (k) => pairs.reduce((s, { ranking, gold }) => s + recallAt(ranking, gold, k), 0) / n;
  const mrr = pairs.reduce((s, { ranking, gold }) => {
    const i = ranking.findIndex((p) => gold.includes(p));
    return s + (i >= 0 ? 1 / (i + 1) : 0);
  }, 0) / n;
  return { n, r1: recall(1), r5: recall(5), r10: recall(10), mrr };
}


function table(title, groups) {
  console.log(`\n${title}`);
  console.log('| group | n | ranker R@1 | R@5 | R@10 | MRR | BM25 pages R@1 | R@5 | R@10 | MRR | Δ R@5 |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, sel] of groups) {
    const a = metrics(sel.map((r) => ({ ranking: r.cv, gold: r.gold })));
    const b = metrics(sel.map((r) => ({ ranking: r.bm25, gold: r.gold })));
    if (!a.n) continue;
    console.log(`| ${name} | ${a.n} | ${pct(a.r1)} | ${pct(a.r5)} | ${pct(a.r10)} | ${a.mrr.toFixed(3)} | ${pct(b.r1)} | ${pct(b.r5)} | ${pct(b.r10)} | ${b.mrr.toFixed(3)} | ${((a.r5 - b.r5) * 100).toFixed(1)} pp |`);
  }
}

const questions = readQuestions();
console.log(`[fit] ${questions.length} questions from ${questionFiles().map(rel).join(', ')}`);
const all = await collect(questions);
const rows = all.filter((r) => r.gold.length > 0);
console.log(`[fit] ${rows.length} questions with evidence pages over ${new Set(rows.map((r) => `${r.split}/${r.doc}`)).size} documents; ${folds}-fold CV grouped by document`);

const { models: foldWeights, chosen: foldLambdas } = nestedCrossValidation(rows, lambdas, {
  ...cvOptions,
  predict: (weights, r) => (r.cv = rankWith(weights, r)),
  onFold: (k, lambda) => process.stderr.write(`[fit] fold ${k + 1}/${folds}: l2 ${lambda}\n`),
});
const unfitted = toolhub.DEFAULT_PAGE_RANKER_MODEL.weights;
for (const r of rows) r.prior = rankWith(unfitted, r);

const bySplit = [...new Set(rows.map((r) => r.split))].map((s) => [s, rows.filter((r) => r.split === s)]);
const byBench = [...new Set(rows.map((r) => r.benchmark))].map((b) => [b, rows.filter((r) => r.benchmark === b)]);
const bySource = [...new Set(rows.flatMap((r) => r.sources))].sort().map((s) => [s, rows.filter((r) => r.sources.includes(s))]);
table('Cross-validated page ranking vs BM25 over pages (same run):', [['all', rows], ...bySplit]);
table('By benchmark:', byBench);
table('By evidence source (a question counts in each of its sources):', bySource);
const cur = metrics(rows.map((r) => ({ ranking: r.prior, gold: r.gold })));
console.log(`\nCurrent default model (in-sample for a fitted one): R@5 ${pct(cur.r5)}, MRR ${cur.mrr.toFixed(3)}`);

const finalLambda = chooseByInnerCv(rows, lambdas, cvOptions);
const final = fit(rows, { lambda: finalLambda });
const cvAll = metrics(rows.map((r) => ({ ranking: r.cv, gold: r.gold })));
const bmAll = metrics(rows.map((r) => ({ ranking: r.bm25, gold: r.gold })));
const model = {
  format: 'doctree.page-ranker',
  version: 1,
  weights: final,
  fitted: fittedRecord('tools/fit/fit-page-ranker.mjs', rows, { folds, seed }, {
    router: agentRouter,
    l2: finalLambda,
    l2_grid: lambdas,
    l2_per_fold: foldLambdas,
    cv: { r1: round4(cvAll.r1), r5: round4(cvAll.r5), r10: round4(cvAll.r10), mrr: round4(cvAll.mrr) },
    bm25_pages: { r1: round4(bmAll.r1), r5: round4(bmAll.r5), r10: round4(bmAll.r10), mrr: round4(bmAll.mrr) },
  }),
};
console.log('\nWeights (all questions):');
for (const f of FEATURES) console.log(`  ${f.padEnd(22)} ${final[f].toFixed(3)}   folds ${foldWeights.map((w) => w[f].toFixed(2)).join(' ')}`);
writeJson(outFile, model);
console.log(`\nModel: ${rel(outFile)}`);
if (flag('write-default')) {
  writeDefaultModel('packages/toolhub/src/pages/page-ranker-model.ts', {
    importLine: "import type { PageRankerModel } from './page-ranker-schema.js';",
    doc: [
      "The page ranker's default model. Written by `node tools/fit/fit-page-ranker.mjs --write-default` (do not edit by",
      'hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.',
    ],
    name: 'DEFAULT_PAGE_RANKER_MODEL',
    type: 'PageRankerModel',
    model,
  });
}
