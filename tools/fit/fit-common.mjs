// Shared parts of the fitting scripts: questions of one or more questions.jsonl files, folds grouped by document,
// cached per-question rows, logistic regression, and the model file writer.
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { execSync } from 'node:child_process';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { option, root } from '../bench/index/bench-common.mjs';

export { flag, importDist, option, root } from '../bench/index/bench-common.mjs';

/** Question files (`--questions a.jsonl,b.jsonl`; default the dev and wide splits). */
export function questionFiles() {
  return option('questions', '../shared/data/eval/dev/questions.jsonl,../shared/data/eval/wide/questions.jsonl')
    .split(',')
    .map((f) => resolve(root, f));
}

/** Questions of every file with `split` (the file's folder name), `pdf` (absolute) and `file` (the questions file). */
export function readQuestions(files = questionFiles(), limit = Number(option('limit', '0'))) {
  const out = [];
  for (const file of files) {
    if (!existsSync(file)) {
      console.log(`No questions at ${file}; skipped.`);
      continue;
    }
    const split = basename(dirname(file));
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const q = JSON.parse(line);
      out.push({ ...q, split, file, pdf: join(dirname(file), q.doc_file) });
    }
  }
  return limit > 0 ? out.slice(0, limit) : out;
}

/** The benchmark a question id comes from. */
export const benchmarkOf = (id) => (id.startsWith('fb-') ? 'FinanceBench' : id.startsWith('mmlb-') ? 'MMLongBench-Doc' : id.startsWith('uda-') ? 'UDA' : 'other');

/** Rows of a JSON-lines file ([] when absent). */
export async function readJsonl(file) {
  const rows = [];
  if (!existsSync(file)) return rows;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) rows.push(JSON.parse(line));
  return rows;
}

/** Writes JSON lines atomically (temp file + rename). */
export function writeJsonl(file, rows) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  renameSync(tmp, file);
}

/** Writes a JSON file atomically (temp file + rename). */
export function writeJson(file, value) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  renameSync(tmp, file);
}

/** Fold of each row: its documents (`split/doc`) shuffled with a seeded generator and dealt round-robin into `count` folds. */
export function foldsByDocument(rows, count, seed = 1) {
  const docs = [...new Set(rows.map((r) => `${r.split}/${r.doc}`))].sort();
  let s = seed >>> 0 || 1;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (let i = docs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [docs[i], docs[j]] = [docs[j], docs[i]];
  }
  const foldOf = new Map(docs.map((d, i) => [d, i % count]));
  return rows.map((r) => foldOf.get(`${r.split}/${r.doc}`));
}

/**
 * The grid value (e.g. an L2 strength) whose models, fitted on an inner CV grouped by document, have the lowest total
 * `rowLoss` over their held-out rows (the first value on ties). A grid of one value is returned as it is.
 */
export function chooseByInnerCv(rows, grid, { folds, seed, fit, rowLoss }) {
  if (grid.length === 1) return grid[0];
  const count = Math.min(folds, 4);
  const inner = foldsByDocument(rows, count, seed);
  let best = grid[0];
  let bestLoss = Infinity;
  for (const value of grid) {
    let loss = 0;
    for (let k = 0; k < count; k++) {
      const model = fit(rows.filter((_, i) => inner[i] !== k), value);
      rows.forEach((r, i) => {
        if (inner[i] === k) loss += rowLoss(model, r);
      });
    }
    if (loss < bestLoss) {
      bestLoss = loss;
      best = value;
    }
  }
  return best;
}

/**
 * Nested cross-validation grouped by document: for each outer fold, the grid value is chosen by
 * {@link chooseByInnerCv} on the training folds, a model is fitted with it, and `predict(model, row)` is called for each
 * held-out row. Returns the fold models and the values chosen.
 */
export function nestedCrossValidation(rows, grid, { folds, seed, fit, rowLoss, predict, onFold }) {
  const foldOf = foldsByDocument(rows, folds, seed);
  const models = [];
  const chosen = [];
  for (let k = 0; k < folds; k++) {
    const train = rows.filter((_, i) => foldOf[i] !== k);
    const value = chooseByInnerCv(train, grid, { folds, seed, fit, rowLoss });
    const model = fit(train, value);
    chosen.push(value);
    models.push(model);
    onFold?.(k, value);
    rows.forEach((r, i) => {
      if (foldOf[i] === k) predict(model, r);
    });
  }
  return { models, chosen };
}

/**
 * Logistic regression with L2 (not on the bias), full-batch Adam. `x`: feature rows (arrays), `y`: labels in 0..1
 * (soft labels allowed). Returns `{ bias, weights }` (weights by feature name).
 */
export function fitLogistic(x, y, names, { lambda = 0.01, epochs = 400, rate = 0.05, signs = {} } = {}) {
  // Sign constraints (projected Adam): a feature whose direction is known by construction never gets the other sign.
  const sign = names.map((f) => (Object.hasOwn(signs, f) ? Math.sign(signs[f]) : 0));
  const d = names.length;
  const w = new Float64Array(d + 1);
  const m = new Float64Array(d + 1);
  const v = new Float64Array(d + 1);
  const n = Math.max(1, x.length);
  for (let t = 1; t <= epochs; t++) {
    const g = new Float64Array(d + 1);
    for (let i = 0; i < x.length; i++) {
      let z = w[d];
      for (let j = 0; j < d; j++) z += w[j] * x[i][j];
      const err = 1 / (1 + Math.exp(-z)) - y[i];
      for (let j = 0; j < d; j++) g[j] += err * x[i][j];
      g[d] += err;
    }
    for (let j = 0; j <= d; j++) {
      const grad = g[j] / n + (j < d ? lambda * w[j] : 0);
      m[j] = 0.9 * m[j] + 0.1 * grad;
      v[j] = 0.999 * v[j] + 0.001 * grad * grad;
      w[j] -= (rate * (m[j] / (1 - 0.9 ** t))) / (Math.sqrt(v[j] / (1 - 0.999 ** t)) + 1e-8);
      if (j < d && sign[j] !== 0 && Math.sign(w[j]) === -sign[j]) w[j] = 0;
    }
  }
  return { bias: round4(w[d]), weights: Object.fromEntries(names.map((f, j) => [f, round4(w[j])])) };
}

export const round4 = (x) => Math.round(x * 1e4) / 1e4;
export const pct = (x) => (x === undefined || Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)}%`);

/** Short commit of the working tree (for the model's `fitted`). */
export function commitOf() {
  try {
    return execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
  } catch {
    return 'unknown';
  }
}

/** The `fitted` record of a model: script, commit, questions, documents and folds, then the script's own fields. */
export function fittedRecord(script, rows, { folds, seed }, extra) {
  return {
    script,
    commit: commitOf(),
    questions: questionFiles().map(rel),
    n_questions: rows.length,
    n_documents: new Set(rows.map((r) => `${r.split}/${r.doc}`)).size,
    folds,
    seed,
    ...extra,
  };
}

/** Writes `export const NAME: TYPE = {json};` into a TypeScript file of the repository (a default model). */
export function writeDefaultModel(file, { importLine, doc, name, type, model }) {
  const body = `${importLine}\n\n/**\n${doc.map((l) => ` * ${l}`).join('\n')}\n */\nexport const ${name}: ${type} = ${JSON.stringify(model, null, 2)};\n`;
  writeFileSync(join(root, file), body);
  console.log(`Default model written: ${file} (rebuild the package)`);
}

/** Path relative to the repository root, for messages. */
export const rel = (file) => relative(root, file);
