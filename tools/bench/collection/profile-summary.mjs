#!/usr/bin/env node
// Sums V8 CPU profiles (`*.cpuprofile`, e.g. from `bench-collection.mjs --cpu-prof DIR`) into the stages of a collection
// build: pdf.js (PDF parsing and text extraction), the rest of ingest (layout, tables, tree), index (summaries,
// embeddings, sparse, graph), selection data, module loading, garbage collection and idle time. Sample time is wall
// time of each thread, so on a loaded machine read the shares, not the seconds.
//
//   node tools/bench/collection/profile-summary.mjs DIR|FILE... [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const json = args.includes('--json');
const files = args
  .filter((a) => !a.startsWith('--'))
  .flatMap((a) => (statSync(a).isDirectory() ? readdirSync(a).filter((n) => n.endsWith('.cpuprofile')).map((n) => join(a, n)) : [a]));
if (files.length === 0) {
  console.error('profile-summary: pass a folder or files of .cpuprofile');
  process.exit(2);
}

/** The stage of one sample, from its stack (innermost frame first). */
function stageOf(stack) {
  for (const { functionName: fn, url } of stack) {
    if (fn === 'selectionData') return 'selection data';
    if (fn === 'buildDocIndex') return 'index';
    if (fn === 'ingestFile' || url.includes('/ingest/dist/')) return 'ingest (DocTree code)';
    if (url.includes('/pdfjs-dist/') || url.length > 200) return 'pdf.js (ingest)'; // pdf.js runs from a data: URL in-thread
    if (url.startsWith('node:internal/modules')) return 'module loading';
  }
  const top = stack[0]?.functionName ?? '';
  return top.startsWith('(') ? top : 'other';
}

const totals = new Map();
let all = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const perNode = new Map();
  profile.samples.forEach((id, i) => perNode.set(id, (perNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  for (const [id, us] of perNode) {
    const stack = [];
    for (let j = id; j !== undefined; j = parent.get(j)) stack.push(nodes.get(j).callFrame);
    const stage = stageOf(stack);
    totals.set(stage, (totals.get(stage) ?? 0) + us);
    all += us;
  }
}
const rows = [...totals].sort((a, b) => b[1] - a[1]).map(([stage, us]) => ({ stage, s: Number((us / 1e6).toFixed(2)), share: Number(((100 * us) / all).toFixed(1)) }));
if (json) console.log(JSON.stringify({ profiles: files.length, total_s: Number((all / 1e6).toFixed(2)), stages: rows }, null, 2));
else {
  console.log(`${files.length} profile(s), ${(all / 1e6).toFixed(1)} s sampled`);
  for (const r of rows) console.log(`${r.stage.padEnd(24)} ${r.s.toFixed(1).padStart(7)} s ${r.share.toFixed(1).padStart(5)} %`);
}
