#!/usr/bin/env node
// Fits the answer calibration of @doctree/agents (two logistic models over CALIBRATION_FEATURES: P(the reader's answer
// is right) and P(the document does not answer)) with cross-validation grouped by document, and reports, in one run,
// cross-validated accuracy, refusal rates, ECE and AUROC of the calibrated agent beside its raw reader, always answering
// "Not answerable", BM25 over pages and RAG hybrid (same documents, same reader) — overall, per split and per benchmark.
//
//   npx nx run-many -t build -p pipeline
//   node tools/fit/fit-answer-calibration.mjs [--questions a.jsonl,b.jsonl] [--docs DIR] [--folds 5] [--seed 1]
//        [--rows FILE] [--recollect | --refeature] [--no-baselines] [--max-answerable-refused 0.25]
//        [--out model.json] [--write-default] [--limit N] [--llm]
//
// --llm fits a model on the configured chat model's answers (doctree.config.json / DOCTREE_* environment: the
// endpoint answers every question; rows go to data/fit/answer-rows-llm.jsonl; the model's `reader` is `llm`): point
// `agent.answer_calibration` at it to apply it with that model. The shipped default (--write-default) is always the
// offline reader's.
//
// Rows (per question: features, the raw answer, its score, the baselines' scores) are cached in
// data/fit/answer-rows.jsonl; --recollect refreshes them (do so after refitting the page ranker: its scores are
// features here). The model is written to --out (default data/fit/answer-calibration.json); --write-default also
// writes packages/agents/src/finalizer/answer-calibration-model.ts, the default of every DocTreeAgent.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  benchmarkOf,
  chooseByInnerCv,
  fittedRecord,
  fitLogistic,
  flag,
  importDist,
  nestedCrossValidation,
  option,
  pct,
  questionFiles,
  readJsonl,
  readQuestions,
  rel,
  root,
  round4,
  writeDefaultModel,
  writeJson,
  writeJsonl,
} from './fit-common.mjs';

const agents = await importDist('agents');
const evalPkg = await importDist('eval');
const FEATURES = agents.CALIBRATION_FEATURES;
/** Sign constraints of the features (`--free-signs` fits without them, for comparison). */
const SIGNS = flag('free-signs') ? { answer: {}, refuse: {} } : agents.CALIBRATION_FEATURE_SIGNS;
const NOT_ANSWERABLE = 'Not answerable';

const docsDir = resolve(root, option('docs', 'data/eval-docs'));
/** Fit on a chat model's answers (the configured endpoint) instead of the offline reader's. */
const llm = flag('llm');
if (llm && flag('write-default')) {
  console.error('--llm and --write-default do not go together: the shipped default calibrates the offline reader (write the LLM model with --out and set agent.answer_calibration)');
  process.exit(2);
}
const rowsFile = resolve(root, option('rows', llm ? 'data/fit/answer-rows-llm.jsonl' : 'data/fit/answer-rows.jsonl'));
const outFile = resolve(root, option('out', 'data/fit/answer-calibration.json'));
const folds = Number(option('folds', '5'));
const seed = Number(option('seed', '1'));
const lambdas = option('l2', '0.001,0.01,0.1').split(',').map(Number);
const baselines = !flag('no-baselines');
/** Most answerable questions the calibrated agent may decline (share), when fitting the refuse margin. */
const maxAnswerableRefused = Number(option('max-answerable-refused', '0.25'));

const gold = (q) => ({ answer: q.answer, answer_format: q.answer_format ?? null, answerable: q.answerable !== false });
const score = (q, value) => evalPkg.scoreAnswer(gold(q), value).score;

