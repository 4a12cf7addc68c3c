#!/usr/bin/env node
// Ingest benchmark: for each dev PDF, the wall time of DocTree's PDF ingest (adapt + enhance + build, in a
// child process so peak RSS is per document) against `pdftotext -layout` on the same file in the same run.
// Prints pages/s, the wall-time ratio to pdftotext, the CPU-time ratio (robust when other work shares the machine;
// DocTree's CPU includes its page worker threads), and peak RSS. `--repeat N` keeps the fastest of N runs of each tool.
// `--workers N|auto` is passed to adaptPdf (auto, the CLI's default, uses one worker thread per core for long PDFs).
// Also times the CLI on the whole set, `doctree ingest <all 17 files> --out <tmp>` (one process, files read side by side on
// the cores, pdf.js and the JIT warm from one file to the next; everything written), wall time of the whole process from
// its start, against the sum of the same pdftotext runs; `--no-set` skips it, `--set-jobs N` passes `--jobs N`.
// `--floor` also times pdf.js's own text extraction (getTextContent of every page, nothing else, one thread, with the
// same engine set-up and pdf.js patches as the ingest run): the least any pdf.js-based ingest can cost, as a ratio to pdftotext.
// OCR: pages without a text layer go through tesseract (when it and pdftoppm are installed); the bench prints OCR pages/s
// (pages that went through OCR / seconds spent in OCR, summed over the documents) beside the ratios. `--image-only` runs
// on the documents that `<data>/documents.json` lists with `has_text_layer: false`, with `--data` defaulting to the wide
// split (../shared/data/eval/wide: 9 slide decks, 254 pages).
// OCR runs in child processes (pdftoppm, tesseract): their CPU is counted apart (`OCR CPU`, from /usr/bin/time of the child
// less its Node threads), and the ratios are given with and without it.
// `--pdf-dir DIR` takes the PDFs of any folder (symbolic links are fine: a mix of dev and wide files) instead of
// `<data>/pdfs`. `--baseline-dist DIR` also runs every document with another build of @doctree/ingest (a copy of
// `packages/ingest/dist` from before a change, placed where it resolves `@doctree/schema` and `unpdf`, e.g. in a folder
// whose `node_modules` links to the workspace's), right after the current build on the same file: before and after in the
// same run. `--collection` also builds a collection of the same files with the CLI (`doctree collection ingest`, one
// worker thread per core, index included) and times it against the same pdftotext runs.
// Needs `npm run setup` (built dist) and poppler-utils; CPU time of pdftotext needs /usr/bin/time.
//
//   node tools/bench/ingest/bench-ingest.mjs [--data ../shared/data/eval/dev | --pdf-dir DIR] [--image-only] [--limit N] [--repeat N]
//        [--workers N|auto] [--floor] [--baseline-dist DIR] [--collection] [--no-set] [--json]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const imageOnly = args.includes('--image-only');
const dataDir = resolve(root, option('--data', imageOnly ? '../shared/data/eval/wide' : '../shared/data/eval/dev'));
const limit = Number(option('--limit', '1000'));
const repeat = Math.max(1, Number(option('--repeat', '1')));
const workersOption = option('--workers', 'auto');
const workers = workersOption === 'auto' ? 'auto' : Number(workersOption);
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const floor = args.includes('--floor');
const setRun = !args.includes('--no-set');
const setJobs = option('--set-jobs', 'auto');
const cli = join(root, 'apps', 'cli', 'bin', 'doctree.js');
const json = args.includes('--json');
const pdfDir = option('--pdf-dir', undefined) ? resolve(option('--pdf-dir')) : join(dataDir, 'pdfs');
const baselineDist = option('--baseline-dist', undefined) ? resolve(option('--baseline-dist')) : undefined;
const collectionRun = args.includes('--collection');
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
if (baselineDist && !existsSync(join(baselineDist, 'index.js'))) {
  console.error(`bench-ingest: --baseline-dist ${baselineDist} has no index.js (give a copy of packages/ingest/dist).`);
  process.exit(2);
}

