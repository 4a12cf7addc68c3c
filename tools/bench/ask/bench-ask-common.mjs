// Shared parts of the ask benchmarks: the dev set grouped by document, and the agent over a prepared dev document
// (ingested and indexed once into a scratch folder outside the repository, default /tmp/doctree-bench-ask).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importDist, option, root } from '../index/bench-common.mjs';

export const pipeline = await importDist('pipeline');
export const schema = await importDist('schema');

/** Scratch folder (documents and caches). */
export function askWorkDir() {
  return resolve(option('work', '/tmp/doctree-bench-ask'));
}

/** The dev set: documents (file → page count) and questions grouped by document file, or exits 0 without it. */
export function devQuestions() {
  const dataDir = resolve(root, option('data', '../shared/data/eval/dev'));
  const questionsFile = join(dataDir, 'questions.jsonl');
  if (!existsSync(questionsFile)) {
    console.log(`No dev set at ${dataDir} (expected questions.jsonl and pdfs/); nothing to measure.`);
    process.exit(0);
  }
  const byDoc = new Map();
  for (const line of readFileSync(questionsFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const q = JSON.parse(line);
    if (!byDoc.has(q.doc_file)) byDoc.set(q.doc_file, []);
    byDoc.get(q.doc_file).push(q);
  }
  return { dataDir, byDoc: [...byDoc].sort(([a], [b]) => a.localeCompare(b)) };
}

/** The configuration the benchmarks use: defaults (offline, SIF embedder) with data under the scratch folder. */
export function benchConfig(overrides = {}) {
  return schema.resolveConfig({ overrides: { data_dir: join(askWorkDir(), 'data'), ...overrides } }).config;
}

/** Opens the offline agent (or the dry-run one) over a dev PDF, preparing it on first use. */
export async function openDevAgent(pdf, { dryRun = false, config = benchConfig(), agent = {} } = {}) {
  const t = performance.now();
  const opened = await pipeline.openAgent(pdf, { config, outDir: join(askWorkDir(), 'docs'), dryRun, agent, ...(dryRun ? { chat: undefined } : {}) });
  return { ...opened, openMs: performance.now() - t };
}

/** Quantile of numbers (nearest rank). */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