/** Runs the agent (calibration recorded, not applied) and the baselines on every question; one row per question. */
async function collect(questions) {
  const pipeline = await importDist('pipeline');
  const schema = await importDist('schema');
  // --llm: the configuration a `doctree` command would use here (doctree.config.json, then the environment).
  const { config } = llm ? pipeline.loadCommandConfig({ cwd: process.cwd(), env: process.env }, option('config', undefined)) : schema.resolveConfig({ overrides: { llm: { provider: 'none' } } });
  const chat = llm ? agents.createChatClient(config) : null;
  if (llm && !chat) {
    console.error('--llm needs a configured chat model (llm.provider and model in doctree.config.json or DOCTREE_LLM_* variables)');
    process.exit(2);
  }
  const context = pipeline.createEvalSystemContext({ config, outDir: docsDir, chat });
  const systems = baselines ? pipeline.createEvalSystems(['bm25-pages', 'rag-hybrid'], { config, context }) : [];
  const parsed = new Map();
  for (const file of new Set(questions.map((q) => q.file))) for (const q of evalPkg.parseDocTreeQuestions(readFileSync(file, 'utf8'), { file })) parsed.set(q.id, q);
  const cached = new Map((flag('recollect') ? [] : await readJsonl(rowsFile)).map((r) => [r.id, r]));
  // --refeature: run the agent again (new features), keep the baselines' cached scores.
  const refeature = flag('refeature');
  const agentsByDoc = new Map();
  const prepared = new Set();
  const rows = [];
  const started = Date.now();
  for (const [i, q] of questions.entries()) {
    const old = cached.get(q.id);
    if (old && !refeature) {
      rows.push(old);
      continue;
    }
    const doc = await context.documents.prepare(q.pdf);
    let agent = agentsByDoc.get(q.pdf);
    if (!agent || agent.index !== doc.index) {
      const reading = chat ? { chat, router: 'auto', llmBudgetMs: config.llm.question_budget_ms } : { router: 'rules', reader: context.reader };
      agent = new agents.DocTreeAgent({ index: doc.index, ...reading, maxReplans: config.agent.max_replans, ctxTokens: config.agent.ctx_tokens, calibrator: new agents.AnswerCalibrator({ mode: 'record' }) });
      agentsByDoc.set(q.pdf, agent);
    }
    const run = await agent.ask(q.question);
    const c = run.calibration;
    const row = {
      id: q.id,
      split: q.split,
      doc: q.doc_file,
      benchmark: benchmarkOf(q.id),
      answerable: q.answerable !== false,
      raw: { answer: c.raw.answer, format: c.raw.answer_format, confidence: c.raw.confidence },
      answer_score: score(q, c.raw.answer),
      refuse_score: score(q, NOT_ANSWERABLE),
      x: FEATURES.map((f) => round4(c.features[f])),
      baselines: {},
    };
    if (old && refeature) row.baselines = old.baselines;
    else for (const system of systems) {
      if (!prepared.has(`${system.id}:${q.pdf}`)) {
        await system.prepare({ path: q.pdf, docFile: q.doc_file });
        prepared.add(`${system.id}:${q.pdf}`);
      }
      const answered = await system.answer(parsed.get(q.id), { path: q.pdf });
      row.baselines[system.id] = score(q, answered.answer.answer);
    }
    rows.push(row);
    if ((i + 1) % 20 === 0) process.stderr.write(`[fit] ${i + 1}/${questions.length} questions (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  writeJsonl(rowsFile, rows);
  return rows;
}

/** Both models on some rows, and the refuse margin with the best accuracy that declines few enough answerable questions. */
function fitModels(rows, lambda) {
  const answered = rows.filter((r) => r.raw.format !== 'None');
  const models = {
    answer: fitLogistic(answered.map((r) => r.x), answered.map((r) => r.answer_score), FEATURES, { lambda, signs: SIGNS.answer }),
    refuse: fitLogistic(rows.map((r) => r.x), rows.map((r) => r.refuse_score), FEATURES, { lambda, signs: SIGNS.refuse }),
    refuse_margin: 0,
  };
  const answerable = rows.filter((r) => r.answerable).length || 1;
  let best = { margin: 1, accuracy: -1 };
  for (let m = -0.5; m <= 1.0001; m += 0.01) {
    const margin = Math.round(m * 100) / 100;
    let correct = 0;
    let declined = 0;
    for (const r of rows) {
      const { refused, score } = decide({ ...models, refuse_margin: margin }, r);
      correct += score;
      if (refused && r.answerable) declined++;
    }
    if (declined / answerable > maxAnswerableRefused) continue;
    if (correct > best.accuracy) best = { margin, accuracy: correct };
  }
  models.refuse_margin = best.margin;
  return models;
}

/** The calibrated decision on a row (the agent's own `calibrationDecision`): refuse or answer, its confidence, and its score. */
function decide(models, r) {
  const features = Object.fromEntries(FEATURES.map((name, i) => [name, r.x[i] ?? 0]));
  const model = { format: 'doctree.answer-calibration', version: 1, ...models };
  const { refused, confidence } = agents.calibrationDecision(model, features, r.raw.format === 'None');
  return { refused, confidence, score: refused ? r.refuse_score : r.answer_score };
}

const logLoss = (p, y) => -(y * Math.log(Math.max(1e-9, p)) + (1 - y) * Math.log(Math.max(1e-9, 1 - p)));

/** How the nested CV fits and judges models: by the log loss of the final decision's confidence on unseen rows. */
const cvOptions = {
  folds,
  seed,
  fit: fitModels,
  rowLoss: (models, r) => {
    const d = decide(models, r);
    return logLoss(d.confidence, d.score);
  },
};

/** Expected calibration error over 10 equal-width bins, and the bins. */
function calibrationError(pairs) {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, conf: 0, acc: 0 }));
  for (const { confidence, score } of pairs) {
    const b = bins[Math.min(9, Math.floor(confidence * 10))];
    b.n++;
    b.conf += confidence;
    b.acc += score;
  }
  const ece = bins.reduce((s, b) => s + (b.n ? (b.n / pairs.length) * Math.abs(b.acc / b.n - b.conf / b.n) : 0), 0);
  return { ece, bins };
}

/** Area under the ROC curve of confidence for right (score ≥ 0.5) vs wrong outputs. */
function auroc(pairs) {
  const pos = pairs.filter((p) => p.score >= 0.5).map((p) => p.confidence);
  const neg = pairs.filter((p) => p.score < 0.5).map((p) => p.confidence);
  if (pos.length === 0 || neg.length === 0) return NaN;
  let wins = 0;
  for (const a of pos) for (const b of neg) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

const questions = readQuestions();
console.log(`[fit] ${questions.length} questions from ${questionFiles().map(rel).join(', ')}`);
const rows = await collect(questions);
// Rows cached before a feature was appended to CALIBRATION_FEATURES lack it: it is 0 there (as in a model without its weight).
for (const r of rows) while (r.x.length < FEATURES.length) r.x.push(0);
console.log(`[fit] ${rows.length} questions over ${new Set(rows.map((r) => `${r.split}/${r.doc}`)).size} documents; ${folds}-fold CV grouped by document`);

const { chosen: foldLambdas } = nestedCrossValidation(rows, lambdas, { ...cvOptions, predict: (models, r) => (r.cv = decide(models, r)) });

function summary(sel) {
  const n = sel.length;
  const mean = (f) => sel.reduce((s, r) => s + f(r), 0) / Math.max(1, n);
  const unans = sel.filter((r) => !r.answerable);
  const ans = sel.filter((r) => r.answerable);
  const cal = calibrationError(sel.map((r) => r.cv));
  const rawPairs = sel.map((r) => ({ confidence: r.raw.format === 'None' ? r.raw.confidence : r.raw.confidence, score: r.raw.format === 'None' ? r.refuse_score : r.answer_score }));
  return {
    n,
    calibrated: mean((r) => r.cv.score),
    raw: mean((r) => (r.raw.format === 'None' ? r.refuse_score : r.answer_score)),
    refuseAll: mean((r) => r.refuse_score),
    bm25: baselines ? mean((r) => r.baselines['bm25-pages'] ?? 0) : NaN,
    rag: baselines ? mean((r) => r.baselines['rag-hybrid'] ?? 0) : NaN,
    unansRefused: unans.length ? unans.filter((r) => r.cv.refused).length / unans.length : NaN,
    ansRefused: ans.length ? ans.filter((r) => r.cv.refused).length / ans.length : NaN,
    ece: cal.ece,
    rawEce: calibrationError(rawPairs).ece,
    auroc: auroc(sel.map((r) => r.cv)),
    rawAuroc: auroc(rawPairs),
    bins: cal.bins,
  };
}

const groups = [
  ['all', rows],
  ...[...new Set(rows.map((r) => r.split))].map((s) => [s, rows.filter((r) => r.split === s)]),
  ...[...new Set(rows.map((r) => r.benchmark))].map((b) => [b, rows.filter((r) => r.benchmark === b)]),
];
console.log('\nCross-validated answers (accuracy by each benchmark\'s own rules; refusal rates; confidence ECE / AUROC):');
console.log('| group | n | calibrated | raw reader | always refuse | BM25 pages | RAG hybrid | unanswerable refused | answerable refused | ECE (raw) | AUROC (raw) |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
const summaries = new Map();
for (const [name, sel] of groups) {
  const s = summary(sel);
  summaries.set(name, s);
  console.log(`| ${name} | ${s.n} | ${pct(s.calibrated)} | ${pct(s.raw)} | ${pct(s.refuseAll)} | ${pct(s.bm25)} | ${pct(s.rag)} | ${pct(s.unansRefused)} | ${pct(s.ansRefused)} | ${s.ece.toFixed(3)} (${s.rawEce.toFixed(3)}) | ${s.auroc.toFixed(3)} (${s.rawAuroc.toFixed(3)}) |`);
}
console.log('\nReliability (all, cross-validated): confidence bin → questions, mean confidence, accuracy');
for (const [i, b] of summaries.get('all').bins.entries()) if (b.n) console.log(`  ${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}  ${String(b.n).padStart(4)}  ${(b.conf / b.n).toFixed(3)}  ${(b.acc / b.n).toFixed(3)}`);

const finalLambda = chooseByInnerCv(rows, lambdas, cvOptions);
const final = fitModels(rows, finalLambda);
const all = summaries.get('all');
const model = {
  format: 'doctree.answer-calibration',
  version: 1,
  answer: final.answer,
  refuse: final.refuse,
  refuse_margin: final.refuse_margin,
  reader: llm ? 'llm' : 'extractive',
  fitted: fittedRecord('tools/fit/fit-answer-calibration.mjs', rows, { folds, seed }, {
    l2: finalLambda,
    l2_per_fold: foldLambdas,
    max_answerable_refused: maxAnswerableRefused,
    cv: { accuracy: round4(all.calibrated), ece: round4(all.ece), auroc: round4(all.auroc), unanswerable_refused: round4(all.unansRefused), answerable_refused: round4(all.ansRefused) },
  }),
};
console.log('\nWeights (all questions):  answer | refuse');
for (const f of FEATURES) console.log(`  ${f.padEnd(20)} ${String(final.answer.weights[f]).padStart(8)} | ${String(final.refuse.weights[f]).padStart(8)}`);
console.log(`  ${'(bias)'.padEnd(20)} ${String(final.answer.bias).padStart(8)} | ${String(final.refuse.bias).padStart(8)}`);
console.log(`  refuse margin ${final.refuse_margin} (most answerable declined: ${pct(maxAnswerableRefused)})`);
writeJson(outFile, model);
console.log(`\nModel: ${rel(outFile)}`);
if (flag('write-default')) {
  writeDefaultModel('packages/agents/src/finalizer/answer-calibration-model.ts', {
    importLine: "import type { AnswerCalibrationModel } from './answer-calibration-schema.js';",
    doc: [
      "The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do",
      'not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.',
    ],
    name: 'DEFAULT_ANSWER_CALIBRATION_MODEL',
    type: 'AnswerCalibrationModel',
    model,
  });
}
