#!/usr/bin/env node
// Router benchmark on the dev questions (measurement only — the rules are not tuned to these questions):
//  - expected-format accuracy of the RuleRouter against `answer_format` (MMLongBench-Doc questions carry it), overall
//    and on answerable questions, with the confusion matrix;
//  - the distribution of query types by evidence source and by benchmark;
//  - page hints: how many questions name pages and how many named pages are evidence pages;
//  - routing time per question, as a ratio to tokenising the question in the same process (contentWords);
//  - the prompt tokens the LLM router and the LLM planner would send per question (DryRunChatClient), median and max;
//  - the distribution of plan templates and stage / step counts of the TemplatePlanner.
//
//   npx nx run-many -t build -p schema index toolhub agents && node tools/bench/agents/bench-router.mjs
//     [--data ../shared/data/eval/dev] [--json]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};

async function importDist(name) {
  const file = join(root, 'packages', name, 'dist', 'index.js');
  try {
    return await import(new URL(`file://${file}`).href);
  } catch (error) {
    console.error(`Cannot load packages/${name}/dist (${error.message}); build first: npx nx run-many -t build -p schema index toolhub agents`);
    process.exit(1);
  }
}

const dataDir = resolve(root, option('data', '../shared/data/eval/dev'));
const questionsFile = join(dataDir, 'questions.jsonl');
if (!existsSync(questionsFile)) {
  console.log(`No dev questions at ${questionsFile}; nothing to measure.`);
  process.exit(0);
}
const documentsFile = join(dataDir, 'documents.json');
const documents = existsSync(documentsFile) ? JSON.parse(readFileSync(documentsFile, 'utf8')) : {};
const questions = readFileSync(questionsFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));

const agents = await importDist('agents');
const index = await importDist('index');
const router = new agents.RuleRouter();
const dry = new agents.DryRunChatClient();
const llmRouter = new agents.LlmRouter({ client: dry });
const planner = new agents.TemplatePlanner();
const llmPlanner = new agents.LlmPlanner({ client: dry });

