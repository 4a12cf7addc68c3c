import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import {
  BaseQaSystem,
  COLLECTION_EVAL_FILES,
  EVAL_FILES,
  filterQuestions,
  JsonLinesAppender,
  loadDataset,
  parseQuestionFilter,
  readJsonLinesFile,
  readPredictions,
  renderCollectionEvalMarkdown,
  runEvaluation,
  SelectionRecordSchema,
  summarizeCollectionEval,
  type AnswerRequestOptions,
  type CollectionEvalReport,
  type EvaluationResult,
  type QaSystemDescription,
  type QuestionFilter,
  type SelectionRecord,
  type SystemAnswer,
} from '@doctree/eval';
import { configSecrets, DocTreeError, type CollectionManifest, type DocTreeConfig, type Question } from '@doctree/schema';
import { writeFileAtomic } from '@doctree/schema/node';
import { doctreeCodeFingerprint } from './code-fingerprint.js';
import { Collection } from './collection/collection.js';
import { runControls, type EvaluationRunControls } from './evaluate-questions.js';

/** Ids of the systems of a collection evaluation. */
export const COLLECTION_EVAL_SYSTEMS = {
  /** Asks the whole collection: document selection, then the DocTree agent on the selected documents. */
  collection: 'doctree-collection',
  /** Asks each question of its own document in the same collection (selection skipped): the single-document baseline. */
  single: 'doctree-single-doc',
} as const;

/** Options of {@link CollectionQaSystem}. */
export interface CollectionQaSystemOptions {
  /** `select`: document selection decides what is asked; `gold`: the question's own document is asked. */
  mode: 'select' | 'gold';
  /** The collection document of a question's file (absolute path), or undefined when it is not in the collection. */
  goldDocOf: (path: string) => string | undefined;
  /** sha256 of the collection's documents (see {@link collectionManifestSha256}): part of the system's fingerprint. */
  manifestSha256: string;
  /** System id. Default {@link COLLECTION_EVAL_SYSTEMS}`[mode === 'select' ? 'collection' : 'single']`. */
  id?: string;
  /** Documents asked per question in `select` mode; the most confident answer is kept. Default 1. */
  maxDocs?: number;
  /** Told of each question's selection (`select` mode), before and after the ask. */
  onSelection?: (record: SelectionRecord) => Promise<void>;
}

/** Defaults of {@link CollectionQaSystemOptions}. */
export const COLLECTION_QA_SYSTEM_DEFAULTS = { maxDocs: 1 } as const satisfies Partial<CollectionQaSystemOptions>;

/** Candidates kept in a selection record. */
const RECORDED_CANDIDATES = 10;

/**
 * A collection asked as an evaluated system. In `select` mode the question goes to the whole collection without its
 * document named (`Collection.select`, then the DocTree agent on the selected documents, the most confident answer
 * kept); its ranked pages count only when the kept answer comes from the question's own document (pages of another
 * document are misses). In `gold` mode the question's own document is asked directly: the single-document baseline on
 * the same index.
 */
export class CollectionQaSystem extends BaseQaSystem {
  readonly id: string;
  readonly #collection: Collection;
  readonly #options: CollectionQaSystemOptions & { maxDocs: number };

