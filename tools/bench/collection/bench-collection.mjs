#!/usr/bin/env node
// Collection build benchmark: `doctree collection ingest` of a folder of PDFs (ingest + index of every document in one
// process, one worker thread per core) against `pdftotext -layout` of the same files in the same run, one file after
// the other. Prints progress while the collection builds, then the wall-time ratio (goal <= 4x), the peak RSS of the
// build (goal < 1.5 GB), the CPU-time ratio (robust when other work shares the machine), the time of a second sync with nothing changed (no document rebuilt), and the pages.
// The documents are read where they are (a subset is a folder of links in a temporary folder; nothing is copied).
//
//   node tools/bench/collection/bench-collection.mjs [--data ../shared/data/eval/wide] [--limit N] [--jobs N|auto]
//        [--embedder hashing|sif|openai] [--keep DIR] [--cpu-prof DIR] [--text-layer-only] [--ocr-reference] [--json]
// --text-layer-only builds only the files in which pdftotext finds text on at least half the pages: image-only files (scans, slide decks exported as pictures) are read by OCR in DocTree, while pdftotext reads
// nothing from them, so their build time has no counterpart in the reference. Without it, every file is built and the
// image-only ones are counted apart in the output.
// --ocr-reference also times the plain tools' OCR of the pages pdftotext reads nothing from (pdftoppm at 200 dpi, then
// single-threaded tesseract over the renders, one file after the other) and prints the ratio against pdftotext + that reference.
// --cpu-prof DIR writes V8 CPU profiles of the build (the CLI's main thread and each build worker thread) into DIR
// (open them in Chrome DevTools › Performance, or sum self time per package) to see where the build's time goes.
// Needs built dist (`npx nx run-many -t build -p cli`), poppler-utils (pdftotext) and /usr/bin/time for peak RSS.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dataDir = resolve(root, option('--data', '../shared/data/eval/wide'));
const pdfDir = existsSync(join(dataDir, 'pdfs')) ? join(dataDir, 'pdfs') : dataDir;
const limit = Number(option('--limit', '100000'));
const jobs = option('--jobs', 'auto');
const embedder = option('--embedder', undefined);
const keep = option('--keep', undefined);
const json = args.includes('--json');
const cpuProf = option('--cpu-prof', undefined);
const textLayerOnly = args.includes('--text-layer-only');
const ocrReferenceRun = args.includes('--ocr-reference');
const cli = join(root, 'apps', 'cli', 'bin', 'doctree.js');
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const log = (line) => process.stderr.write(`${line}\n`);

if (!existsSync(pdfDir)) {
  console.log(`bench-collection: no PDFs at ${pdfDir} (pass --data DIR); nothing to measure.`);
  process.exit(0);
}
if (spawnSync('pdftotext', ['-v']).error) {
  console.error('bench-collection: pdftotext not found; install poppler-utils.');
  process.exit(2);
}
if (!existsSync(join(root, 'packages', 'pipeline', 'dist', 'collection', 'build-worker.js'))) {
  console.error('bench-collection: build first (npx nx run-many -t build -p cli): the build worker script is missing.');
  process.exit(2);
}

const allPdfs = readdirSync(pdfDir).filter((n) => n.toLowerCase().endsWith('.pdf')).sort().slice(0, limit);
const work = mkdtempSync(join(tmpdir(), 'doctree-bench-collection-'));
const input = join(work, 'input');
mkdirSync(input);
const collectionDir = keep ? resolve(keep) : join(work, 'collection');
log(`bench-collection: ${allPdfs.length} PDF(s) from ${pdfDir}; ${availableParallelism()} core(s), load ${loadavg()[0].toFixed(2)}`);

