#!/usr/bin/env node
// Benchmark of ask: latency of offline `ask` on an indexed dev document, and the prompt tokens the LLM path would
// send per question.
//
// 1. Latency: one dev document (default 3M_2018_10K) is prepared once and its agent built once; then every dev
//    question of that document is asked `--rounds` times (default 5), warm, with the agent's memory cleared before
//    each question (no cached stages or observations). Prints p50 / p95 of the whole `ask` (router → planner → stages
//    → steps → observe → read → judge → REPLAN → finalize) and of its parts from the trace, and the ratio to a reference
//    run in the same process: a bare BM25 search of the question over the sparse coarse + leaf indexes.
//    Targets: p50 <= 50 ms, p95 <= 200 ms. `--all-docs` measures every dev document (each loaded once) instead.
// 2. Prompt tokens: every dev question (or `--docs N` documents) asked with the dry-run chat client (the LLM router,
//    reader and judger build their real prompts, which are counted, not sent; each step then falls back offline).
//    Prints the median / p95 / max prompt tokens per question and per call. Target: median <= 8k per question.
//
//   npx nx run-many -t build -p pipeline && node tools/bench/ask/bench-ask.mjs [--doc pdfs/3M_2018_10K.pdf | --all-docs]
//     [--rounds 5] [--docs N] [--skip-tokens] [--data ../shared/data/eval/dev] [--work /tmp/doctree-bench-ask] [--json]
import { join } from 'node:path';
import { flag, option } from '../index/bench-common.mjs';
import { devQuestions, openDevAgent, quantile } from './bench-ask-common.mjs';

const asJson = flag('json');
const log = asJson ? (...a) => console.error(...a) : (...a) => console.log(...a);
const rounds = Number(option('rounds', '5'));
const docFile = option('doc', 'pdfs/3M_2018_10K.pdf');
const docLimit = Number(option('docs', '1000'));
const { dataDir, byDoc } = devQuestions();
const allDocs = flag('all-docs');
const questions = byDoc.find(([file]) => file === docFile)?.[1];
if (!questions && !allDocs) {
  console.error(`No dev questions for ${docFile}; pick one of: ${byDoc.map(([f]) => f).join(', ')}`);
  process.exit(2);
}

const time = async (fn) => {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
};
const stats = (values) => ({ p50: quantile(values, 0.5), p95: quantile(values, 0.95), n: values.length });

// 1. latency
const rows = { ask: [], reference: [], stages: [], steps: [], read: [], judge: [], replans: [], toolCalls: [] };
const latencyDocs = allDocs ? byDoc.slice(0, docLimit) : [[docFile, questions]];
for (const [file, qs] of latencyDocs) {
  const { agent, document, openMs } = await openDevAgent(join(dataDir, file));
  const index = document.index;
  log(`${file}: ${index.tree.doc.page_count} pages, ${index.tree.nodes.length} nodes, ${qs.length} questions; prepared + agent in ${openMs.toFixed(0)} ms`);
  await agent.ask(qs[0].question); // warm-up: JIT, navigator caches, lazy term postings
  for (let round = 0; round < rounds; round++) {
    for (const q of qs) {
      const [referenceMs] = await time(async () => {
        index.sparseCoarse.search(q.question, { k: 50 });
        index.sparseLeaf.search(q.question, { k: 50 });
      });
      agent.memory.clear();
      const [askMs, run] = await time(() => agent.ask(q.question));
      rows.ask.push(askMs);
      rows.reference.push(referenceMs);
      const calls = run.answer.trace.events.filter((e) => e.type === 'tool_call');
      const sum = (pred) => calls.filter(pred).reduce((s, e) => s + (e.latency_ms ?? 0), 0);
      const stepTools = new Set(run.plans.flatMap((p) => p.steps.map((st) => st.tool)));
      rows.read.push(sum((e) => e.tool_id === 'reader.answer'));
      rows.judge.push(sum((e) => e.tool_id === 'judger.verify'));
      rows.steps.push(sum((e) => stepTools.has(e.tool_id) && e.tool_id !== 'reader.answer' && e.tool_id !== 'judger.verify'));
      rows.stages.push(sum((e) => !stepTools.has(e.tool_id) && e.tool_id !== 'reader.answer' && e.tool_id !== 'judger.verify'));
      rows.replans.push(run.usage.replans);
      rows.toolCalls.push(run.usage.toolCalls);
    }
  }
}
const latency = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, stats(v)]));
const ratio = latency.ask.p50 / latency.reference.p50;

// 2. prompt tokens (dry run)
let tokens;
if (!flag('skip-tokens')) {
  const perQuestion = [];
  const perCall = [];
  for (const [file, qs] of byDoc.slice(0, docLimit)) {
    const { agent: dry } = await openDevAgent(join(dataDir, file), { dryRun: true });
    for (const q of qs) {
      const run = await dry.ask(q.question);
      perQuestion.push(run.usage.promptTokens);
      for (const e of run.answer.trace.events) if (e.type === 'llm_call') perCall.push(e.tokens?.prompt ?? 0);
    }
  }
  tokens = {
    questions: perQuestion.length,
    per_question: { median: quantile(perQuestion, 0.5), p95: quantile(perQuestion, 0.95), max: Math.max(...perQuestion) },
    per_call: { median: quantile(perCall, 0.5), p95: quantile(perCall, 0.95), max: Math.max(...perCall), calls: perCall.length },
  };
}

const report = { doc: allDocs ? `${latencyDocs.length} documents` : docFile, asks: rows.ask.length, rounds, latency_ms: latency, ask_over_bm25_p50: ratio, prompt_tokens: tokens };
if (asJson) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`\nOffline ask, warm, ${latency.ask.n} asks (${allDocs ? `${latencyDocs.length} documents` : docFile}, ${rounds} rounds, memory cleared before each):`);
  for (const [k, v] of Object.entries(latency)) {
    const unit = k === 'replans' || k === 'toolCalls' ? '' : ' ms';
    console.log(`  ${k.padEnd(10)} p50 ${v.p50.toFixed(1).padStart(7)}${unit}   p95 ${v.p95.toFixed(1).padStart(7)}${unit}`);
  }
  console.log(`  ask / bare BM25 search (reference) at p50: ${ratio.toFixed(1)}x   (targets: p50 <= 50 ms, p95 <= 200 ms)`);
  if (tokens) {
    console.log(`\nPrompt tokens the LLM path would send (dry run, ${tokens.questions} questions, ${tokens.per_call.calls} calls):`);
    console.log(`  per question: median ${tokens.per_question.median}, p95 ${tokens.per_question.p95}, max ${tokens.per_question.max}   (target: median <= 8000)`);
    console.log(`  per call:     median ${tokens.per_call.median}, p95 ${tokens.per_call.p95}, max ${tokens.per_call.max}`);
  }
}