  constructor(collection: Collection, options: CollectionQaSystemOptions) {
    super();
    this.#collection = collection;
    this.#options = { ...COLLECTION_QA_SYSTEM_DEFAULTS, ...options };
    if (!(Number.isInteger(this.#options.maxDocs) && this.#options.maxDocs >= 1)) throw new DocTreeError('USAGE', `maxDocs must be a positive integer, got ${String(this.#options.maxDocs)}`);
    this.id = options.id ?? COLLECTION_EVAL_SYSTEMS[options.mode === 'select' ? 'collection' : 'single'];
  }

  override describe(): QaSystemDescription {
    const { config } = this.#collection;
    const select = this.#options.mode === 'select';
    return {
      label: select ? 'DocTree over the collection (document not named)' : 'DocTree on the question’s own document (collection index)',
      description: select ? `document selection (metadata, description BM25 + dense, node DocScore, RRF), then the agent on the best ${this.#options.maxDocs} document(s)` : 'the agent on the question’s document, selection skipped',
      code: doctreeCodeFingerprint(),
      config: {
        system: 'doctree-collection',
        mode: this.#options.mode,
        ...(select ? { max_docs: this.#options.maxDocs } : {}),
        collection_manifest_sha256: this.#options.manifestSha256,
        embedder: config.embedder.kind === 'hashing' ? { kind: 'hashing', dimension: config.embedder.dimension } : { kind: config.embedder.kind },
        vector_backend: config.index.backend,
        llm: config.llm.provider === 'none' ? 'none' : { model: config.llm.model },
        ctx_tokens: config.agent.ctx_tokens,
        max_replans: config.agent.max_replans,
        page_ranker: config.agent.page_ranker,
      },
    };
  }

  protected async _answer(question: Question, options: AnswerRequestOptions): Promise<SystemAnswer> {
    const gold = this.#options.goldDocOf(options.path);
    if (gold === undefined) throw new DocTreeError('INPUT_NOT_FOUND', `the document of question ${question.id} is not in the collection`, { file: options.path, hint: 'Add the file to the collection (`doctree collection sync`) or leave the question out.' });
    const signal = options.signal ? { signal: options.signal } : {};
    let docs = [gold];
    let record: SelectionRecord | undefined;
    if (this.#options.mode === 'select') {
      const selection = await this.#collection.select(question.question, { maxDocs: this.#options.maxDocs });
      docs = selection.selected;
      record = { system: this.id, id: question.id, gold_doc: gold, ranked: selection.ranked.slice(0, RECORDED_CANDIDATES).map((r) => r.doc_id), selected: selection.selected, answered_doc: null };
      await this.#options.onSelection?.(record);
    }
    const result = await this.#collection.ask(question.question, { docs, ...signal });
    if (record !== undefined) await this.#options.onSelection?.({ ...record, answered_doc: result.doc_id });
    const kept = result.documents.find((d) => d.doc_id === result.doc_id)!;
    const usage = result.documents.reduce((sum, d) => ({ calls: sum.calls + d.run.usage.llmCalls, promptTokens: sum.promptTokens + d.run.usage.promptTokens, completionTokens: sum.completionTokens + d.run.usage.completionTokens }), { calls: 0, promptTokens: 0, completionTokens: 0 });
    return { answer: result.answer, rankedPages: result.doc_id === gold ? kept.run.rankedPages : [], llm: usage };
  }
}

/**
 * sha256 of what a collection answers from: its embedder and every document row (id, content hash, build, metadata,
 * description). A sync that rebuilds, adds or removes a document changes it; a sync that changes nothing does not.
 */
export function collectionManifestSha256(manifest: CollectionManifest): string {
  const rows = manifest.documents.map((d) => ({ doc_id: d.doc_id, sha256: d.sha256, build_id: d.build_id, metadata: d.metadata, description: d.description }));
  return createHash('sha256').update(JSON.stringify({ embedder: manifest.embedder ?? null, documents: rows })).digest('hex');
}

/** Options of {@link evaluateCollection}; `concurrency`, `resume`, `retryErrors`, `onProgress` and `signal` as in `evaluateQuestions`. */
export interface EvaluateCollectionOptions extends EvaluationRunControls {
  /** The collection folder (built with `doctree collection ingest`). */
  collectionDir: string;
  /** Dataset files whose records name a document (`doc_file`); several are evaluated as one set (ids must be unique). */
  questions: string | readonly string[];
  /** Output folder of the run (the files of `doctree eval`, plus `selection.jsonl`, `collection.json`, `collection.md`). */
  outDir: string;
  /** Resolved configuration (embedder, vector backend, LLM, agent limits). */
  config: DocTreeConfig;
  /** Keep only questions passing every filter (`field=value`, `field~text`; see `parseQuestionFilter`). */
  filters?: ReadonlyArray<string | QuestionFilter>;
  /** Documents asked per question over the collection. Default 1. */
  maxDocs?: number;
  /**
   * The single-document answers to compare with: `'ask'` (default) asks each question of its own document in this run
   * (system {@link COLLECTION_EVAL_SYSTEMS}`.single`), `'none'` skips them, `{ runDir, system }` takes them from another
   * run's `predictions.jsonl` (matched by question id).
   */
  single?: 'ask' | 'none' | { runDir: string; system: string };
  /** Dataset name in reports. Default from the files. */
  dataset?: string;
  /** The first `limit` questions only (after filters). */
  limit?: number;
  /** k of the evidence-page recall reported next to selection. Default 5. */
  k?: number;
  /** An opened collection (default: `Collection.open(collectionDir, { config })`). */
  collection?: Collection;
}

/** What {@link evaluateCollection} returns: the evaluation, the collection report and its files. */
export interface EvaluateCollectionResult extends Omit<EvaluationResult, 'files'> {
  report: CollectionEvalReport;
  files: EvaluationResult['files'] & { collection: string; collectionMarkdown: string; selections: string };
}

async function fileSha256(path: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}

/** The deepest folder holding every path. */
function commonFolder(paths: readonly string[]): string {
  let common = paths[0]!;
  for (const p of paths.slice(1)) {
    while (common !== dirname(common) && p !== common && !p.startsWith(common.endsWith(sep) ? common : common + sep)) common = dirname(common);
  }
  return common;
}

/** The questions of several dataset files with `doc_file` relative to one folder. */
async function loadQuestionSets(files: readonly string[]): Promise<{ name: string; baseDir: string; questions: Question[] }> {
  if (files.length === 0) throw new DocTreeError('USAGE', 'a collection evaluation needs at least one questions file', { hint: 'Pass --questions FILE.' });
  const sets = await Promise.all(files.map((file) => loadDataset(file)));
  if (sets.length === 1) return { name: sets[0]!.name, baseDir: sets[0]!.baseDir, questions: sets[0]!.questions };
  const baseDir = commonFolder(sets.map((s) => s.baseDir));
  const questions = sets.flatMap((s) => s.questions.map((q) => ({ ...q, doc_file: relative(baseDir, resolve(s.baseDir, q.doc_file)).split(sep).join('/') })));
  return { name: sets.map((s) => s.name).join(' + '), baseDir, questions };
}

/**
 * Evaluates a collection the way PageIndex states its collection results: every question is asked of the whole
 * collection without naming its document. Writes the usual run files (`predictions.jsonl`, `metrics.json`, reports;
 * resumable, and a changed collection — another {@link collectionManifestSha256} — answers again), `selection.jsonl`
 * (each question's selection ranking and asked documents) and `collection.json` / `collection.md`: document-selection
 * accuracy@1 and @3, evidence-page recall@k counted only on the gold document's pages, and answer accuracy, next to
 * the same questions asked of their own document, with the differences in percentage points. Questions whose file is
 * not in the collection (matched by content hash) are left out and listed.
 *
 * @example
 * ```ts
 * const { report } = await evaluateCollection({ collectionDir: 'data/filings', questions: 'eval/questions.jsonl', outDir: 'runs/collection', config });
 * console.log(report.selection.accuracy_at_1, report.recall.diff_pp);
 * ```
 * @throws DocTreeError `INPUT_NOT_FOUND` (no collection), `USAGE` (bad filter, no questions left), `EVAL_DATASET_INVALID`, `CONFIG_INVALID` (resuming another run), `CANCELLED`.
 */
export async function evaluateCollection(options: EvaluateCollectionOptions): Promise<EvaluateCollectionResult> {
  const filters = (options.filters ?? []).map((f) => (typeof f === 'string' ? parseQuestionFilter(f) : f));
  const collection = options.collection ?? (await Collection.open(options.collectionDir, { config: options.config }));
  const manifest = await collection.manifest();
  if (!manifest || manifest.documents.length === 0) throw new DocTreeError('INPUT_NOT_FOUND', 'no collection (or an empty one) here', { file: collection.dir, hint: 'Build it with `doctree collection ingest --input-dir <dir> --collection-dir <dir>`.' });
  const manifestSha256 = collectionManifestSha256(manifest);
  const loaded = await loadQuestionSets(typeof options.questions === 'string' ? [options.questions] : options.questions);
  const filtered = filterQuestions(loaded.questions, filters);

  // Each question's document is found in the collection by content hash (file names may differ).
  const bySha = new Map(manifest.documents.map((d) => [d.sha256, d.doc_id]));
  const goldByPath = new Map<string, string>();
  const skipped: CollectionEvalReport['skipped'] = [];
  for (const path of new Set(filtered.map((q) => resolve(loaded.baseDir, q.doc_file)))) {
    const sha = await fileSha256(path);
    const doc = sha === undefined ? undefined : bySha.get(sha);
    if (doc !== undefined) goldByPath.set(path, doc);
  }
  const questions = filtered.filter((q) => {
    if (goldByPath.has(resolve(loaded.baseDir, q.doc_file))) return true;
    skipped.push({ id: q.id, doc_file: q.doc_file, reason: 'document not in the collection' });
    return false;
  });
  if (questions.length === 0) {
    throw new DocTreeError('USAGE', `no question left to ask: ${filtered.length === 0 ? 'the filters keep none' : 'none of their documents is in the collection'}`, {
      file: collection.dir,
      hint: filtered.length === 0 ? 'Check --filter against the fields of the questions file.' : 'Build the collection from the folder of the questions’ documents.',
    });
  }

  const outDir = resolve(options.outDir);
  await mkdir(outDir, { recursive: true }).catch((error: unknown) => {
    throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: outDir });
  });
  const selectionsPath = join(outDir, COLLECTION_EVAL_FILES.selections);
  const selections = new JsonLinesAppender(selectionsPath);
  const goldDocOf = (path: string): string | undefined => goldByPath.get(path);
  const single = options.single ?? 'ask';
  const systems = [
    new CollectionQaSystem(collection, { mode: 'select', goldDocOf, manifestSha256, ...(options.maxDocs !== undefined ? { maxDocs: options.maxDocs } : {}), onSelection: (record) => selections.append(record) }),
    ...(single === 'ask' ? [new CollectionQaSystem(collection, { mode: 'gold', goldDocOf, manifestSha256 })] : []),
  ];
  const dataset = options.dataset ?? `${loaded.name} (collection)`;
  let result: EvaluationResult;
  try {
    result = await runEvaluation({
      questions,
      systems,
      outDir,
      dataset,
      documentsDir: loaded.baseDir,
      secrets: configSecrets(options.config),
      ...runControls(options),
    });
  } finally {
    await selections.close();
  }

  const other = typeof single === 'object' ? await readPredictions(join(resolve(single.runDir), EVAL_FILES.predictions)) : undefined;
  if (other !== undefined && typeof single === 'object' && !other.some((p) => p.system === single.system)) {
    throw new DocTreeError('USAGE', `the run in ${single.runDir} has no answers of system ${JSON.stringify(single.system)}`, { file: single.runDir, hint: 'Name a system of that run (see its run.json).' });
  }
  const report = summarizeCollectionEval({
    dataset,
    collection: { dir: collection.dir, documents: manifest.documents.length, manifest_sha256: manifestSha256 },
    collectionSystem: systems[0]!.id,
    ...(single === 'ask' ? { singleSystem: systems[1]!.id } : typeof single === 'object' ? { singleSystem: single.system, singleRun: resolve(single.runDir), singlePredictions: other! } : {}),
    predictions: result.predictions,
    selections: (await readJsonLinesFile(selectionsPath, SelectionRecordSchema, 'selection record')).records,
    filters,
    skipped,
    ...(options.k !== undefined ? { k: options.k } : {}),
  });
  const files = { ...result.files, collection: join(outDir, COLLECTION_EVAL_FILES.report), collectionMarkdown: join(outDir, COLLECTION_EVAL_FILES.markdown), selections: selectionsPath };
  await writeFileAtomic(files.collection, `${JSON.stringify(report, null, 2)}\n`);
  await writeFileAtomic(files.collectionMarkdown, renderCollectionEvalMarkdown(report));
  return { ...result, report, files };
}
