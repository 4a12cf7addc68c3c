#!/usr/bin/env node
// Document-selection benchmark: on a built collection of the eval PDFs (bench-collection.mjs --keep DIR, or
// `doctree collection ingest`), asks `Collection.select` for every question of the datasets without naming its
// document, and reports accuracy@1 (the selected document is the question's) and recall@3, overall and by source
// benchmark. Offline; reads ../shared/data/eval, writes nothing. Questions are never printed.
//
//   node tools/bench/collection/bench-selection.mjs --collection-dir DIR [--data ../shared/data/eval/dev,../shared/data/eval/wide]
//        [--embedder hashing|sif|openai] [--json]
// Needs built dist (`npx nx run-many -t build -p pipeline`).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const collectionDir = option('--collection-dir', undefined);
if (!collectionDir) {
  console.error('bench-selection: pass --collection-dir DIR (a collection built from the eval PDFs)');
  process.exit(2);
}
const dataDirs = option('--data', '../shared/data/eval/dev,../shared/data/eval/wide').split(',').map((d) => resolve(root, d));
const embedder = option('--embedder', undefined);
const { Collection } = await import(pathToFileURL(join(root, 'packages', 'pipeline', 'dist', 'index.js')).href);
const { resolveConfig } = await import(pathToFileURL(join(root, 'packages', 'schema', 'dist', 'index.js')).href);
const config = resolveConfig({ overrides: embedder ? { embedder: { kind: embedder } } : {} }).config;
const collection = await Collection.open(resolve(collectionDir), { config });
const manifest = await collection.manifest();
if (!manifest) {
  console.error(`bench-selection: no collection at ${collectionDir}`);
  process.exit(2);
}
const byFile = new Map(manifest.documents.map((d) => [basename(d.path), d.doc_id]));
const groups = new Map();
const add = (group, hit1, hit3) => {
  const g = groups.get(group) ?? { n: 0, at1: 0, at3: 0 };
  g.n++;
  g.at1 += hit1 ? 1 : 0;
  g.at3 += hit3 ? 1 : 0;
  groups.set(group, g);
};
let missing = 0;
for (const dataDir of dataDirs) {
  const file = join(dataDir, 'questions.jsonl');
  if (!existsSync(file)) continue;
  const questions = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  for (const [i, q] of questions.entries()) {
    const expected = byFile.get(basename(q.doc_file));
    if (!expected) {
      missing++;
      continue;
    }
    const selection = await collection.select(q.question);
    const top = selection.ranked.map((r) => r.doc_id);
    const source = String(q.source_benchmark ?? 'other').split(' ')[0];
    add('all', top[0] === expected, top.slice(0, 3).includes(expected));
    add(source, top[0] === expected, top.slice(0, 3).includes(expected));
    if ((i + 1) % 50 === 0) process.stderr.write(`  ${basename(dataDir)} ${i + 1}/${questions.length}\n`);
  }
}
const rows = [...groups].map(([group, g]) => ({ group, questions: g.n, accuracy_at_1: Number((g.at1 / g.n).toFixed(3)), recall_at_3: Number((g.at3 / g.n).toFixed(3)) }));
if (args.includes('--json')) console.log(JSON.stringify({ documents: manifest.documents.length, missing, rows }, null, 2));
else {
  console.log(`collection of ${manifest.documents.length} documents; ${missing} question(s) whose document is not in it were skipped`);
  for (const r of rows) console.log(`${r.group.padEnd(16)} ${String(r.questions).padStart(4)} questions  accuracy@1 ${(100 * r.accuracy_at_1).toFixed(1)} %  recall@3 ${(100 * r.recall_at_3).toFixed(1)} %`);
}
