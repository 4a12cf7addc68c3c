#!/usr/bin/env node
// Collection ask throughput: `Collection.ask` (selection, then the agent on the best document) for the eval questions
// whose document is in a built collection, each question once per process, with the asked documents kept open between
// questions (the default) and reopened for every question (`openDocuments.maxDocuments: 0`: the reference, what ask
// did before), each setting in a fresh process, alternating per round in the same run so load drift hits both. Prints
// asks per second, CPU per ask, p50 / p90 per question, the load average before and after, and whether both settings
// gave the same answers. Offline; reads ../shared/data/eval, writes nothing. Questions are never printed.
//
//   node tools/bench/collection/bench-ask.mjs --collection-dir DIR [--data ../shared/data/eval/dev,../shared/data/eval/wide]
//        [--filter FinanceBench] [--limit N] [--rounds 2] [--json]
// Needs built dist (`npx nx run-many -t build -p pipeline`).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const collectionDir = option('--collection-dir', undefined);
if (!collectionDir) {
  console.error('bench-ask: pass --collection-dir DIR (a collection built from eval PDFs)');
  process.exit(2);
}
const dataDirs = option('--data', '../shared/data/eval/dev,../shared/data/eval/wide').split(',').map((d) => resolve(root, d));
const filter = option('--filter', undefined);
const limit = Number(option('--limit', '40'));
const rounds = Number(option('--rounds', '2'));
const { Collection } = await import(pathToFileURL(join(root, 'packages', 'pipeline', 'dist', 'index.js')).href);
const { resolveConfig } = await import(pathToFileURL(join(root, 'packages', 'schema', 'dist', 'index.js')).href);
const config = resolveConfig({}).config;
const probe = await Collection.open(resolve(collectionDir), { config });
const manifest = await probe.manifest();
if (!manifest) {
  console.error(`bench-ask: no collection at ${collectionDir}`);
  process.exit(2);
}
const bySha = new Map(manifest.documents.map((d) => [d.sha256, d.doc_id]));
const questions = [];
for (const dataDir of dataDirs) {
  const file = join(dataDir, 'questions.jsonl');
  if (!existsSync(file)) continue;
  const shaOf = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const q = JSON.parse(line);
    if (filter && !String(q.source_benchmark ?? '').includes(filter)) continue;
    const path = resolve(dataDir, q.doc_file);
    if (!shaOf.has(path)) shaOf.set(path, existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : '');
    if (bySha.has(shaOf.get(path))) questions.push(q.question);
  }
}
const asked = questions.slice(0, limit);
if (asked.length === 0) {
  console.error('bench-ask: no question of the datasets has its document in this collection');
  process.exit(2);
}

const SETTINGS = new Map([
  ['kept', { label: 'kept open', options: {} }],
  ['reopened', { label: 'reopened (reference)', options: { openDocuments: { maxDocuments: 0 } } }],
]);
const only = option('--setting', undefined);
if (only !== undefined) {
  // One setting in this (fresh) process: every question once, then its timings and answers as JSON on stdout.
  const setting = SETTINGS.get(only);
  if (!setting) {
    console.error(`bench-ask: --setting is kept or reopened, not ${only}`);
    process.exit(2);
  }
  const collection = await Collection.open(resolve(collectionDir), { config, ...setting.options });
  const times = [];
  const answers = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const question of asked) {
    const t = performance.now();
    const answer = await collection.ask(question);
    times.push(performance.now() - t);
    answers.push(JSON.stringify([answer.doc_id, answer.answer.answer]));
  }
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ times, answers, wall_ms: performance.now() - started, cpu_ms: (used.user + used.system) / 1000 }));
  process.exit(0);
}

// Each setting in its own fresh process (nothing loaded by the other), alternating per round so load drift hits both.
const { execFileSync } = await import('node:child_process');
const load = [loadavg()[0]];
const results = new Map([...SETTINGS.keys()].map((k) => [k, { times: [], wall: 0, cpu: 0, answers: undefined }]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? [...SETTINGS.keys()] : [...SETTINGS.keys()].reverse();
  for (const key of order) {
    const childArgs = [fileURLToPath(import.meta.url), ...args.filter((a, i) => a !== '--json' && args[i - 1] !== '--rounds' && a !== '--rounds'), '--setting', key];
    const run = JSON.parse(execFileSync(process.execPath, childArgs, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] }));
    const r = results.get(key);
    r.times.push(...run.times);
    r.wall += run.wall_ms;
    r.cpu += run.cpu_ms;
    r.answers ??= run.answers;
    process.stderr.write(`  round ${round + 1}/${rounds} ${SETTINGS.get(key).label}: ${asked.length} asks, ${(run.wall_ms / 1000).toFixed(1)} s wall, ${(run.cpu_ms / 1000).toFixed(1)} s CPU\n`);
  }
}
load.push(loadavg()[0]);
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const rows = [...SETTINGS].map(([key, s]) => {
  const r = results.get(key);
  return {
    setting: s.label,
    asks: r.times.length,
    asks_per_second: Number(((1000 * r.times.length) / r.wall).toFixed(2)),
    cpu_ms_per_ask: Math.round(r.cpu / r.times.length),
    p50_ms: Math.round(quantile(r.times, 0.5)),
    p90_ms: Math.round(quantile(r.times, 0.9)),
  };
});
const [kept, reopened] = [...SETTINGS.keys()].map((k) => results.get(k).answers);
const same = kept.every((a, i) => a === reopened[i]);
const report = { collection_documents: manifest.documents.length, questions: asked.length, rounds, load_average: load.map((l) => Number(l.toFixed(1))), same_answers: same, rows };
if (args.includes('--json')) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`collection of ${manifest.documents.length} documents, ${asked.length} questions per process, ${rounds} round(s), load average ${report.load_average.join(' → ')}`);
  for (const r of rows) console.log(`${r.setting.padEnd(22)} ${r.asks_per_second.toFixed(2)} asks/s  ${r.cpu_ms_per_ask} ms CPU/ask  p50 ${r.p50_ms} ms  p90 ${r.p90_ms} ms  (${r.asks} asks)`);
  console.log(`same answers both ways: ${same ? 'yes' : 'NO'}`);
}