const pageCountOf = (q) => documents[q.doc_file.replace(/^pdfs\//, '')]?.pages;
const rows = [];
for (const q of questions) {
  const decision = await router.route(q.question, { pageCount: pageCountOf(q) });
  dry.reset();
  await llmRouter.route(q.question, { pageCount: pageCountOf(q) });
  const routerTokens = dry.stats().promptTokens;
  dry.reset();
  const plan = await planner.plan(decision);
  await llmPlanner.plan(decision, { question: q.question });
  rows.push({ q, decision, plan, promptTokens: routerTokens, plannerTokens: dry.stats().promptTokens });
}

// Expected format.
const labelled = rows.filter((r) => r.q.answer_format !== null && r.q.answer_format !== undefined);
const answerable = labelled.filter((r) => r.q.answer_format !== 'None');
const accuracy = (set) => (set.length === 0 ? 0 : set.filter((r) => r.decision.signals.expected_format === r.q.answer_format).length / set.length);
const confusion = {};
for (const r of labelled) {
  const key = `${r.q.answer_format} -> ${r.decision.signals.expected_format}`;
  confusion[key] = (confusion[key] ?? 0) + 1;
}

// Query types by evidence source and by benchmark.
const bySource = {};
const byBenchmark = {};
for (const r of rows) {
  const sources = r.q.evidence_sources && r.q.evidence_sources.length > 0 ? r.q.evidence_sources : [r.q.answerable === false ? '(unanswerable)' : '(none given)'];
  for (const source of sources) {
    bySource[source] ??= {};
    bySource[source][r.decision.query_type] = (bySource[source][r.decision.query_type] ?? 0) + 1;
  }
  const bench = String(r.q.source_benchmark ?? 'unknown').split(' ')[0];
  byBenchmark[bench] ??= {};
  byBenchmark[bench][r.decision.query_type] = (byBenchmark[bench][r.decision.query_type] ?? 0) + 1;
}

// Page hints.
const withHints = rows.filter((r) => r.decision.signals.page_hints.length > 0);
const hinted = withHints.flatMap((r) => r.decision.signals.page_hints.map((p) => (r.q.evidence_pages ?? []).includes(p)));

// Time: routing vs tokenising, same process, several rounds.
const rounds = 20;
let t0 = performance.now();
for (let i = 0; i < rounds; i++) for (const q of questions) router.decide(q.question.trim(), { pageCount: pageCountOf(q) });
const routeMs = (performance.now() - t0) / (rounds * questions.length);
t0 = performance.now();
for (let i = 0; i < rounds; i++) for (const q of questions) index.contentWords(q.question);
const tokenizeMs = (performance.now() - t0) / (rounds * questions.length);

const tokens = rows.map((r) => r.promptTokens).sort((a, b) => a - b);
const plannerTokens = rows.map((r) => r.plannerTokens).sort((a, b) => a - b);
const templates = {};
for (const r of rows) templates[r.plan.template] = (templates[r.plan.template] ?? 0) + 1;
const stageCounts = rows.map((r) => r.plan.stages.length).sort((a, b) => a - b);
const stepCounts = rows.map((r) => r.plan.steps.length).sort((a, b) => a - b);
const result = {
  questions: rows.length,
  expected_format: {
    labelled: labelled.length,
    accuracy: Number(accuracy(labelled).toFixed(3)),
    answerable: answerable.length,
    accuracy_answerable: Number(accuracy(answerable).toFixed(3)),
    confusion,
  },
  query_types_by_evidence_source: bySource,
  query_types_by_benchmark: byBenchmark,
  page_hints: { questions_with_hints: withHints.length, hints: hinted.length, hints_on_evidence_pages: hinted.filter(Boolean).length },
  routing: { ms_per_question: Number(routeMs.toFixed(4)), ratio_to_tokenising: Number((routeMs / tokenizeMs).toFixed(1)) },
  llm_router_prompt_tokens: { median: agents.median(tokens), max: tokens[tokens.length - 1] ?? 0 },
  llm_planner_prompt_tokens: { median: agents.median(plannerTokens), max: plannerTokens[plannerTokens.length - 1] ?? 0 },
  plans: { templates, median_stages: agents.median(stageCounts), median_steps: agents.median(stepCounts) },
};

if (args.includes('--json')) console.log(JSON.stringify(result, null, 2));
else {
  const e = result.expected_format;
  console.log(`questions: ${result.questions}`);
  console.log(`expected format: ${(e.accuracy * 100).toFixed(1)}% of ${e.labelled} labelled; ${(e.accuracy_answerable * 100).toFixed(1)}% of ${e.answerable} answerable`);
  console.log('  confusion (gold -> predicted):', Object.entries(confusion).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`).join(', '));
  console.log('query types by evidence source:');
  for (const [source, counts] of Object.entries(bySource)) console.log(`  ${source}: ${Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  console.log('query types by benchmark:');
  for (const [bench, counts] of Object.entries(byBenchmark)) console.log(`  ${bench}: ${Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  const p = result.page_hints;
  console.log(`page hints: ${p.questions_with_hints} questions name pages; ${p.hints_on_evidence_pages}/${p.hints} named pages are evidence pages`);
  console.log(`routing: ${result.routing.ms_per_question} ms per question (${result.routing.ratio_to_tokenising}x tokenising the question)`);
  console.log(`LLM router prompt tokens per question: median ${result.llm_router_prompt_tokens.median}, max ${result.llm_router_prompt_tokens.max}`);
  console.log(`LLM planner prompt tokens per question: median ${result.llm_planner_prompt_tokens.median}, max ${result.llm_planner_prompt_tokens.max}`);
  console.log(`plans: ${Object.entries(templates).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ')}; median ${result.plans.median_stages} stages, ${result.plans.median_steps} steps`);
}
