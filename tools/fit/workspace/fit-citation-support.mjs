#!/usr/bin/env node
/**
 * Fits and measures the citation support model of `doctree workspace verify-citations` on claims generated from a
 * folder of PDFs (by default the dev set, read in place and copied only into a temporary workspace outside the
 * repository):
 *   - stated: a sentence of a document, cited to that document (should be OK);
 *   - altered: the same sentence with one number (or, without numbers, one name) changed (should not be OK);
 *   - wrong document: the sentence cited to another document (should not be OK).
 * The model is a logistic model over the support features of the cited document's best chunk (max over its k best
 * chunks), fitted with 4-fold cross-validation grouped by document. The threshold T = 0.55 is fixed; if the
 * cross-validated OK precision at T is below the target (0.95), the model's intercept is lowered until it is met
 * (the score is mapped, the threshold stays).
 *
 * Usage: npm run build of @doctree/workspace first, then
 *   node tools/fit/workspace/fit-citation-support.mjs [--docs DIR] [--limit N] [--per-doc N] [--work DIR]
 *        [--out model.json] [--write-default] [--embedder sif|hashing]
 */
import { copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const ws = await import(join(repo, 'packages/workspace/dist/index.js'));

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: resolve(repo, '../shared/data/eval/dev/pdfs') },
    limit: { type: 'string', default: '17' },
    'per-doc': { type: 'string', default: '30' },
    work: { type: 'string' },
    out: { type: 'string' },
    embedder: { type: 'string', default: 'sif' },
    'write-default': { type: 'boolean', default: false },
    target: { type: 'string', default: '0.95' },
  },
});
const T = 0.55;
const target = Number(values.target);
const work = values.work ?? join(tmpdir(), `doctree-citation-fit-${process.pid}`);