// pdftotext -layout, one file after the other (CPU time from /usr/bin/time when present); what it read tells the files
// with a text layer from the image-only ones.
const pdftotext = new Map();
for (const [i, name] of allPdfs.entries()) {
  const t = performance.now();
  const run = gnuTime
    ? spawnSync(gnuTime, ['-f', 'CPUS=%U %S', 'pdftotext', '-layout', join(pdfDir, name), join(work, 'out.txt')], { encoding: 'utf8' })
    : spawnSync('pdftotext', ['-layout', join(pdfDir, name), join(work, 'out.txt')]);
  const ms = performance.now() - t;
  const cpu = /CPUS=([\d.]+) ([\d.]+)/.exec(run.stderr ?? '');
  let text = '';
  try {
    text = readFileSync(join(work, 'out.txt'), 'utf8');
  } catch {
    text = '';
  }
  // pdftotext ends every page with a form feed; a page where it reads no character is one DocTree OCRs.
  const pageTexts = text.split('\f').slice(0, -1);
  const pages = Math.max(1, pageTexts.length);
  const textlessPages = pageTexts.flatMap((page, i) => (page.trim() === '' ? [i + 1] : []));
  const textless = textlessPages.length;
  pdftotext.set(name, { ms, cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : 0, pages, textless, textlessPages, textLayer: textless * 2 < pages });
  if ((i + 1) % 10 === 0 || i + 1 === allPdfs.length) log(`  pdftotext ${i + 1}/${allPdfs.length}`);
}
const imageOnly = allPdfs.filter((name) => !pdftotext.get(name).textLayer);
const pdfs = textLayerOnly ? allPdfs.filter((name) => pdftotext.get(name).textLayer) : allPdfs;
for (const name of pdfs) symlinkSync(join(pdfDir, name), join(input, name));
const bytes = pdfs.reduce((n, name) => n + statSync(join(pdfDir, name)).size, 0);
const pdftotextMs = pdfs.reduce((n, name) => n + pdftotext.get(name).ms, 0);
const pdftotextCpuS = pdfs.reduce((n, name) => n + pdftotext.get(name).cpuS, 0);
const imagePages = imageOnly.reduce((n, name) => n + pdftotext.get(name).pages, 0);
const textlessPages = pdfs.reduce((n, name) => n + pdftotext.get(name).textless, 0);
log(`  pdftotext -layout: ${(pdftotextMs / 1000).toFixed(1)} s; ${imageOnly.length} image-only file(s) (${imagePages} pages) ${textLayerOnly ? 'left out (--text-layer-only)' : 'built with OCR'}`);
log(`  building ${pdfs.length} PDF(s), ${(bytes / 1e6).toFixed(1)} MB`);

// --ocr-reference: the plain tools' OCR of the same pages, one file after the other: `pdftoppm -r 200 -gray` of the pages
// pdftotext read nothing from, then one single-threaded `tesseract … tsv` over the renders (OMP_THREAD_LIMIT=1, its
// cheapest setting), as a user without DocTree would read them. Added to pdftotext's time, it is the reference for a build that OCRs those pages.
let ocrReference;
if (ocrReferenceRun) {
  const scratch = join(work, 'ocr-reference');
  let ms = 0;
  let cpuS = 0;
  let pagesRead = 0;
  const timed = (program, programArgs, env) => {
    const t = performance.now();
    const run = gnuTime
      ? spawnSync(gnuTime, ['-f', 'CPUS=%U %S', program, ...programArgs], { encoding: 'utf8', env: env ?? process.env, maxBuffer: 256 << 20 })
      : spawnSync(program, programArgs, { encoding: 'utf8', env: env ?? process.env, maxBuffer: 256 << 20 });
    ms += performance.now() - t;
    const cpu = /CPUS=([\d.]+) ([\d.]+)/.exec(run.stderr ?? '');
    if (cpu) cpuS += Number(cpu[1]) + Number(cpu[2]);
  };
  for (const name of pdfs) {
    const pages = pdftotext.get(name).textlessPages;
    if (pages.length === 0) continue;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch);
    // One pdftoppm run per range of consecutive pages (renders `r<first>-<page>.pgm`).
    for (let i = 0; i < pages.length; ) {
      let j = i;
      while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j++;
      timed('pdftoppm', ['-f', String(pages[i]), '-l', String(pages[j]), '-r', '200', '-gray', join(pdfDir, name), join(scratch, `r${pages[i]}`)]);
      i = j + 1;
    }
    const renders = readdirSync(scratch)
      .filter((file) => file.endsWith('.pgm'))
      .sort((a, b) => Number(/-(\d+)\.pgm$/.exec(a)?.[1]) - Number(/-(\d+)\.pgm$/.exec(b)?.[1]));
    const list = join(scratch, 'list.txt');
    writeFileSync(list, renders.map((file) => join(scratch, file)).join('\n') + '\n');
    // Single-threaded, its fastest setting in CPU (its OpenMP threads spin): the reference is not slowed by them.
    timed('tesseract', [list, 'stdout', '-l', 'eng', '--psm', '3', 'tsv'], { ...process.env, OMP_THREAD_LIMIT: '1' });
    pagesRead += pages.length;
    log(`  OCR reference: ${pagesRead} page(s) read`);
  }
  rmSync(scratch, { recursive: true, force: true });
  ocrReference = { ms, cpuS, pages: pagesRead };
}

