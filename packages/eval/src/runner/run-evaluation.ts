import { createHash } from 'node:crypto';
import { access, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { DocTreeError, PredictionSchema, redactSecrets } from '@doctree/schema';
import type { ChatModelClient, MetricsFile, Prediction, Question } from '@doctree/schema';
import { z } from 'zod';

import { judgeAnswer } from '../judge/llm-judge.js';
import type { ScoreAnswerOptions } from '../metrics/answer-score.js';
import { computeMetrics, goldOf, scorePrediction } from '../metrics/aggregate.js';
import { DEFAULT_KS, uniqueRanking } from '../metrics/retrieval-metrics.js';
import { writeReports } from '../report/write-reports.js';
import { writeFileAtomic } from '@doctree/schema/node';
import { JsonLinesAppender, readJsonLinesFile } from './jsonl-store.js';
import type { EvalProgressEvent } from './progress.js';
import { assertSystemId, validateSystemAnswer } from './qa-system.js';
import type { QaSystem, QaSystemDescription, SystemAnswer } from './qa-system.js';
import { changedSystems, manifestConflicts, questionsSha256, readRunManifest, sha256Of, systemFingerprint } from './run-manifest.js';
import type { RunManifest } from './run-manifest.js';

/** File names inside an evaluation's output folder. */
export const EVAL_FILES = {
  manifest: 'run.json',
  predictions: 'predictions.jsonl',
  builds: 'builds.jsonl',
  metrics: 'metrics.json',
  markdown: 'report.md',
  html: 'report.html',
  traces: 'traces',
} as const;

/** Options of {@link runEvaluation}. */
export interface RunEvaluationOptions {
  /** The questions (e.g. from `loadDataset`). Ids must be unique. */
  questions: readonly Question[];
  /** The systems to evaluate, in report order; ablations are more systems (see `QaSystemDescription.ablationOf`). */
  systems: readonly QaSystem[];
  /** Output folder: `run.json`, `predictions.jsonl`, `builds.jsonl`, `traces/`, `metrics.json`, `report.md`, `report.html`. */
  outDir: string;
  /** Dataset name for the reports. Default `questions`. */
  dataset?: string;
  /** Folder that `doc_file` paths are relative to (`EvalDataset.baseDir`). Default the current directory. */
  documentsDir?: string;
  /** Evaluate only the first `limit` questions. Default all. */
  limit?: number;
  /** Questions a system answers at the same time. Default 1. */
  concurrency?: number;
  /** Run the systems at the same time instead of one after the other (skews latency on small machines). Default false. */
  systemsInParallel?: boolean;
  /**
   * Continue the run already in `outDir`: answered (system, question) pairs are skipped; a run with other questions,
   * scoring, judge or system configuration is refused. With `false`, an existing run in `outDir` is refused. Default true.
   */
  resume?: boolean;
  /** When resuming, answer again the pairs that failed with an error. Default false. */
  retryErrors?: boolean;
  /** The k of recall@k and hit@k. Default `[1, 3, 5, 10]`. */
  ks?: readonly number[];
  /** Rule scoring options. */
  scoring?: ScoreAnswerOptions;
  /** An LLM judge: every answer also gets an LLM verdict (`llm_judged_accuracy`). Default none. */
  judge?: ChatModelClient | null;
  /** Secrets to redact from predictions and traces. */
  secrets?: readonly string[];
  /** Progress reports (see `createProgressPrinter`). */
  onProgress?: (event: EvalProgressEvent) => void;
  /** Cancels the run: answers already written stay, and a rerun resumes. */
  signal?: AbortSignal;
  /** Write `report.md` and `report.html`. Default true. */
  reports?: boolean;
}

/** Defaults of {@link RunEvaluationOptions}. */
export const RUN_EVALUATION_DEFAULTS = {
  dataset: 'questions',
  concurrency: 1,
  systemsInParallel: false,
  resume: true,
  retryErrors: false,
  reports: true,
} as const;

/** What {@link runEvaluation} produced. */
export interface EvaluationResult {
  metrics: MetricsFile;
  /** The final prediction of every evaluated (system, question) pair, in system then question order. */
  predictions: Prediction[];
  /** Absolute output folder. */
  outDir: string;
  /** Absolute paths of the files written. */
  files: { manifest: string; predictions: string; metrics: string; markdown?: string; html?: string };
  /** Pairs answered by this call, and taken over from an earlier run. */
  answered: number;
  resumed: number;
  /** Per system: its fingerprint, the answers taken over, and whether it changed since the last run (answered again). */
  systems: SystemResume[];
}

/** How one system of a run was resumed (see {@link EvaluationResult.systems}). */
export interface SystemResume {
  system: string;
  /** sha256 of the system's id, configuration and code (`run.json` keeps it). */
  fingerprint: string;
  /** Answers taken over from an earlier run (0 when it changed). */
  resumed: number;
  /** The system's configuration or code changed since the run in the folder: its earlier answers were dropped. */
  changed: boolean;
}

const BuildRecordSchema = z.object({ system: z.string(), doc_file: z.string(), build_ms: z.number().nonnegative() });

const pairKey = (system: string, id: string): string => `${system}\u0000${id}`;

function safeFileName(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120);
  return safe === id ? safe : `${safe}-${createHash('sha256').update(id).digest('hex').slice(0, 8)}`;
}

