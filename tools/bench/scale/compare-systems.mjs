#!/usr/bin/env node
// Compares two systems of one `doctree eval` run question by question: answer value, answer pages and ranked pages.
// Used for the store acceptance (doctree vs doctree-pg must agree; docs/results.md, "Scale-out").
//
//   node tools/bench/scale/compare-systems.mjs <run-dir> <system-a> <system-b> [--json]
//
// Prints the counts of identical answers / pages / ranked pages, the correct answers (score.accuracy) and latency of both, and every question
// that differs (ids only: question texts stay in the dataset). Exit 0 always (a report, not a check).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [runDir, a, b] = process.argv.slice(2).filter((x) => !x.startsWith('--'));
if (!runDir || !a || !b) {
  console.error('usage: compare-systems.mjs <run-dir> <system-a> <system-b> [--json]');
  process.exit(2);
}
const latest = new Map();
for (const line of readFileSync(join(runDir, 'predictions.jsonl'), 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const p = JSON.parse(line);
  latest.set(`${p.system}\u0000${p.id}`, p);
}
const of = (system) => new Map([...latest.values()].filter((p) => p.system === system).map((p) => [p.id, p]));
const left = of(a);
const right = of(b);
const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
const out = { questions: 0, both_answered: 0, same_answer: 0, same_pages: 0, same_ranked_pages: 0, correct: { [a]: 0, [b]: 0 }, latency_ms: { [a]: [], [b]: [] }, errors: { [a]: 0, [b]: 0 }, differences: [] };
for (const [id, p] of left) {
  const q = right.get(id);
  if (!q) continue;
  out.questions++;
  for (const [s, x] of [[a, p], [b, q]]) {
    if (x.error) out.errors[s]++;
    if ((x.score?.accuracy ?? 0) > 0) out.correct[s]++;
    if (typeof x.latency_ms === 'number') out.latency_ms[s].push(x.latency_ms);
  }
  if (p.error || q.error) {
    out.differences.push({ id, kind: 'error', [a]: p.error?.code ?? null, [b]: q.error?.code ?? null });
    continue;
  }
  out.both_answered++;
  const answer = same(p.answer, q.answer);
  const pages = same(p.pages, q.pages);
  const ranked = same(p.ranked_pages, q.ranked_pages);
  if (answer) out.same_answer++;
  if (pages) out.same_pages++;
  if (ranked) out.same_ranked_pages++;
  if (!answer || !pages || !ranked) out.differences.push({ id, answer, pages, ranked_pages: ranked, [`${a}_pages`]: p.pages, [`${b}_pages`]: q.pages, [`${a}_correct`]: (p.score?.accuracy ?? 0) > 0, [`${b}_correct`]: (q.score?.accuracy ?? 0) > 0 });
}
const pct = (values, f) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))]);
};
const latency = Object.fromEntries(Object.entries(out.latency_ms).map(([s, v]) => [s, { p50: pct(v, 0.5), p95: pct(v, 0.95) }]));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ ...out, latency_ms: latency }, null, 2));
} else {
  console.log(`${a} vs ${b}: ${out.questions} questions, ${out.both_answered} answered by both`);
  console.log(`  same answer ${out.same_answer}, same answer pages ${out.same_pages}, same ranked pages ${out.same_ranked_pages}`);
  console.log(`  correct: ${a} ${out.correct[a]}, ${b} ${out.correct[b]}; errors: ${a} ${out.errors[a]}, ${b} ${out.errors[b]}`);
  console.log(`  latency p50/p95 ms: ${a} ${latency[a].p50}/${latency[a].p95}, ${b} ${latency[b].p50}/${latency[b].p95}`);
  for (const d of out.differences) console.log(`  differs: ${JSON.stringify(d)}`);
}