/** Runs the CLI under /usr/bin/time; resolves with wall ms, peak RSS (KB) and stdout. */
function runCli(cliArgs, onTick, profile = false) {
  return new Promise((resolveRun, reject) => {
    const nodeArgs = profile && cpuProf ? ['--cpu-prof', '--cpu-prof-dir', resolve(cpuProf)] : [];
    const env = { ...process.env, ...(embedder ? { DOCTREE_EMBEDDER: embedder } : {}) };
    const command = gnuTime ? gnuTime : process.execPath;
    const commandArgs = gnuTime ? ['-f', 'RSSKB=%M CPUS=%U %S', process.execPath, ...nodeArgs, cli, ...cliArgs] : [...nodeArgs, cli, ...cliArgs];
    const started = performance.now();
    const child = spawn(command, commandArgs, { env, cwd: root });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setInterval(() => onTick?.(performance.now() - started), 5000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      const rss = Number(/RSSKB=(\d+)/.exec(err)?.[1] ?? NaN);
      const cpu = /CPUS=([\d.]+) ([\d.]+)/.exec(err);
      resolveRun({ code, ms: performance.now() - started, rssKb: rss, cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN, out, err: err.replace(/RSSKB=.*\n?/, '') });
    });
  });
}

const landed = () => {
  try {
    return JSON.parse(readFileSync(join(collectionDir, 'collection.json'), 'utf8')).documents.length;
  } catch {
    return 0;
  }
};
const build = await runCli(['collection', 'ingest', '--input-dir', input, '--collection-dir', collectionDir, '--jobs', jobs, '--json'], (ms) =>
  log(`  collection ingest: ${landed()}/${pdfs.length} document(s) landed after ${(ms / 1000).toFixed(0)} s`),
  true,
);
if (cpuProf) log(`  CPU profiles in ${resolve(cpuProf)}`);
if (build.code !== 0 && !build.out.trim().startsWith('{')) {
  console.error(`bench-collection: the build failed (exit ${build.code}):\n${build.err}`);
  process.exit(1);
}
const report = JSON.parse(build.out);
log(`  collection ingest: ${(build.ms / 1000).toFixed(1)} s, ${report.added.length} added, ${report.failed.length} failed`);
const resync = await runCli(['collection', 'sync', '--collection-dir', collectionDir, '--json']);
const again = JSON.parse(resync.out);
const manifest = JSON.parse(readFileSync(join(collectionDir, 'collection.json'), 'utf8'));
const pages = manifest.documents.reduce((n, d) => n + d.pages, 0);

