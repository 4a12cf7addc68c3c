#!/usr/bin/env node
// Index benchmark on the dev PDFs: ingest each into a scratch folder (cached by sha256; outside the repo), build its
// index, and print build time per page, index bytes per page, load time per document (loadDocIndex, validation
// 'fast') in this process and in a fresh process (what `doctree ask` pays; fastest of 3, wall and CPU time), the
// query embedder's start-up, and peak RSS. Reference ratios from the
// same run: build time / ingest time, and load time / JSON.parse of the document's doctree.mm.json.
//
//   npx nx run-many -t build -p ingest index && node tools/bench/index/bench-index.mjs
//     [--data ../shared/data/eval/dev] [--work /tmp/doctree-bench-index] [--embedder sif|hashing|hashing-d1024] (default sif, the config default)
//     [--backend auto|faiss|exact] [--limit N] [--fresh-ingest] [--json]
// Target: load <= 100 ms for a ~150-page document.
//
// Build comparison (--compare): buildDocIndex of another build of @doctree/index (a copy of packages/index/dist made
// before a change, kept where `@doctree/*` still resolves, e.g. next to a node_modules link to the repository's) against
// the current dist. Each round builds every document once per build, each build in its own process (its own heap;
// one unmeasured warm-up build first), the two alternating in order from round to round. Prints CPU ms per stage
// (measured around the summarizer, embedder and sparse backend calls; all threads of the process, so the garbage
// collector's helpers count) and wall ms per stage (the manifest's timings_ms), the fastest of the rounds summed over
// the documents, with the load average; and checks that both builds wrote the same bytes (every index file;
// manifest.json without build_id, created_at and timings_ms). Exit status 1 when they differ.
//
//   node --expose-gc tools/bench/index/bench-index.mjs --compare /tmp/before/dist [--docs DIR] [--repeat 5]
//     [--embedder sif] [--backend auto] [--work DIR] [--json]
// --docs: a folder of ingested documents (`doctree ingest --out DIR`: DIR/<doc_id>/doctree.mm.json); default: the
// dev PDFs, ingested as above.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devSet, embedderByName, flag, importDist, ingestCached, median, option, root, workDir } from './bench-common.mjs';

if (option('compare-child', undefined) !== undefined) {
  process.exitCode = await compareChild(resolve(option('compare-child', '')));
  process.exit();
}
if (option('compare', undefined) !== undefined) {
  process.exitCode = await compareBuilds(resolve(option('compare', '')));
  process.exit();
}

const { pdfDir, pdfs } = devSet();
const ingest = await importDist('ingest');
const index = await importDist('index');
const embedderName = option('embedder', 'sif');
const backend = option('backend', 'auto');
const asJson = flag('json');
const log = asJson ? (...a) => console.error(...a) : (...a) => console.log(...a);
const embedder = await embedderByName(index, embedderName);
const sparse = index.minisearchSparseBackend();
const outDir = join(workDir(), 'docs');
// A separate copy per embedder: <work>/<embedder>/<doc_id>/ holds doctree.mm.json and index/.
const indexRoot = join(workDir(), embedderName);