// The child ingests one PDF in memory (no writes) and reports its timing, pages and peak RSS.
const child = `
const { readFileSync } = await import('node:fs');
const { pathToFileURL } = await import('node:url');
const m = await import(pathToFileURL(process.argv[2]).href);
const file = process.argv[1];
const bytes = new Uint8Array(readFileSync(file));
// One-time engine start-up (module load + pdf.js initialisation) is measured apart from the per-document work.
const s0 = performance.now();
const engine = await m.checkPdfEngine();
const startupMs = performance.now() - s0;
const c0 = process.cpuUsage();
const t0 = performance.now();
let ocr = { pages: 0, ms: 0 };
const adapted = await m.adaptPdf(bytes, { docId: 'bench', filename: file.split('/').pop(), workers: ${JSON.stringify(workers)}, onOcr: (s) => { ocr = s; } });
const { list } = m.enhanceContentList(adapted);
const tree = m.buildDocTree(list);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const all = process.cpuUsage();
console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, nodeCpuMs: (all.user + all.system) / 1000, startupMs, ocrPages: ocr.pages, ocrMs: ocr.ms, patches: engine.patches ?? [], pages: tree.doc.page_count, nodes: tree.nodes.length, tables: tree.nodes.filter((n) => n.role === 'table').length, figures: tree.nodes.filter((n) => n.role === 'image' || n.role === 'chart').length, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
`;