function checkOptions(options: RunEvaluationOptions): void {
  const { questions, systems, limit, concurrency } = options;
  if (!Array.isArray(questions) || questions.length === 0) throw new DocTreeError('USAGE', 'runEvaluation needs at least one question');
  if (!Array.isArray(systems) || systems.length === 0) throw new DocTreeError('USAGE', 'runEvaluation needs at least one system', { hint: 'Pass systems, e.g. --systems doctree,rag.' });
  const ids = new Set<string>();
  for (const system of systems) {
    assertSystemId(system.id);
    if (ids.has(system.id)) throw new DocTreeError('USAGE', `system id "${system.id}" is given twice`, { hint: 'Each system (and each ablation) needs its own id.' });
    ids.add(system.id);
  }
  const qids = new Set<string>();
  for (const q of questions) {
    if (qids.has(q.id)) throw new DocTreeError('EVAL_DATASET_INVALID', `question id "${q.id}" appears twice`);
    qids.add(q.id);
  }
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new DocTreeError('USAGE', `limit must be a positive integer, got ${String(limit)}`);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0 && concurrency <= 256)) {
    throw new DocTreeError('USAGE', `concurrency must be an integer in 1..256, got ${String(concurrency)}`);
  }
  const ks = options.ks ?? DEFAULT_KS;
  if (ks.length === 0 || !ks.every((k) => Number.isInteger(k) && k > 0)) throw new DocTreeError('USAGE', `ks must be positive integers, got ${ks.join(', ')}`);
}