// 1. A workspace with the PDFs (copied into the temporary workspace, never into the repository).
const pdfs = readdirSync(values.docs).filter((n) => n.toLowerCase().endsWith('.pdf')).sort((a, b) => statSync(join(values.docs, a)).size - statSync(join(values.docs, b)).size).slice(0, Number(values.limit));
await ws.EvidenceWorkspace.init(work);
const cfgPath = join(work, 'workspace.config.json');
const cfg = JSON.parse((await import('node:fs')).readFileSync(cfgPath, 'utf8'));
cfg.embedding.kind = values.embedder;
writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
mkdirSync(join(work, 'raw/evidence'), { recursive: true });
for (const name of pdfs) copyFileSync(join(values.docs, name), join(work, 'raw/evidence', name));
const workspace = await ws.EvidenceWorkspace.open(work, { onWarning: () => undefined });
const t0 = Date.now();
const parsed = await workspace.parse();
await workspace.chunk();
await workspace.embed();
await workspace.buildBm25();
console.error(`workspace: ${pdfs.length} PDFs, parsed ${parsed.parsed.length + parsed.reused.length}, failed ${parsed.failed.length}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);

// 2. Claims.
const { readFileSync } = await import('node:fs');
const children = readFileSync(join(work, 'chunks/chunks.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const byDoc = new Map();
for (const c of children) byDoc.set(c.doc_uid, [...(byDoc.get(c.doc_uid) ?? []), c]);
const docs = [...byDoc.keys()].sort();
const rank = (s) => createHash('sha256').update(s).digest('hex');
const NUM = /\b[0-9]+(?:[.,][0-9]+)*\b/g;
const YEAR = /^(19|20)[0-9]{2}$/;
function sentencesOf(text) {
  return ws.sentenceSpans(text).map((s) => text.slice(s.start, s.end).replace(/\s+/g, ' ').trim());
}
function usable(s) {
  const words = s.split(' ');
  if (words.length < 10 || words.length > 40) return false;
  const alpha = words.filter((w) => /^[A-Za-z][A-Za-z'’-]*[.,;:]?$/.test(w)).length;
  return alpha / words.length >= 0.6 && /[a-z]/.test(s) && !s.includes('{#');
}
function alterNumber(s) {
  const nums = [...s.matchAll(NUM)].filter((m) => !YEAR.test(m[0]) && /[1-9]/.test(m[0]));
  if (nums.length === 0) return null;
  const m = nums[Number.parseInt(rank(s).slice(0, 4), 16) % nums.length];
  const digits = [...m[0]];
  for (let i = digits.length - 1; i >= 0; i--) {
    if (/[0-9]/.test(digits[i])) {
      digits[i] = String((Number(digits[i]) + 3) % 10);
      break;
    }
  }
  if (/^0[0-9]/.test(digits.join(''))) digits[0] = '1';
  return s.slice(0, m.index) + digits.join('') + s.slice(m.index + m[0].length);
}
const NAME = /\b[A-Z][a-z]{3,}\b/g;
function alterName(s, pool) {
  const names = [...s.matchAll(NAME)].filter((m) => m.index > 0);
  if (names.length === 0) return null;
  const m = names[Number.parseInt(rank(s).slice(0, 4), 16) % names.length];
  const other = pool.find((n) => n !== m[0] && !s.includes(n));
  return other ? s.slice(0, m.index) + other + s.slice(m.index + m[0].length) : null;
}
const namePool = [...new Set(children.flatMap((c) => [...c.text.matchAll(NAME)].map((m) => m[0])))].sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, 400);
const claims = [];
for (const doc of docs) {
  const sentences = [...new Set(byDoc.get(doc).flatMap((c) => sentencesOf(c.text)).filter(usable))].sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, Number(values['per-doc']));
  for (const s of sentences) {
    claims.push({ group: doc, cls: 'stated', text: s, doc_uid: doc, y: 1 });
    const altered = alterNumber(s) ?? alterName(s, namePool.filter((n) => !byDoc.get(doc).some((c) => c.text.includes(n))));
    if (altered && altered !== s) claims.push({ group: doc, cls: 'altered', text: altered, doc_uid: doc, y: 0 });
    const others = docs.filter((d) => d !== doc);
    if (others.length > 0) claims.push({ group: doc, cls: 'wrong_document', text: s, doc_uid: others[Number.parseInt(rank(s).slice(4, 8), 16) % others.length], y: 0 });
  }
}
console.error(`claims: ${claims.length} (${['stated', 'altered', 'wrong_document'].map((c) => `${c} ${claims.filter((x) => x.cls === c).length}`).join(', ')})`);

// 3. Features of the cited document's k best chunks.
const candidates = await workspace.supportCandidates(claims);
const rows = claims.map((c, i) => ({ ...c, feats: candidates[i].map((h) => ws.SUPPORT_FEATURES.map((f) => h.features[f])) }));

// 4. Fit: logistic regression on max over chunks (the chunk with the highest score gives the gradient).
const sig = (z) => 1 / (1 + Math.exp(-z));
function score(model, feats) {
  let best = 0;
  let arg = null;
  for (const f of feats) {
    const p = sig(model.b + f.reduce((s, x, i) => s + x * model.w[i], 0));
    if (p >= best) {
      best = p;
      arg = f;
    }
  }
  return { p: best, arg };
}
function fit(train) {
  const model = { w: [0, 0, 0, 0], b: 0 };
  const l2 = 1e-3;
  for (let epoch = 0; epoch < 3000; epoch++) {
    const gw = [0, 0, 0, 0];
    let gb = 0;
    for (const r of train) {
      const { p, arg } = score(model, r.feats);
      if (!arg) continue;
      const e = p - r.y;
      for (let i = 0; i < 4; i++) gw[i] += e * arg[i];
      gb += e;
    }
    const lr = 2 / train.length;
    for (let i = 0; i < 4; i++) model.w[i] -= lr * (gw[i] * 1 + l2 * model.w[i] * train.length);
    model.b -= lr * gb;
  }
  return model;
}
function precisionAt(model, data) {
  let ok = 0;
  let tp = 0;
  for (const r of data) {
    if (score(model, r.feats).p >= T) {
      ok++;
      if (r.y === 1) tp++;
    }
  }
  return ok === 0 ? 1 : tp / ok;
}
/** Lowers the intercept until OK precision at T reaches the target on `data` (the mapping; T never moves). */
function calibrate(model, data) {
  const m = { w: [...model.w], b: model.b };
  for (let i = 0; i < 400 && precisionAt(m, data) < target; i++) m.b -= 0.05;
  return m;
}
const groups = [...new Set(rows.map((r) => r.group))].sort((a, b) => rank(a).localeCompare(rank(b)));
const folds = 4;
const cv = [];
for (let f = 0; f < folds; f++) {
  const test = new Set(groups.filter((_, i) => i % folds === f));
  const train = rows.filter((r) => !test.has(r.group));
  const model = calibrate(fit(train), train);
  for (const r of rows.filter((r) => test.has(r.group))) cv.push({ ...r, p: score(model, r.feats).p });
}
function report(scored, label) {
  const out = { label, T, classes: {} };
  for (const cls of ['stated', 'altered', 'wrong_document']) {
    const items = scored.filter((r) => r.cls === cls);
    out.classes[cls] = { n: items.length, ok: items.filter((r) => r.p >= T).length, ok_rate: items.length ? items.filter((r) => r.p >= T).length / items.length : 0 };
  }
  const ok = scored.filter((r) => r.p >= T);
  out.ok_precision = ok.length ? ok.filter((r) => r.y === 1).length / ok.length : 1;
  out.ok_recall = scored.filter((r) => r.y === 1).length ? ok.filter((r) => r.y === 1).length / scored.filter((r) => r.y === 1).length : 0;
  return out;
}
const final = calibrate(fit(rows), rows);
const cvReport = report(cv, `${folds}-fold CV grouped by document`);
const fullReport = report(rows.map((r) => ({ ...r, p: score(final, r.feats).p })), 'final model on all claims (in-sample)');
const shipped = report(rows.map((r) => ({ ...r, p: ws.supportScore(Object.fromEntries(ws.SUPPORT_FEATURES.map((f, i) => [f, 0])), ws.CITATION_SUPPORT_MODEL) && score({ w: [...ws.CITATION_SUPPORT_MODEL.weights], b: ws.CITATION_SUPPORT_MODEL.intercept }, r.feats).p })), 'shipped model before this fit');
const model = {
  format: 'doctree.citation-support-model',
  version: 1,
  weights: final.w.map((x) => Number(x.toFixed(4))),
  intercept: Number(final.b.toFixed(4)),
  fitted: `fit-citation-support.mjs: logistic (max over the cited document's k = 10 best chunks), ${rows.length} generated claims from ${docs.length} documents (${values.embedder} embedder), intercept lowered until OK precision at T = ${T} reached ${target}; ${folds}-fold CV grouped by document: OK precision ${cvReport.ok_precision.toFixed(3)}, recall ${cvReport.ok_recall.toFixed(3)}`,
};
const result = { model, cv: cvReport, in_sample: fullReport, previous: shipped, docs: docs.length, claims: rows.length };
console.log(JSON.stringify(result, null, 2));
if (values.out) writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
if (values['write-default']) {
  const file = join(repo, 'packages/workspace/src/citation-support-model.ts');
  const src = readFileSync(file, 'utf8');
  const start = src.indexOf('export const CITATION_SUPPORT_MODEL');
  const body = `export const CITATION_SUPPORT_MODEL: CitationSupportModel = {\n  format: 'doctree.citation-support-model',\n  version: 1,\n  weights: [${model.weights.join(', ')}],\n  intercept: ${model.intercept},\n  fitted:\n    ${JSON.stringify(model.fitted).replace(/'/g, "\\'").replace(/^"|"$/g, "'")},\n};\n`;
  writeFileSync(file, src.slice(0, start) + body);
  console.error(`wrote ${file}`);
}