const result = {
  documents: pdfs.length,
  pages,
  image_only_files: imageOnly.length,
  image_only_pages: imagePages,
  image_only_built: !textLayerOnly,
  textless_pages_built: textlessPages,
  ...(ocrReference
    ? {
        ocr_reference_ms: Math.round(ocrReference.ms),
        ocr_reference_cpu_s: Number(ocrReference.cpuS.toFixed(2)),
        ratio_with_ocr_reference: Number((build.ms / (pdftotextMs + ocrReference.ms)).toFixed(2)),
        cpu_ratio_with_ocr_reference: Number.isFinite(build.cpuS) ? Number((build.cpuS / (pdftotextCpuS + ocrReference.cpuS)).toFixed(2)) : null,
      }
    : {}),
  cores: availableParallelism(),
  workers: report.workers,
  pdftotext_ms: Math.round(pdftotextMs),
  collection_ms: Math.round(build.ms),
  ratio: Number((build.ms / pdftotextMs).toFixed(2)),
  pdftotext_cpu_s: Number(pdftotextCpuS.toFixed(2)),
  collection_cpu_s: Number.isFinite(build.cpuS) ? Number(build.cpuS.toFixed(2)) : null,
  cpu_ratio: Number.isFinite(build.cpuS) && pdftotextCpuS > 0 ? Number((build.cpuS / pdftotextCpuS).toFixed(2)) : null,
  load_average: Number(loadavg()[0].toFixed(2)),
  goal_ratio: 4,
  peak_rss_mb: Number.isFinite(build.rssKb) ? Math.round(build.rssKb / 1024) : null,
  build_timings_ms: report.timings_ms,
  failed: report.failed,
  resync_ms: Math.round(resync.ms),
  resync_rebuilt: again.added.length + again.updated.length,
  resync_unchanged: again.unchanged.length,
};
if (json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`documents ${result.documents} (${pages} pages, ${textlessPages} without text for pdftotext: OCR), ${result.cores} core(s), ${result.workers} worker(s)`);
  if (imageOnly.length > 0) {
    console.log(
      textLayerOnly
        ? `image-only files       ${imageOnly.length} (${imagePages} pages) left out: pdftotext reads nothing from them`
        : `image-only files       ${imageOnly.length} (${imagePages} pages) built with OCR, which pdftotext does not do (--text-layer-only leaves them out)`,
    );
  }
  console.log(`pdftotext -layout      ${(result.pdftotext_ms / 1000).toFixed(1)} s`);
  console.log(`collection ingest      ${(result.collection_ms / 1000).toFixed(1)} s  = ${result.ratio}x pdftotext (goal <= 4x)${result.peak_rss_mb !== null ? `, peak RSS ${result.peak_rss_mb} MB (goal < 1536)` : ''}`);
  if (result.cpu_ratio !== null) console.log(`CPU time               pdftotext ${result.pdftotext_cpu_s} s, collection ${result.collection_cpu_s} s (all threads) = ${result.cpu_ratio}x; load average ${result.load_average} on ${result.cores} core(s)`);
  if (ocrReference) {
    console.log(
      `OCR reference          pdftoppm + tesseract of the ${ocrReference.pages} page(s) without text: ${(ocrReference.ms / 1000).toFixed(1)} s, ${ocrReference.cpuS.toFixed(1)} s CPU; ` +
        `collection = ${result.ratio_with_ocr_reference}x pdftotext + OCR reference (CPU ${result.cpu_ratio_with_ocr_reference}x)`,
    );
  }
  console.log(`  scan ${report.timings_ms.scan} ms, build ${report.timings_ms.build} ms, selection index ${report.timings_ms.selection} ms`);
  console.log(`sync, nothing changed  ${(result.resync_ms / 1000).toFixed(1)} s, ${result.resync_rebuilt} rebuilt, ${result.resync_unchanged} unchanged`);
  for (const f of report.failed) console.log(`failed: ${f.path} [${f.code}] ${f.message}`);
}
if (!keep) rmSync(work, { recursive: true, force: true });
