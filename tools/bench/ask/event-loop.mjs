#!/usr/bin/env node
// Benchmark of how long an offline ask blocks the Node event loop in one stretch (a service answering several
// requests in one process cannot afford long stretches). Target: every single blocking stretch < 50 ms.
//
// For the bundled sample (and, when ../shared/data/eval/dev exists, `--docs N` dev documents, default 3): the
// document is prepared once (ingest + index on disk, not measured); then, in this process,
//   cold = open the agent from disk (index files read and parsed, embedder loaded) + the first ask,
//   warm = a second ask on the same agent (memory cleared).
// A heartbeat (setTimeout 0 loop) records every gap between its ticks; `perf_hooks.monitorEventLoopDelay` gives the
// p99. Printed per phase: the longest stretch, the p99 delay, the number of stretches >= 50 ms and, for the longest
// ones, which agent event came just before (where to look). On a loaded machine a stretch's wall time includes the time
// the process waited for a core; `cpu` is the process CPU time (`process.cpuUsage`, all threads: GC helpers included)
// spent in the stretch — close to what the stretch would take on a quiet machine; `gc` the garbage collector's pauses
// inside it (perf_hooks `gc` entries). The ratio compares the longest stretch with a reference
// measured in the same run: one `JSON.parse` of the document's largest index file.
//
// `--cpu-prof DIR` also profiles each phase in process (node:inspector), writes `<doc>-<phase>.cpuprofile` to DIR and
// prints, for every stretch >= 50 ms, the functions that ran in it (self time, and DocTree's own by inclusive time).
//
//   npx nx run-many -t build -p pipeline && node tools/bench/ask/event-loop.mjs [--docs 3] [--question "…"]
//     [--data ../shared/data/eval/dev] [--work /tmp/doctree-bench-event-loop] [--cpu-prof DIR] [--json]
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { existsSync } from 'node:fs';
import { flag, importDist, option, root } from '../index/bench-common.mjs';
import { nowMicros, startProfile, summarizeStretches, writeProfile } from './stretch-profile.mjs';

const pipeline = await importDist('pipeline');
const schema = await importDist('schema');
const asJson = flag('json');
const log = asJson ? (...a) => console.error(...a) : (...a) => console.log(...a);
const work = resolve(option('work', '/tmp/doctree-bench-event-loop'));
const config = schema.resolveConfig({ overrides: { data_dir: join(work, 'data') } }).config;
const LIMIT_MS = 50;
const profileDir = option('cpu-prof', undefined);
if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });

/** Records the gaps of a setTimeout(0) heartbeat, each with the label current when it ended, and the GC pauses in it. */
function heartbeat() {
  const gaps = [];
  // Garbage-collector pauses (start, duration in the performance.now clock), to tell a GC pause from our own work.
  const gcs = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcs.push({ start: entry.startTime, ms: entry.duration });
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const gcIn = (from, to) => gcs.reduce((sum, g) => sum + Math.max(0, Math.min(to, g.start + g.ms) - Math.max(from, g.start)), 0);
  let label = 'start';
  let startLabel = label;
  let last = performance.now();
  let lastMicros = nowMicros();
  let lastCpu = process.cpuUsage();
  let timer;
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const tick = () => {
    const now = performance.now();
    const micros = nowMicros();
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    gaps.push({ ms: now - last, cpuMs: (cpu.user + cpu.system) / 1000, from: last, to: now, label: startLabel === label ? label : `${startLabel} … ${label}`, startMicros: lastMicros, endMicros: micros });
    startLabel = label;
    last = now;
    lastMicros = micros;
    timer = setTimeout(tick, 0);
  };
  timer = setTimeout(tick, 0);
  return {
    label: (value) => {
      label = value;
    },
    stop: () => {
      clearTimeout(timer);
      histogram.disable();
      gcObserver.disconnect();
      for (const g of gaps) g.gcMs = gcIn(g.from, g.to);
      const sorted = [...gaps].sort((a, b) => b.ms - a.ms);
      return {
        maxMs: sorted[0]?.ms ?? 0,
        maxCpuMs: Math.max(0, ...gaps.map((g) => g.cpuMs)),
        // The longest stretch once its GC pauses are taken out: our own work (plus waiting for a core on a busy machine).
        maxWithoutGcMs: Math.max(0, ...gaps.map((g) => g.ms - g.gcMs)),
        p99Ms: histogram.percentile(99) / 1e6,
        over: gaps.filter((g) => g.ms >= LIMIT_MS).length,
        worst: sorted.slice(0, 3).map((g) => `${g.ms.toFixed(0)} ms (cpu ${g.cpuMs.toFixed(0)}, gc ${g.gcMs.toFixed(0)}) in ${g.label}`),
        worstCpu: [...gaps].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 3).map((g) => `cpu ${g.cpuMs.toFixed(0)} ms (wall ${g.ms.toFixed(0)}) in ${g.label}`),
        long: sorted.filter((g) => g.ms >= LIMIT_MS),
      };
    },
  };
}

function eventLabel(event) {
  const tool = event.tool ?? event.card ?? event.name ?? event.stage ?? event.step ?? '';
  return `${event.type}${tool ? ` ${String(tool)}` : ''}`;
}