// pdf.js text extraction alone (the floor): every page's getTextContent, in a fresh process like the ingest run.
const floorChild = `
const { readFileSync } = await import('node:fs');
const m = await import(${JSON.stringify(dist)});
// The same engine set-up as the ingest run (Node 20 shim, ingest's patched pdf.js), untimed; documents open as ingest
// opens them (the module is internal to the package, so it is imported from its dist path).
await m.checkPdfEngine();
const { openPdfDocument } = await import(${JSON.stringify(join(root, 'packages', 'ingest', 'dist', 'pdf', 'pdf-document.js'))});
const bytes = new Uint8Array(readFileSync(process.argv[1]));
const c0 = process.cpuUsage();
const t0 = performance.now();
const { proxy: pdf } = await openPdfDocument(bytes, { filename: 'floor.pdf' });
for (let i = 1; i <= pdf.numPages; i++) { const page = await pdf.getPage(i); await page.getTextContent(); page.cleanup(); }
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

/** One pdftotext -layout run: wall ms, and CPU ms when /usr/bin/time is there. */
function pdftotext(file) {
  const p0 = performance.now();
  if (!gnuTime) {
    execFileSync('pdftotext', ['-layout', file, '-'], { maxBuffer: 1 << 30, stdio: ['ignore', 'ignore', 'ignore'] });
    return { ms: performance.now() - p0 };
  }
  const run = spawnSync(gnuTime, ['-f', '%U %S', 'pdftotext', '-layout', file, '/dev/null'], { encoding: 'utf8' });
  const ms = performance.now() - p0;
  const [user, system] = (run.stderr || '').trim().split('\n').pop().split(' ').map(Number);
  return { ms, cpuMs: (user + system) * 1000 };
}

/**
 * One document in a fresh Node process with the given build of @doctree/ingest; under /usr/bin/time (when present) the CPU
 * of its child processes (OCR: pdftoppm, tesseract) is the process total less its Node threads.
 */
function ingestChild(file, indexJs) {
  const nodeArgs = ['--input-type=module', '-e', child, file, indexJs];
  const run = gnuTime
    ? spawnSync(gnuTime, ['-f', 'GNUTIME=%U %S', process.execPath, ...nodeArgs], { encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(process.execPath, nodeArgs, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) return { error: (run.stderr || '').trim().split('\n').slice(-1)[0] };
  const r = JSON.parse(run.stdout.trim().split('\n').pop());
  const timed = /GNUTIME=([\d.]+) ([\d.]+)/.exec(run.stderr || '');
  r.ocrCpuMs = timed ? Math.max(0, (Number(timed[1]) + Number(timed[2])) * 1000 - r.nodeCpuMs) : undefined;
  return r;
}

/** The fastest of `repeat` runs of `fn` (by wall time). */
function fastest(fn) {
  let best;
  for (let i = 0; i < repeat; i++) {
    const r = fn();
    if (r.error) return r;
    if (!best || r.ms < best.ms) best = r;
  }
  return best;
}

/** With --image-only: the PDFs `documents.json` lists without a text layer. */
function imageOnlyNames() {
  const listFile = join(dataDir, 'documents.json');
  if (!existsSync(listFile)) {
    console.error(`bench-ingest: --image-only needs ${listFile} (has_text_layer per document).`);
    process.exit(2);
  }
  const documents = JSON.parse(readFileSync(listFile, 'utf8'));
  const entries = Array.isArray(documents) ? documents.map((d) => [d.doc_file ?? d.file, d]) : Object.entries(documents);
  return new Set(entries.filter(([, d]) => d.has_text_layer === false).map(([name, d]) => (d.doc_file ?? name).split('/').pop()));
}
const wanted = imageOnly ? imageOnlyNames() : undefined;
const files = readdirSync(pdfDir)
  .filter((f) => f.endsWith('.pdf') && (!wanted || wanted.has(f)))
  .sort()
  .slice(0, limit);
const rows = [];
const loadBefore = loadavg()[0];
for (const name of files) {
  const file = join(pdfDir, name);
  const p = fastest(() => pdftotext(file));
  const r = fastest(() => ingestChild(file, dist));
  const b = baselineDist ? fastest(() => ingestChild(file, join(baselineDist, 'index.js'))) : undefined;
  if (r.error) {
    rows.push({ name, error: r.error });
    continue;
  }
  const f = floor
    ? fastest(() => {
        const run = spawnSync(process.execPath, ['--input-type=module', '-e', floorChild, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
        if (run.status !== 0) return { error: (run.stderr || '').trim().split('\n').slice(-1)[0] };
        return JSON.parse(run.stdout.trim().split('\n').pop());
      })
    : undefined;
  rows.push({
    name,
    pages: r.pages,
    bytes: statSync(file).size,
    doctreeMs: r.ms,
    doctreeCpuMs: r.cpuMs,
    ocrCpuMs: r.ocrCpuMs,
    baseline: b && !b.error ? { ms: b.ms, cpuMs: b.cpuMs, ocrCpuMs: b.ocrCpuMs, maxRssMb: b.maxRssMb, nodes: b.nodes, tables: b.tables, figures: b.figures } : b?.error ? { error: b.error } : undefined,
    startupMs: r.startupMs,
    pdftotextMs: p.ms,
    pdftotextCpuMs: p.cpuMs,
    ratio: r.ms / p.ms,
    cpuRatio: p.cpuMs ? r.cpuMs / p.cpuMs : undefined,
    pdfjsTextMs: f && !f.error ? f.ms : undefined,
    pdfjsTextRatio: f && !f.error ? f.ms / p.ms : undefined,
    pagesPerSec: (r.pages / r.ms) * 1000,
    ocrPages: r.ocrPages,
    ocrMs: r.ocrMs,
    maxRssMb: r.maxRssMb,
    patches: r.patches,
    nodes: r.nodes,
    tables: r.tables,
    figures: r.figures,
  });
}
const ok = rows.filter((r) => !r.error);
/** The CLI on the whole set, `repeat` times; the fastest run. */
let set;
if (setRun && ok.length > 0) {
  for (let i = 0; i < repeat; i++) {
    const out = mkdtempSync(join(tmpdir(), 'doctree-bench-set-'));
    try {
      const c0 = performance.now();
      const run = spawnSync(gnuTime ?? process.execPath, [...(gnuTime ? ['-f', '%U %S %M', process.execPath] : []), cli, 'ingest', ...ok.map((r) => join(pdfDir, r.name)), '--out', out, '--jobs', setJobs], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      const ms = performance.now() - c0;
      if (run.status !== 0) {
        set = { error: (run.stderr || run.stdout || '').trim().split('\n').slice(-1)[0] };
        break;
      }
      const [user, system, maxRssKb] = gnuTime ? (run.stderr || '').trim().split('\n').pop().split(' ').map(Number) : [];
      const candidate = { ms, cpuMs: gnuTime ? (user + system) * 1000 : undefined, maxRssMb: gnuTime ? maxRssKb / 1024 : undefined };
      if (!set || candidate.ms < set.ms) set = candidate;
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
}
/** With --collection: `doctree collection ingest` of the same files (index included), whole process under /usr/bin/time. */
let collection;
if (collectionRun && ok.length > 0) {
  const work = mkdtempSync(join(tmpdir(), 'doctree-bench-collection-'));
  try {
    const input = join(work, 'in');
    mkdirSync(input);
    for (const r of ok) symlinkSync(join(pdfDir, r.name), join(input, r.name));
    const c0 = performance.now();
    const cliArgs = [cli, 'collection', 'ingest', '--input-dir', input, '--collection-dir', join(work, 'col'), '--json'];
    const run = spawnSync(gnuTime ?? process.execPath, [...(gnuTime ? ['-f', 'GNUTIME=%U %S %M', process.execPath] : []), ...cliArgs], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const ms = performance.now() - c0;
    const timed = /GNUTIME=([\d.]+) ([\d.]+) (\d+)/.exec(run.stderr || '');
    collection =
      run.status !== 0
        ? { error: (run.stderr || run.stdout || '').replace(/GNUTIME=.*\n?/, '').trim().split('\n').slice(-1)[0] }
        : { ms, cpuMs: timed ? (Number(timed[1]) + Number(timed[2])) * 1000 : undefined, maxRssMb: timed ? Number(timed[3]) / 1024 : undefined };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
const loadAfter = loadavg()[0];
const sum = (list, f) => list.reduce((s, r) => s + (f(r) ?? 0), 0);
const totalOcrCpu = sum(ok, (r) => r.ocrCpuMs);
const withBaseline = ok.filter((r) => r.baseline && !r.baseline.error);
const totalPages = ok.reduce((s, r) => s + r.pages, 0);
const totalMs = ok.reduce((s, r) => s + r.doctreeMs, 0);
const totalPdftotext = ok.reduce((s, r) => s + r.pdftotextMs, 0);
const totalCpu = ok.reduce((s, r) => s + r.doctreeCpuMs, 0);
const totalOcrPages = ok.reduce((s, r) => s + (r.ocrPages ?? 0), 0);
const totalOcrMs = ok.reduce((s, r) => s + (r.ocrMs ?? 0), 0);
const totalPdftotextCpu = ok.every((r) => r.pdftotextCpuMs !== undefined) ? ok.reduce((s, r) => s + r.pdftotextCpuMs, 0) : undefined;
const summary = {
  documents: ok.length,
  failed: rows.length - ok.length,
  pages: totalPages,
  workers,
  cores: availableParallelism(),
  repeat,
  load_average_before: loadBefore,
  load_average_after: loadAfter,
  pages_per_sec: (totalPages / totalMs) * 1000,
  image_only: imageOnly,
  ocr_pages: totalOcrPages,
  ocr_seconds: totalOcrMs / 1000,
  ocr_pages_per_sec: totalOcrMs > 0 ? (totalOcrPages / totalOcrMs) * 1000 : undefined,
  ocr_share_of_ingest_time: totalOcrMs / totalMs,
  ratio_vs_pdftotext: totalMs / totalPdftotext,
  cpu_ratio_vs_pdftotext: totalPdftotextCpu ? totalCpu / totalPdftotextCpu : undefined,
  pdfjs_text_only_ratio_vs_pdftotext: floor ? ok.reduce((s, r) => s + (r.pdfjsTextMs ?? 0), 0) / totalPdftotext : undefined,
  peak_rss_mb: Math.max(...ok.map((r) => r.maxRssMb)),
  largest_document: ok.slice().sort((a, b) => b.pages - a.pages)[0]?.name,
  largest_document_rss_mb: ok.slice().sort((a, b) => b.pages - a.pages)[0]?.maxRssMb,
  engine_startup_ms_median: ok.map((r) => r.startupMs).sort((a, b) => a - b)[Math.floor(ok.length / 2)],
  ratio_vs_pdftotext_including_startup: (totalMs + ok.reduce((s, r) => s + r.startupMs, 0)) / totalPdftotext,
  ocr_cpu_seconds: gnuTime ? totalOcrCpu / 1000 : undefined,
  cpu_ratio_vs_pdftotext_with_ocr: totalPdftotextCpu && gnuTime ? (totalCpu + totalOcrCpu) / totalPdftotextCpu : undefined,
  baseline:
    withBaseline.length > 0
      ? {
          dist: baselineDist,
          documents: withBaseline.length,
          cpu_seconds: sum(withBaseline, (r) => r.baseline.cpuMs) / 1000,
          cpu_seconds_after: sum(withBaseline, (r) => r.doctreeCpuMs) / 1000,
          cpu_ratio_vs_pdftotext: totalPdftotextCpu ? sum(withBaseline, (r) => r.baseline.cpuMs) / sum(withBaseline, (r) => r.pdftotextCpuMs) : undefined,
          cpu_ratio_vs_pdftotext_after: totalPdftotextCpu ? sum(withBaseline, (r) => r.doctreeCpuMs) / sum(withBaseline, (r) => r.pdftotextCpuMs) : undefined,
          wall_ratio_vs_pdftotext: sum(withBaseline, (r) => r.baseline.ms) / sum(withBaseline, (r) => r.pdftotextMs),
          wall_ratio_vs_pdftotext_after: sum(withBaseline, (r) => r.doctreeMs) / sum(withBaseline, (r) => r.pdftotextMs),
          peak_rss_mb: Math.max(...withBaseline.map((r) => r.baseline.maxRssMb)),
        }
      : undefined,
  collection:
    collection && !collection.error
      ? {
          ms: collection.ms,
          ratio_vs_pdftotext: collection.ms / totalPdftotext,
          cpu_seconds: collection.cpuMs === undefined ? undefined : collection.cpuMs / 1000,
          cpu_ratio_vs_pdftotext: totalPdftotextCpu && collection.cpuMs !== undefined ? collection.cpuMs / totalPdftotextCpu : undefined,
          cpu_ratio_vs_pdftotext_without_ocr:
            totalPdftotextCpu && collection.cpuMs !== undefined && gnuTime ? (collection.cpuMs - totalOcrCpu) / totalPdftotextCpu : undefined,
          peak_rss_mb: collection.maxRssMb,
        }
      : collection?.error
        ? { error: collection.error }
        : undefined,
  set_with_cli:
    set && !set.error
      ? {
          ms: set.ms,
          pages_per_sec: (totalPages / set.ms) * 1000,
          ratio_vs_pdftotext: set.ms / totalPdftotext,
          cpu_ratio_vs_pdftotext: totalPdftotextCpu && set.cpuMs !== undefined ? set.cpuMs / totalPdftotextCpu : undefined,
          jobs: setJobs,
          peak_rss_mb: set.maxRssMb,
        }
      : set?.error
        ? { error: set.error }
        : undefined,
};
if (json) {
  console.log(JSON.stringify({ rows, summary }, null, 2));
} else {
  const pad = (s, n) => String(s).padEnd(n);
  const fixed = (n, d = 0) => (n === undefined ? '-' : n.toFixed(d));
  console.log(`workers: ${workers}, cores: ${summary.cores}, best of ${repeat} run(s), load average ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after, pdf.js patches: ${ok[0]?.patches?.join(', ') || 'none'}`);
  console.log(`${pad('document', 44)} ${pad('pages', 6)} ${pad('doctree ms', 11)} ${pad('pdftotext ms', 13)} ${pad('ratio', 6)} ${pad('cpu ratio', 10)} ${baselineDist ? `${pad('before: cpu ratio', 18)} ` : ''}${floor ? `${pad('pdf.js text ratio', 18)} ` : ''}${pad('pages/s', 8)} ${pad('OCR pages', 10)} ${pad('OCR ms', 8)} ${pad('OCR CPU ms', 11)} ${pad('peak RSS MB', 12)} tables figures`);
  for (const r of rows) {
    if (r.error) console.log(`${pad(r.name, 44)} ERROR ${r.error}`);
    else {
      const before = r.baseline && !r.baseline.error && r.pdftotextCpuMs ? r.baseline.cpuMs / r.pdftotextCpuMs : undefined;
      console.log(`${pad(r.name.slice(0, 43), 44)} ${pad(r.pages, 6)} ${pad(r.doctreeMs.toFixed(0), 11)} ${pad(r.pdftotextMs.toFixed(0), 13)} ${pad(r.ratio.toFixed(2), 6)} ${pad(fixed(r.cpuRatio, 2), 10)} ${baselineDist ? `${pad(r.baseline?.error ? 'ERROR' : fixed(before, 2), 18)} ` : ''}${floor ? `${pad(fixed(r.pdfjsTextRatio, 2), 18)} ` : ''}${pad(r.pagesPerSec.toFixed(1), 8)} ${pad(r.ocrPages ?? 0, 10)} ${pad((r.ocrMs ?? 0).toFixed(0), 8)} ${pad(fixed(r.ocrCpuMs), 11)} ${pad(r.maxRssMb.toFixed(0), 12)} ${pad(r.tables, 6)} ${r.figures}`);
    }
  }
  console.log(
    `\nall: ${summary.documents} documents, ${summary.pages} pages, ${summary.pages_per_sec.toFixed(1)} pages/s, ${summary.ratio_vs_pdftotext.toFixed(2)}x pdftotext -layout wall time, ${fixed(summary.cpu_ratio_vs_pdftotext, 2)}x its CPU time, ` +
      `OCR ${summary.ocr_pages_per_sec === undefined ? 'none' : `${summary.ocr_pages_per_sec.toFixed(2)} pages/s (${totalOcrPages} pages in ${summary.ocr_seconds.toFixed(1)} s, ${(100 * summary.ocr_share_of_ingest_time).toFixed(0)}% of ingest time)`}, ` +
      `peak RSS ${summary.peak_rss_mb.toFixed(0)} MB (largest: ${summary.largest_document})`,
  );
  if (gnuTime) console.log(`OCR child processes (pdftoppm, tesseract): ${summary.ocr_cpu_seconds.toFixed(1)} s CPU; ingest CPU with OCR: ${fixed(summary.cpu_ratio_vs_pdftotext_with_ocr, 2)}x pdftotext's CPU time (without: ${fixed(summary.cpu_ratio_vs_pdftotext, 2)}x)`);
  const base = summary.baseline;
  if (base) {
    console.log(
      `before (${base.dist}) / after, same run, ${base.documents} documents: CPU ${base.cpu_seconds.toFixed(1)} s / ${base.cpu_seconds_after.toFixed(1)} s ` +
        `(${fixed(base.cpu_ratio_vs_pdftotext, 2)}x / ${fixed(base.cpu_ratio_vs_pdftotext_after, 2)}x pdftotext's CPU), wall ${base.wall_ratio_vs_pdftotext.toFixed(2)}x / ${base.wall_ratio_vs_pdftotext_after.toFixed(2)}x, peak RSS ${fixed(base.peak_rss_mb)} MB before`,
    );
  }
  if (floor) console.log(`pdf.js text extraction alone (getTextContent of every page, one thread): ${fixed(summary.pdfjs_text_only_ratio_vs_pdftotext, 2)}x pdftotext -layout wall time`);
  console.log(`one-time engine start-up per process: ${summary.engine_startup_ms_median.toFixed(0)} ms median (ratio including it in every document: ${summary.ratio_vs_pdftotext_including_startup.toFixed(2)}x)`);
  const one = summary.set_with_cli;
  if (one?.error) console.log(`set in one process: ERROR ${one.error}`);
  else if (one) {
    console.log(
      `the set with the CLI (doctree ingest <${ok.length} files> --jobs ${setJobs}, whole process, files written): ${(one.ms / 1000).toFixed(1)} s, ${one.pages_per_sec.toFixed(1)} pages/s, ` +
        `${one.ratio_vs_pdftotext.toFixed(2)}x pdftotext -layout wall time, ${fixed(one.cpu_ratio_vs_pdftotext, 2)}x its CPU time, peak RSS ${fixed(one.peak_rss_mb)} MB`,
    );
  }
  const col = summary.collection;
  if (col?.error) console.log(`collection build: ERROR ${col.error}`);
  else if (col) {
    console.log(
      `collection build (doctree collection ingest, ${ok.length} files, index included, whole process): ${(col.ms / 1000).toFixed(1)} s = ${col.ratio_vs_pdftotext.toFixed(2)}x pdftotext -layout wall time, ` +
        `${fixed(col.cpu_seconds, 1)} s CPU = ${fixed(col.cpu_ratio_vs_pdftotext, 2)}x its CPU time (${fixed(col.cpu_ratio_vs_pdftotext_without_ocr, 2)}x less the OCR CPU measured above), peak RSS ${fixed(col.peak_rss_mb)} MB`,
    );
  }
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  console.log(
    `targets: <= 4x pdftotext wall time: fresh process per document ${verdict(summary.ratio_vs_pdftotext <= 4)} (${summary.ratio_vs_pdftotext.toFixed(2)}x)` +
      `${one && !one.error ? `, the set with the CLI ${verdict(one.ratio_vs_pdftotext <= 4)} (${one.ratio_vs_pdftotext.toFixed(2)}x)` : ''}; ` +
      `peak RSS < 1500 MB on the largest document: ${verdict(summary.largest_document_rss_mb < 1500)} (${fixed(summary.largest_document_rss_mb)} MB)`,
  );
}