// Loads one index in a fresh Node process and reports the loadDocIndex time (module import excluded) and peak RSS.
const coldChild = `
const m = await import(${JSON.stringify(new URL(`file://${join(root, 'packages/index/dist/index.js')}`).href)});
const [docDir, embedderName, backend] = process.argv.slice(1);
const dim = /^hashing-d(\\d+)$/.exec(embedderName)?.[1];
const embedder = embedderName === 'sif' ? new m.SifEmbedder() : new m.HashingEmbedder({ dimension: dim ? Number(dim) : 512 });
let t = performance.now();
await embedder.initialize();
const initMs = performance.now() - t;
const cpu = process.cpuUsage();
t = performance.now();
const loaded = await m.loadDocIndex(docDir, { sparse: m.minisearchSparseBackend(), embedder, backend, validation: 'fast' });
const ms = performance.now() - t;
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, initMs, steps: loaded.loadTimings, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
`;

const rows = [];
log(`index bench: ${pdfs.length} PDFs, embedder ${embedder.id}, backend ${backend}, work folder ${workDir()}`);
for (const name of pdfs) {
  const { docDir: ingestedDir, pages, ingestMs } = await ingestCached(ingest, join(pdfDir, name), outDir, flag('fresh-ingest'));
  const docDir = join(indexRoot, ingestedDir.split('/').pop());
  mkdirSync(docDir, { recursive: true });
  copyFileSync(join(ingestedDir, 'doctree.mm.json'), join(docDir, 'doctree.mm.json'));
  let t = performance.now();
  const built = await index.buildDocIndex(docDir, { embedder, sparse, backend, force: true });
  const buildMs = performance.now() - t;
  const indexDir = join(docDir, 'index');
  const bytes = readdirSync(indexDir).reduce((sum, f) => sum + statSync(join(indexDir, f)).size, 0);

  const loads = [];
  let steps;
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    const loaded = await index.loadDocIndex(docDir, { sparse, embedder, backend, validation: 'fast' });
    loads.push(performance.now() - t);
    steps = loaded.loadTimings;
  }
  const treeText = readFileSync(join(docDir, 'doctree.mm.json'), 'utf8');
  const parses = [];
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    JSON.parse(treeText);
    parses.push(performance.now() - t);
  }
  // Fresh processes: the fastest of three runs (the machine may be shared; the minimum is the least disturbed).
  let coldResult = { ms: NaN, cpuMs: NaN, initMs: NaN, maxRssMb: NaN };
  for (let run = 0; run < 3; run++) {
    const cold = spawnSync(process.execPath, ['--input-type=module', '-e', coldChild, docDir, embedderName, backend], { encoding: 'utf8' });
    if (cold.status !== 0) {
      coldResult = { ...coldResult, error: cold.stderr.trim().split('\n').pop() };
      break;
    }
    const result = JSON.parse(cold.stdout.trim().split('\n').pop());
    if (!(result.ms >= coldResult.ms)) coldResult = result;
  }
  const row = {
    name,
    pages,
    ingestMs,
    buildMs,
    buildMsPerPage: buildMs / pages,
    buildSteps: built.manifest.timings_ms,
    bytes,
    bytesPerPage: bytes / pages,
    loadMsFirst: loads[0],
    loadMsMedian: median(loads),
    loadMsCold: coldResult.ms,
    loadCpuMsCold: coldResult.cpuMs,
    embedderInitMsCold: coldResult.initMs,
    coldSteps: coldResult.steps,
    coldRssMb: coldResult.maxRssMb,
    treeParseMs: median(parses),
    treeBytes: Buffer.byteLength(treeText),
    vectors: built.manifest.artifacts.filter((a) => /\.(faiss|vectors)$/.test(a.name)).reduce((s, a) => s + (a.records ?? 0), 0),
    backend: built.manifest.vector_backend,
  };
  rows.push(row);
  log(`  ${name}: ${pages} pages, build ${buildMs.toFixed(0)} ms, load ${row.loadMsMedian.toFixed(1)} ms (cold process ${row.loadMsCold.toFixed(1)} ms)`);
}

const sum = (key) => rows.reduce((s, r) => s + (r[key] ?? 0), 0);
const pagesTotal = sum('pages');
const ingested = rows.filter((r) => r.ingestMs !== undefined);
const near150 = rows.filter((r) => r.pages >= 100 && r.pages <= 200);
const summary = {
  documents: rows.length,
  pages: pagesTotal,
  embedder: embedder.id,
  backend: rows[0]?.backend,
  build_ms_per_page: sum('buildMs') / pagesTotal,
  bytes_per_page: sum('bytes') / pagesTotal,
  build_vs_ingest: ingested.length > 0 ? ingested.reduce((s, r) => s + r.buildMs, 0) / ingested.reduce((s, r) => s + r.ingestMs, 0) : null,
  load_vs_tree_parse_median: median(rows.map((r) => r.loadMsMedian / r.treeParseMs)),
  load_ms_cold_max_100_200_pages: near150.length > 0 ? Math.max(...near150.map((r) => r.loadMsCold)) : null,
  load_ms_cold_max: Math.max(...rows.map((r) => r.loadMsCold)),
  embedder_init_ms_cold_median: median(rows.map((r) => r.embedderInitMsCold)),
  peak_rss_mb_build_process: process.resourceUsage().maxRSS / 1024,
  peak_rss_mb_cold_load_max: Math.max(...rows.map((r) => r.coldRssMb)),
};

if (asJson) {
  console.log(JSON.stringify({ rows, summary }, null, 2));
} else {
  const pad = (s, n) => String(s).padStart(n);
  console.log(`\n${'document'.padEnd(38)}${pad('pages', 6)}${pad('build ms', 10)}${pad('ms/page', 9)}${pad('KB/page', 9)}${pad('load ms', 9)}${pad('cold ms', 9)}${pad('cold cpu', 9)}${pad('tree parse', 11)}${pad('load/parse', 11)}${pad('cold RSS MB', 12)}`);
  for (const r of rows) {
    console.log(
      `${r.name.slice(0, 37).padEnd(38)}${pad(r.pages, 6)}${pad(r.buildMs.toFixed(0), 10)}${pad(r.buildMsPerPage.toFixed(1), 9)}${pad((r.bytesPerPage / 1024).toFixed(1), 9)}` +
        `${pad(r.loadMsMedian.toFixed(1), 9)}${pad(r.loadMsCold.toFixed(1), 9)}${pad(r.loadCpuMsCold.toFixed(1), 9)}${pad(r.treeParseMs.toFixed(1), 11)}${pad((r.loadMsMedian / r.treeParseMs).toFixed(1), 11)}${pad(r.coldRssMb.toFixed(0), 12)}`,
    );
  }
  const s = summary;
  console.log(`\nall: ${s.documents} documents, ${s.pages} pages, embedder ${s.embedder}, backend ${s.backend}`);
  console.log(`build: ${s.build_ms_per_page.toFixed(1)} ms/page${s.build_vs_ingest !== null ? ` (${s.build_vs_ingest.toFixed(2)}x the ingest time of the same documents in this run)` : ' (ingest cached: run with --fresh-ingest for the build/ingest ratio)'}`);
  console.log(`index size: ${(s.bytes_per_page / 1024).toFixed(1)} KB/page (all files of index/, vector sidecars included)`);
  console.log(`load (validation fast): median ${s.load_vs_tree_parse_median.toFixed(1)}x JSON.parse of the same doctree.mm.json; cold process max ${s.load_ms_cold_max.toFixed(1)} ms` + (s.load_ms_cold_max_100_200_pages !== null ? `, ${s.load_ms_cold_max_100_200_pages.toFixed(1)} ms max for 100-200 page documents (target <= 100 ms)` : ''));
  console.log(`query embedder start-up in a fresh process: ${s.embedder_init_ms_cold_median.toFixed(1)} ms median (${embedder.id})`);
  console.log(`peak RSS: ${s.peak_rss_mb_build_process.toFixed(0)} MB for this process (ingest + build of all), ${s.peak_rss_mb_cold_load_max.toFixed(0)} MB max for a fresh process loading one index`);
  const slowest = rows.slice().sort((a, b) => b.loadMsCold - a.loadMsCold)[0];
  if (slowest?.coldSteps) console.log(`slowest cold load (${slowest.name}) by step, ms: ${Object.entries(slowest.coldSteps).map(([k, v]) => `${k} ${v}`).join(', ')}`);
}

/** The folders of ingested documents to compare on: `--docs DIR`, else the dev PDFs ingested into the work folder. */
async function comparisonDocuments() {
  const docs = option('docs', undefined);
  if (docs !== undefined) {
    return readdirSync(docs)
      .filter((name) => statSync(join(docs, name, 'doctree.mm.json'), { throwIfNoEntry: false })?.isFile())
      .sort()
      .map((name) => join(docs, name));
  }
  const { pdfDir, pdfs } = devSet();
  const ingest = await importDist('ingest');
  const out = [];
  for (const name of pdfs) out.push((await ingestCached(ingest, join(pdfDir, name), join(workDir(), 'docs'))).docDir);
  return out;
}

/** Names of the files two index folders differ in (manifest.json compared without its run-specific fields). */
function indexDifferences(dirA, dirB) {
  const a = readdirSync(dirA).sort();
  const b = readdirSync(dirB).sort();
  const differences = a.join() === b.join() ? [] : ['(file list)'];
  const stable = (file) => {
    const { build_id: _id, created_at: _at, timings_ms: _ms, ...rest } = JSON.parse(readFileSync(file, 'utf8'));
    return JSON.stringify(rest);
  };
  for (const name of a.filter((n) => b.includes(n))) {
    const same = name === 'manifest.json' ? stable(join(dirA, name)) === stable(join(dirB, name)) : readFileSync(join(dirA, name)).equals(readFileSync(join(dirB, name)));
    if (!same) differences.push(name);
  }
  return differences;
}

/** CPU time of this process (all threads), ms. */
function cpuMs() {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/**
 * Build options of one variant whose summarizer, embedder and sparse backend measure the CPU time spent in them:
 * summaries (the summarizer), records (from the summary to the first embedding), embed, sparse (the three BM25F
 * builds) and the rest (reading and validating the tree, the page view, JSON, hashing, vector indexes, writing).
 * The wrappers keep the ids, so the index and its config hash are those of the plain build.
 */
function stageMeter(variant) {
  const spent = { summaries: 0, records: 0, embed: 0, sparse: 0 };
  let summarized;
  const timed = async (stage, work) => {
    const start = cpuMs();
    try {
      return await work();
    } finally {
      spent[stage] += cpuMs() - start;
    }
  };
  const summarizer = variant.summarizer;
  const embedder = new Proxy(variant.embedder, {
    get(target, key) {
      if (key === 'embedDocuments') {
        return (texts, options) => {
          if (summarized !== undefined) spent.records += cpuMs() - summarized;
          summarized = undefined;
          return timed('embed', () => target.embedDocuments(texts, options));
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    options: {
      summarizer: {
        id: summarizer.id,
        summarize: (tree, options) =>
          timed('summaries', () => summarizer.summarize(tree, options)).finally(() => {
            summarized = cpuMs();
          }),
      },
      embedder,
      sparse: {
        ...variant.sparse,
        build: (docs) => {
          const start = cpuMs();
          try {
            return variant.sparse.build(docs);
          } finally {
            spent.sparse += cpuMs() - start;
          }
        },
      },
    },
    /** CPU ms per stage, `rest` being what the build used besides them. */
    stages: (total) => ({ ...spent, rest: total - spent.summaries - spent.records - spent.embed - spent.sparse }),
  };
}

/**
 * One round of the --compare mode in a child process (`--compare-child DIST`): builds every document of `--docs-list`
 * (a JSON array of folders) into `<work>/compare/<variant>/<doc>/` with that build of @doctree/index, after one
 * unmeasured warm-up build of the first, and prints one JSON line of measurements per document. A process per round
 * gives each variant its own heap: neither pays for the other's garbage or word vectors.
 */
async function compareChild(dist) {
  const module = await import(new URL(`file://${join(dist, 'index.js')}`).href);
  const variant = { embedder: await embedderByName(module, option('embedder', 'sif')), sparse: module.minisearchSparseBackend(), summarizer: new module.ExtractiveSummarizer() };
  const docs = JSON.parse(option('docs-list', '[]'));
  const backend = option('backend', 'auto');
  const build = async (docDir) => {
    const dir = join(workDir(), 'compare', option('variant', 'x'), docDir.split('/').pop());
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(docDir, 'doctree.mm.json'), join(dir, 'doctree.mm.json'));
    globalThis.gc?.(); // with --expose-gc each build starts on a collected heap
    const meter = stageMeter(variant);
    const cpu = cpuMs();
    const started = performance.now();
    const built = await module.buildDocIndex(dir, { ...meter.options, backend, force: true });
    const used = cpuMs() - cpu;
    return { cpuMs: used, wallMs: performance.now() - started, stages: built.manifest.timings_ms, cpuStages: meter.stages(used) };
  };
  if (docs.length > 0) await build(docs[0]);
  for (const docDir of docs) console.log(JSON.stringify({ doc: docDir.split('/').pop(), ...(await build(docDir)) }));
  return 0;
}