/** One JSON.parse of the document's largest index file (the reference). */
function referenceMs(docDir) {
  const indexDir = join(docDir, 'index');
  let largest;
  for (const name of readdirSync(indexDir)) {
    if (!name.endsWith('.json') && !name.endsWith('.jsonl')) continue;
    const size = statSync(join(indexDir, name)).size;
    if (largest === undefined || size > largest.size) largest = { name, size };
  }
  if (largest === undefined) return { ms: NaN, file: '-' };
  const text = readFileSync(join(indexDir, largest.name), 'utf8');
  const t = performance.now();
  if (largest.name.endsWith('.jsonl')) for (const line of text.split('\n')) line && JSON.parse(line);
  else JSON.parse(text);
  return { ms: performance.now() - t, file: `${largest.name} (${(largest.size / 1e6).toFixed(1)} MB)` };
}

async function measure(pdf, questions) {
  const prepared = await pipeline.prepareDocument(pdf, { config, outDir: join(work, 'docs') });
  const docDir = prepared.docDir;
  const reference = referenceMs(docDir);
  const rows = [];
  for (const [phase, question] of [
    ['cold', questions[0]],
    ['warm', questions[1] ?? questions[0]],
  ]) {
    const profiler = profileDir === undefined ? undefined : await startProfile();
    const beat = heartbeat();
    let opened = measure.opened.get(pdf);
    const t = performance.now();
    if (opened === undefined) {
      beat.label('openAgent');
      opened = await pipeline.openAgent(pdf, { config, outDir: join(work, 'docs') });
      measure.opened.set(pdf, opened);
    } else opened.agent.memory.clear();
    beat.label('ask');
    await opened.agent.ask(question, { onEvent: (event) => beat.label(eventLabel(event)) });
    const totalMs = performance.now() - t;
    await new Promise((done) => setTimeout(done, 5));
    const { long, ...row } = beat.stop();
    if (profiler !== undefined) {
      const profile = await profiler.stop();
      const file = writeProfile(profileDir, `${pdf.split('/').pop()}-${phase}`, profile);
      row.profile = file;
      row.stretches = summarizeStretches(profile, long);
    }
    rows.push({ phase, totalMs, ...row });
  }
  return { reference, rows };
}
measure.opened = new Map();

const targets = [{ pdf: join(root, 'data/samples/northwind-annual-report-2023.pdf'), questions: ['What was the revenue of the Industrial Sensors segment in 2023?', 'How many employees did Northwind have at the end of 2023?'] }];
const devDir = resolve(root, option('data', '../shared/data/eval/dev'));
if (existsSync(join(devDir, 'questions.jsonl'))) {
  const byDoc = new Map();
  for (const line of readFileSync(join(devDir, 'questions.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const q = JSON.parse(line);
    if (!byDoc.has(q.doc_file)) byDoc.set(q.doc_file, []);
    byDoc.get(q.doc_file).push(q.question);
  }
  const docs = [...byDoc].sort(([a], [b]) => a.localeCompare(b)).slice(0, Number(option('docs', '3')));
  for (const [file, questions] of docs) targets.push({ pdf: join(devDir, file), questions });
} else log(`(no dev set at ${devDir}: the bundled sample only)`);

const question = option('question', undefined);
const results = [];
for (const target of targets) {
  const { reference, rows } = await measure(target.pdf, question ? [question, question] : target.questions);
  const name = target.pdf.split('/').pop();
  for (const row of rows) {
    results.push({ doc: name, ...row, referenceMs: reference.ms, referenceFile: reference.file, ratio: row.maxMs / reference.ms });
    log(
      `${name.padEnd(40)} ${row.phase}: max block ${row.maxMs.toFixed(1)} ms (max cpu in one stretch ${row.maxCpuMs.toFixed(1)} ms, longest without its GC pauses ${row.maxWithoutGcMs.toFixed(1)} ms), p99 ${row.p99Ms.toFixed(1)} ms, ` +
        `${row.over} stretch(es) >= ${LIMIT_MS} ms, total ${row.totalMs.toFixed(0)} ms; ` +
        `reference JSON.parse ${reference.file} ${reference.ms.toFixed(1)} ms → ratio ${(row.maxMs / reference.ms).toFixed(2)}`,
    );
    log(`    longest: ${row.worst.join(' · ')}`);
    log(`    most cpu: ${row.worstCpu.join(' · ')}`);
    for (const stretch of row.stretches ?? []) {
      log(`    ${stretch.ms.toFixed(0)} ms in ${stretch.label} — self: ${stretch.self.slice(0, 3).join('; ')}`);
      log(`        ours: ${stretch.ours.join('; ')}`);
    }
    if (row.profile) log(`    profile: ${row.profile}`);
  }
}
const worst = Math.max(...results.map((r) => r.maxMs));
const worstCpu = Math.max(...results.map((r) => r.maxCpuMs));
log(`worst single stretch: ${worst.toFixed(1)} ms (target < ${LIMIT_MS} ms) ${worst < LIMIT_MS ? 'OK' : 'OVER'}; most cpu in one stretch ${worstCpu.toFixed(1)} ms`);
if (asJson) console.log(JSON.stringify({ limitMs: LIMIT_MS, results }, null, 2));
