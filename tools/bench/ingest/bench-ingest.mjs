#!/usr/bin/env node
// Ingest benchmark: for each dev PDF, the wall time of DocTree's PDF ingest (adapt + enhance + build, in a
// child process so peak RSS is per document) against `pdftotext -layout` on the same file in the same run.
// Prints pages/s, the time ratio to pdftotext, and peak RSS. Needs `npm run setup` (built dist) and poppler-utils.
//
//   node tools/bench/ingest/bench-ingest.mjs [--data ../shared/data/eval/dev] [--limit N] [--json]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dataDir = resolve(root, option('--data', '../shared/data/eval/dev'));
const limit = Number(option('--limit', '1000'));
const json = args.includes('--json');
const pdfDir = join(dataDir, 'pdfs');
if (!existsSync(pdfDir)) {
  console.log(`bench-ingest: no PDFs at ${pdfDir} (pass --data DIR); nothing to measure.`);
  process.exit(0);
}
if (spawnSync('pdftotext', ['-v']).error) {
  console.error('bench-ingest: pdftotext not found; install poppler-utils (apt-get install poppler-utils).');
  process.exit(2);
}
const dist = join(root, 'packages', 'ingest', 'dist', 'index.js');
if (!existsSync(dist)) {
  console.error('bench-ingest: packages/ingest/dist missing; run `npm run setup` first.');
  process.exit(2);
}

// The child ingests one PDF in memory (no writes) and reports its timing, pages and peak RSS.
const child = `
const { readFileSync } = await import('node:fs');
const m = await import(${JSON.stringify(dist)});
const file = process.argv[1];
const bytes = new Uint8Array(readFileSync(file));
// One-time engine start-up (module load + pdf.js initialisation) is measured apart from the per-document work.
const s0 = performance.now();
await m.checkPdfEngine();
const startupMs = performance.now() - s0;
const t0 = performance.now();
const adapted = await m.adaptPdf(bytes, { docId: 'bench', filename: file.split('/').pop() });
const { list } = m.enhanceContentList(adapted);
const tree = m.buildDocTree(list);
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, startupMs, pages: tree.doc.page_count, nodes: tree.nodes.length, tables: tree.nodes.filter((n) => n.role === 'table').length, figures: tree.nodes.filter((n) => n.role === 'image' || n.role === 'chart').length, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
`;

const files = readdirSync(pdfDir).filter((f) => f.endsWith('.pdf')).sort().slice(0, limit);
const rows = [];
for (const name of files) {
  const file = join(pdfDir, name);
  const p0 = performance.now();
  execFileSync('pdftotext', ['-layout', file, '-'], { maxBuffer: 1 << 30, stdio: ['ignore', 'ignore', 'ignore'] });
  const pdftotextMs = performance.now() - p0;
  const w0 = performance.now();
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', child, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallMs = performance.now() - w0;
  if (run.status !== 0) {
    rows.push({ name, error: (run.stderr || '').trim().split('\n').slice(-1)[0] });
    continue;
  }
  const r = JSON.parse(run.stdout.trim().split('\n').pop());
  rows.push({ name, pages: r.pages, bytes: statSync(file).size, doctreeMs: r.ms, startupMs: r.startupMs, wallMs, pdftotextMs, ratio: r.ms / pdftotextMs, pagesPerSec: (r.pages / r.ms) * 1000, maxRssMb: r.maxRssMb, nodes: r.nodes, tables: r.tables, figures: r.figures });
}
const ok = rows.filter((r) => !r.error);
const totalPages = ok.reduce((s, r) => s + r.pages, 0);
const totalMs = ok.reduce((s, r) => s + r.doctreeMs, 0);
const totalPdftotext = ok.reduce((s, r) => s + r.pdftotextMs, 0);
const summary = {
  documents: ok.length,
  failed: rows.length - ok.length,
  pages: totalPages,
  pages_per_sec: (totalPages / totalMs) * 1000,
  ratio_vs_pdftotext: totalMs / totalPdftotext,
  peak_rss_mb: Math.max(...ok.map((r) => r.maxRssMb)),
  largest_document: ok.slice().sort((a, b) => b.pages - a.pages)[0]?.name,
  engine_startup_ms_median: ok.map((r) => r.startupMs).sort((a, b) => a - b)[Math.floor(ok.length / 2)],
  ratio_vs_pdftotext_including_startup: (totalMs + ok.reduce((s, r) => s + r.startupMs, 0)) / totalPdftotext,
};
if (json) {
  console.log(JSON.stringify({ rows, summary }, null, 2));
} else {
  const pad = (s, n) => String(s).padEnd(n);
  console.log(`${pad('document', 44)} ${pad('pages', 6)} ${pad('doctree ms', 11)} ${pad('pdftotext ms', 13)} ${pad('ratio', 6)} ${pad('pages/s', 8)} ${pad('peak RSS MB', 12)} tables figures`);
  for (const r of rows) {
    if (r.error) console.log(`${pad(r.name, 44)} ERROR ${r.error}`);
    else console.log(`${pad(r.name.slice(0, 43), 44)} ${pad(r.pages, 6)} ${pad(r.doctreeMs.toFixed(0), 11)} ${pad(r.pdftotextMs.toFixed(0), 13)} ${pad(r.ratio.toFixed(2), 6)} ${pad(r.pagesPerSec.toFixed(1), 8)} ${pad(r.maxRssMb.toFixed(0), 12)} ${pad(r.tables, 6)} ${r.figures}`);
  }
  console.log(`\nall: ${summary.documents} documents, ${summary.pages} pages, ${summary.pages_per_sec.toFixed(1)} pages/s, ${summary.ratio_vs_pdftotext.toFixed(2)}x pdftotext -layout time, peak RSS ${summary.peak_rss_mb.toFixed(0)} MB (largest: ${summary.largest_document})`);
  console.log(`one-time engine start-up per process: ${summary.engine_startup_ms_median.toFixed(0)} ms median (ratio including it in every document: ${summary.ratio_vs_pdftotext_including_startup.toFixed(2)}x)`);
  console.log('targets: <= 4x pdftotext, peak RSS < 1500 MB on the largest document');
}