function describeSystem(system: QaSystem): QaSystemDescription {
  const description = system.describe?.() ?? {};
  if (description.ablationOf !== undefined) assertSystemId(description.ablationOf);
  return description;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function errorRecord(error: unknown): { code: string; message: string } {
  const e = DocTreeError.from(error, 'INTERNAL');
  return { code: e.code, message: e.message };
}

/** Runs up to `concurrency` workers over `items`; stops taking new items once `stop()` is true; rethrows the first fatal error. */
async function runPool<T>(items: readonly T[], concurrency: number, worker: (item: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  let fatal: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (next < items.length && !stop() && fatal === undefined) {
      const item = items[next++]!;
      try {
        await worker(item);
      } catch (error) {
        fatal ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  if (fatal !== undefined) throw fatal.error;
}

/**
 * Evaluates systems on questions and writes the results to `outDir`: `predictions.jsonl` (one line per system ×
 * question: answer, pages, support, ranked pages, latency, LLM use, trace path, gold and scores), a trace file per
 * answer under `traces/<system>/`, `metrics.json` (validated `MetricsFileSchema`), `report.md` and `report.html`.
 *
 * Resumable: every answer is appended as one complete line as soon as it is scored, so an interrupted run (crash,
 * Ctrl-C through `signal`) continues where it stopped when called again with the same `outDir`; a cut-short last
 * line is dropped. Each system prepares each document once (`prepare`, timed as index build time) before answering
 * its questions, with up to `concurrency` questions in flight. A failing answer is recorded with its error and
 * scored 0; it does not stop the run.
 *
 * @example
 * ```ts
 * const dataset = await loadDataset('data/eval/dev/questions.jsonl');
 * const { metrics } = await runEvaluation({ questions: dataset.questions, documentsDir: dataset.baseDir, systems: [doctree, rag], outDir: 'out/eval' });
 * ```
 */
export async function runEvaluation(options: RunEvaluationOptions): Promise<EvaluationResult> {
  checkOptions(options);
  const { dataset, concurrency, systemsInParallel, resume, retryErrors, reports } = { ...RUN_EVALUATION_DEFAULTS, ...options };
  const ks = [...(options.ks ?? DEFAULT_KS)];
  const scoring = options.scoring ?? {};
  const judge = options.judge ?? null;
  const secrets = [...(options.secrets ?? [])];
  const signal = options.signal;
  const outDir = resolve(options.outDir);
  const documentsDir = resolve(options.documentsDir ?? '.');
  const questions = options.limit !== undefined ? options.questions.slice(0, options.limit) : [...options.questions];
  const files = {
    manifest: join(outDir, EVAL_FILES.manifest),
    predictions: join(outDir, EVAL_FILES.predictions),
    builds: join(outDir, EVAL_FILES.builds),
    metrics: join(outDir, EVAL_FILES.metrics),
  };
  if (signal?.aborted) throw new DocTreeError('CANCELLED', 'the evaluation was cancelled before it started');

  // 1. The run manifest: create it, or check that the run in outDir is this one.
  const descriptions = new Map(options.systems.map((s) => [s.id, describeSystem(s)]));
  const now = new Date().toISOString();
  const manifest: RunManifest = {
    format: 'doctree.eval-run',
    version: 1,
    dataset,
    questions_sha256: questionsSha256(options.questions),
    n_questions: options.questions.length,
    ks,
    scoring: { extract: scoring.extract ?? true },
    judge_model: judge?.model ?? null,
    systems: Object.fromEntries(
      options.systems.map((s) => {
        const d = descriptions.get(s.id)!;
        const config = d.config === undefined ? undefined : redactSecrets(d.config, secrets);
        const code = d.code === undefined ? undefined : redactSecrets(d.code, secrets);
        return [
          s.id,
          {
            ...(d.label !== undefined ? { label: d.label } : {}),
            ...(d.ablationOf !== undefined ? { ablation_of: d.ablationOf } : {}),
            ...(d.description !== undefined ? { description: d.description } : {}),
            ...(config !== undefined ? { config } : {}),
            config_sha256: sha256Of(config ?? {}),
            ...(code !== undefined ? { code } : {}),
            fingerprint: systemFingerprint(s.id, config, code),
          },
        ];
      }),
    ),
    created_at: now,
    updated_at: now,
  };
  await mkdir(outDir, { recursive: true }).catch((error: unknown) => {
    throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: outDir });
  });
  const previous = await readRunManifest(files.manifest);
  if (previous === undefined && (await exists(files.predictions))) {
    throw new DocTreeError('USAGE', `${outDir} holds predictions.jsonl but no run.json, so the run it belongs to is unknown`, { file: outDir, hint: 'Choose another output folder, or delete that one to start over.' });
  }
  if (previous !== undefined) {
    if (!resume) {
      throw new DocTreeError('USAGE', `${outDir} already holds an evaluation run`, { file: outDir, hint: 'Resume it (--resume / resume: true), choose another output folder, or delete that one to start over.' });
    }
    const conflicts = manifestConflicts(previous, manifest);
    if (conflicts.length > 0) {
      throw new DocTreeError('CONFIG_INVALID', `cannot resume the run in ${outDir}: ${conflicts.join('; ')}`, {
        file: files.manifest,
        hint: `Run with the settings of the existing run, or write to another output folder (or delete ${outDir} to start over).`,
        details: { conflicts },
      });
    }
    manifest.created_at = previous.created_at;
    manifest.systems = { ...previous.systems, ...manifest.systems };
  }
  // A system whose configuration or code changed answers again: its earlier answers and build times are dropped
  // before the manifest names the new fingerprint, so an interrupted rerun never mixes the two.
  const changed = new Set(previous !== undefined ? changedSystems(previous, manifest) : []);
  if (changed.size > 0) {
    await dropSystemLines(files.predictions, changed);
    await dropSystemLines(files.builds, changed);
  }
  await writeFileAtomic(files.manifest, `${JSON.stringify(manifest, null, 2)}\n`);

  // 2. What is already done.
  const earlier = await readJsonLinesFile(files.predictions, PredictionSchema, 'prediction');
  const latest = new Map<string, Prediction>();
  for (const p of earlier.records) latest.set(pairKey(p.system, p.id), p);
  // Build times per system, per document file (file names are data: Maps, not object keys).
  const builds = new Map<string, Map<string, number>>();
  for (const b of (await readJsonLinesFile(files.builds, BuildRecordSchema, 'build record')).records) {
    const perDoc = builds.get(b.system) ?? new Map<string, number>();
    if (!perDoc.has(b.doc_file)) perDoc.set(b.doc_file, b.build_ms);
    builds.set(b.system, perDoc);
  }

  // 3. Answer what is missing.
  const predictionsOut = new JsonLinesAppender(files.predictions);
  const buildsOut = new JsonLinesAppender(files.builds);
  let answeredNow = 0;
  let resumedTotal = 0;
  const resumes: SystemResume[] = [];
  try {
    const runSystem = async (system: QaSystem, systemIndex: number): Promise<void> => {
      const started = performance.now();
      const isDone = (q: Question): boolean => {
        const p = latest.get(pairKey(system.id, q.id));
        return p !== undefined && !(retryErrors && p.error !== undefined);
      };
      const todo = questions.filter((q) => !isDone(q));
      const resumed = questions.length - todo.length;
      resumedTotal += resumed;
      const fingerprint = manifest.systems[system.id]!.fingerprint!;
      resumes[systemIndex] = { system: system.id, fingerprint, resumed, changed: changed.has(system.id) };
      let done = resumed;
      let newDone = 0;
      let errors = questions.filter((q) => isDone(q) && latest.get(pairKey(system.id, q.id))!.error !== undefined).length;
      const emit = (phase: EvalProgressEvent['phase'], extra: Partial<EvalProgressEvent> = {}): void => {
        const elapsedMs = performance.now() - started;
        const etaMs = newDone > 0 ? (elapsedMs / newDone) * (questions.length - done) : undefined;
        options.onProgress?.({ phase, system: system.id, systemIndex, systems: options.systems.length, done, total: questions.length, resumed, errors, elapsedMs, ...(etaMs !== undefined ? { etaMs } : {}), ...extra });
      };
      emit('start', { fingerprint, ...(changed.has(system.id) ? { changed: true } : {}) });
      const prepared = new Map<string, Promise<void>>();
      const prepare = (docFile: string, path: string): Promise<void> => {
        let pending = prepared.get(docFile);
        if (pending === undefined) {
          pending = (async () => {
            if (system.prepare === undefined) return;
            emit('prepare', { docFile });
            const result = await system.prepare({ docFile, path, ...(signal ? { signal } : {}) });
            const buildMs = Number.isFinite(result?.buildMs) && result.buildMs >= 0 ? result.buildMs : 0;
            const perDoc = builds.get(system.id) ?? new Map<string, number>();
            if (!perDoc.has(docFile)) {
              perDoc.set(docFile, buildMs);
              builds.set(system.id, perDoc);
              await buildsOut.append({ system: system.id, doc_file: docFile, build_ms: buildMs });
            }
          })();
          prepared.set(docFile, pending);
        }
        return pending;
      };

      await runPool(
        todo,
        concurrency,
        async (question) => {
          const path = resolve(documentsDir, question.doc_file);
          const t0 = performance.now();
          let answer: SystemAnswer | undefined;
          let failure: unknown;
          try {
            await prepare(question.doc_file, path);
            answer = validateSystemAnswer(await system.answer(question, { path, ...(signal ? { signal } : {}) }), system.id, question.id);
          } catch (error) {
            if (signal?.aborted) return; // not recorded: answered again on resume
            failure = error;
          }
          const measured = performance.now() - t0;
          const prediction = await buildPrediction(system.id, question, answer, failure, measured);
          await predictionsOut.append(prediction);
          latest.set(pairKey(system.id, question.id), prediction);
          done++;
          newDone++;
          answeredNow++;
          if (prediction.error !== undefined) errors++;
          emit('answered', { questionId: question.id, docFile: question.doc_file });
        },
        () => signal?.aborted === true,
      );
      if (!signal?.aborted) emit('done');
    };

    const buildPrediction = async (systemId: string, question: Question, answer: SystemAnswer | undefined, failure: unknown, measuredMs: number): Promise<Prediction> => {
      let tracePath: string | undefined;
      if (answer !== undefined) {
        tracePath = `${EVAL_FILES.traces}/${safeFileName(systemId)}/${safeFileName(question.id)}.json`;
        await writeFileAtomic(join(outDir, tracePath), `${JSON.stringify(redactSecrets(answer.answer.trace, secrets))}\n`);
      }
      const a = answer?.answer;
      const llm = answer?.llm ?? (a ? { calls: a.trace.llm.calls, promptTokens: a.trace.llm.prompt_tokens, completionTokens: a.trace.llm.completion_tokens } : { calls: 0, promptTokens: 0, completionTokens: 0 });
      const base: Prediction = {
        id: question.id,
        system: systemId,
        doc_file: question.doc_file,
        question: question.question,
        answer: a?.answer ?? '',
        answer_format: a?.answer_format ?? 'Str',
        confidence: a?.confidence ?? 0,
        ranked_pages: answer ? uniqueRanking(answer.rankedPages) : [],
        pages: a?.pages ?? [],
        support: a?.support ?? [],
        latency_ms: answer?.latencyMs ?? measuredMs,
        llm_calls: llm.calls,
        tokens: { prompt: llm.promptTokens, completion: llm.completionTokens },
        ...(tracePath !== undefined ? { trace_path: tracePath } : {}),
        ...(failure !== undefined ? { error: errorRecord(failure) } : {}),
      };
      const score = scorePrediction(question, base, { ...scoring, ks });
      if (judge !== null) {
        score.judge =
          failure !== undefined
            ? { correct: false, score: 0, reason: 'the system failed with an error', source: 'rules', model: judge.model }
            : await judgeAnswer({ question: question.question, gold: question, prediction: base.answer, ruleScore: { score: score.accuracy, rule: score.rule }, ...(signal ? { signal } : {}) }, { client: judge });
      }
      return redactSecrets({ ...base, gold: goldOf(question), score }, secrets);
    };

    if (systemsInParallel) await Promise.all(options.systems.map((s, i) => runSystem(s, i)));
    else for (const [i, s] of options.systems.entries()) {
      if (signal?.aborted) break;
      await runSystem(s, i);
    }
  } finally {
    await predictionsOut.close();
    await buildsOut.close();
  }
  const expected = options.systems.length * questions.length;
  if (signal?.aborted) {
    const have = options.systems.reduce((n, s) => n + questions.filter((q) => latest.has(pairKey(s.id, q.id))).length, 0);
    throw new DocTreeError('CANCELLED', `the evaluation was cancelled with ${have} of ${expected} answers saved in ${files.predictions}`, { file: outDir, hint: 'Run the same command again to resume.' });
  }

  // 4. Metrics and reports over the final prediction of every pair.
  const predictions = options.systems.flatMap((s) => questions.map((q) => latest.get(pairKey(s.id, q.id))!));
  const metrics = computeMetrics(predictions, {
    dataset,
    ks,
    judgeModel: judge?.model ?? null,
    systems: options.systems.map((s) => {
      const d = descriptions.get(s.id)!;
      const perDoc = builds.get(s.id);
      const docs = new Set(questions.map((q) => q.doc_file));
      const buildMs = perDoc ? Object.fromEntries([...perDoc].filter(([doc]) => docs.has(doc))) : undefined;
      return { id: s.id, ...(d.label !== undefined ? { label: d.label } : {}), ...(d.ablationOf !== undefined ? { ablationOf: d.ablationOf } : {}), ...(buildMs ? { buildMs } : {}) };
    }),
  });
  await writeFileAtomic(files.metrics, `${JSON.stringify(metrics, null, 2)}\n`);
  const written = reports ? await writeReports(metrics, predictions, outDir) : undefined;
  return {
    metrics,
    predictions,
    outDir,
    files: { manifest: files.manifest, predictions: files.predictions, metrics: files.metrics, ...(written ? { markdown: written.markdown, html: written.html } : {}) },
    answered: answeredNow,
    resumed: resumedTotal,
    systems: resumes.filter((r) => r !== undefined),
  };
}

/** Rewrites a JSON-lines file of the run (atomically) without the records of `systems`; other lines stay as written. */
async function dropSystemLines(path: string, systems: ReadonlySet<string>): Promise<void> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw DocTreeError.from(error, 'INPUT_UNREADABLE', { file: path });
  }
  const kept = text.split('\n').filter((line) => {
    if (line.trim() === '') return false;
    try {
      const record = JSON.parse(line) as { system?: unknown };
      return !(typeof record?.system === 'string' && systems.has(record.system));
    } catch {
      return true; // the reader reports it (or drops a cut-short last line) as before
    }
  });
  await writeFileAtomic(path, kept.length > 0 ? `${kept.join('\n')}\n` : '');
}