/** The --compare mode (see the header): returns the exit status. */
async function compareBuilds(beforeDist) {
  const asJson = flag('json');
  const log = asJson ? (...a) => console.error(...a) : (...a) => console.log(...a);
  const repeat = Number(option('repeat', '5'));
  const variants = [
    ['before', beforeDist],
    ['after', join(root, 'packages', 'index', 'dist')],
  ];
  const docs = await comparisonDocuments();
  const scratch = join(workDir(), 'compare');
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  log(`build comparison: ${docs.length} documents, ${repeat} rounds per build (a process each, alternating), load average ${load()}`);
  const runs = { before: new Map(), after: new Map() };
  const passOn = ['embedder', 'backend', 'work'].flatMap((name) => (option(name, undefined) !== undefined ? [`--${name}`, option(name, '')] : []));
  for (let r = 0; r < repeat; r++) {
    for (const [name, dist] of r % 2 === 0 ? variants : [...variants].reverse()) {
      const args = [...process.execArgv, fileURLToPath(import.meta.url), '--compare-child', dist, '--variant', name, '--docs-list', JSON.stringify(docs), ...passOn];
      const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (child.status !== 0) {
        console.error(`the ${name} build failed:\n${child.stderr}`);
        return 2;
      }
      for (const line of child.stdout.trim().split('\n')) {
        const { doc, ...measured } = JSON.parse(line);
        runs[name].set(doc, [...(runs[name].get(doc) ?? []), measured]);
      }
    }
    log(`  round ${r + 1}/${repeat} done, load average ${load()}`);
  }
  // The fastest of the rounds: the least disturbed on a shared machine.
  const fastest = (values) => Math.min(...values);
  const bests = (list, key) => Object.fromEntries(Object.keys(list[0][key]).map((stage) => [stage, fastest(list.map((x) => x[key][stage]))]));
  const summarise = (list) => ({ cpuMs: fastest(list.map((x) => x.cpuMs)), wallMs: fastest(list.map((x) => x.wallMs)), stages: bests(list, 'stages'), cpuStages: bests(list, 'cpuStages') });
  const rows = [];
  let identical = true;
  for (const docDir of docs) {
    const doc = docDir.split('/').pop();
    const differences = indexDifferences(join(scratch, 'before', doc, 'index'), join(scratch, 'after', doc, 'index'));
    if (differences.length > 0) identical = false;
    const row = { doc, before: summarise(runs.before.get(doc)), after: summarise(runs.after.get(doc)), differences };
    rows.push(row);
    log(`  ${doc}: cpu ${row.before.cpuMs.toFixed(0)} -> ${row.after.cpuMs.toFixed(0)} ms${differences.length > 0 ? `, DIFFERENT: ${differences.join(', ')}` : ', same bytes'}`);
  }
  const total = (variant, pick) => rows.reduce((sum, row) => sum + pick(row[variant]), 0);
  const stages = Object.keys(rows[0]?.before.stages ?? {});
  const cpuStages = Object.keys(rows[0]?.before.cpuStages ?? {});
  const summary = {
    documents: rows.length,
    repeat,
    identical,
    load_average: load(),
    cpu_ms: { before: total('before', (x) => x.cpuMs), after: total('after', (x) => x.cpuMs) },
    wall_ms: { before: total('before', (x) => x.wallMs), after: total('after', (x) => x.wallMs) },
    stages_ms: Object.fromEntries(stages.map((stage) => [stage, { before: total('before', (x) => x.stages[stage] ?? 0), after: total('after', (x) => x.stages[stage] ?? 0) }])),
    stages_cpu_ms: Object.fromEntries(cpuStages.map((stage) => [stage, { before: total('before', (x) => x.cpuStages[stage]), after: total('after', (x) => x.cpuStages[stage]) }])),
  };
  if (asJson) {
    console.log(JSON.stringify({ rows, summary }, null, 2));
  } else {
    const line = (label, { before, after }) => `${label.padEnd(12)}${before.toFixed(0).padStart(9)}${after.toFixed(0).padStart(9)}${(after / before).toFixed(2).padStart(8)}`;
    const header = (title) => console.log(`\n${title.padEnd(12)}${'before'.padStart(9)}${'after'.padStart(9)}${'ratio'.padStart(8)}`);
    header('CPU ms');
    for (const stage of cpuStages) console.log(line(stage, summary.stages_cpu_ms[stage]));
    console.log(line('build', summary.cpu_ms));
    header('wall ms');
    for (const stage of stages) console.log(line(stage, summary.stages_ms[stage]));
    console.log(line('build', summary.wall_ms));
    console.log('(fastest of the repeats per document and stage, summed over the documents; wall ms per stage from the manifests, CPU ms measured around the summarizer, embedder and sparse backend calls)');
    console.log(`load average at the end: ${summary.load_average}; outputs ${identical ? 'byte-identical' : 'DIFFERENT (see above)'}`);
  }
  return identical ? 0 : 1;
}
