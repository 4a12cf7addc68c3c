import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { analyzeQuestion, createChatClient } from '@doctree/agents';
import { DOC_FILES } from '@doctree/ingest';
import { INDEX_DIR, indexConfigHash } from '@doctree/index';
import {
  COLLECTION_METADATA_FIELDS,
  CollectionMetadataSchema,
  DocTreeError,
  parseWith,
  resolveConfig,
  type Answer,
  type CollectionDocument,
  type CollectionManifest,
  type CollectionMetadata,
  type CollectionMetadataField,
  type CollectionStatusReport,
  type CollectionStore,
  type CollectionSyncReport,
  type DocTree,
  type DocTreeConfig,
  type DocumentSelectionData,
  type PageIndexDocument,
} from '@doctree/schema';
import { openAgent, type AskedQuestion, type OpenedAgent } from '../ask-question.js';
import { createIndexComponents, type IndexComponents } from '../index-components.js';
import { documentIndexOptions, type CollectionBuildJob, type CollectionBuildProgress } from './build-document.js';
import { runCollectionBuilds } from './build-pool.js';
import { collectionBuildSettings } from './build-settings.js';
import { docIdFor, planChanges, scanInputDir, type PlanChangesOptions, type PlannedChange, type ScannedFile } from './collection-scan.js';
import { matchesFilters, rankDocuments, SELECTION_NODE_HITS, type CollectionFilters, type DocumentSelection } from './document-selection.js';
import { answerAcrossDocuments, crossDocumentPlan, primaryDocument, type CrossDocumentAnswer } from './cross-document.js';
import { FileCollectionStore } from './file-collection-store.js';
import { readDocumentSummary, refreshDocumentMetadata, writeDocumentMetadata } from './metadata-refresh.js';
import { OpenDocumentCache, type OpenDocumentCacheOptions } from './open-document-cache.js';
import { applyLlmChoice, llmSelectorFor, type LlmDocumentSelector } from './llm-selection.js';
import { toPageIndex } from './pageindex.js';

/** Options of {@link Collection.open}. */
export interface CollectionOptions {
  /** Resolved configuration (embedder, vector backend, LLM). Default: the built-in defaults (offline). */
  config?: DocTreeConfig;
  /** Storage; default a {@link FileCollectionStore} in the collection folder. */
  store?: CollectionStore;
  /** Cache folder of LLM summaries and `openai` embeddings. Default `<config.data_dir>/.cache`. */
  cacheDir?: string;
  /**
   * Ready-made index components (embedder…) for builds and questions. With any of them documents are built in this
   * thread (worker threads could only make the configuration's own components, and documents would be indexed with
   * another embedder than the one questions use).
   */
  components?: Partial<IndexComponents>;
  /**
   * Documents kept open between questions of {@link Collection.ask} (the agent over a loaded index), least recently
   * used first out. Default `OPEN_DOCUMENT_CACHE_DEFAULTS`: 8 documents, 512 MiB of index on disk.
   */
  openDocuments?: OpenDocumentCacheOptions;
}

/** Progress of {@link Collection.sync}. */
export type CollectionProgress =
  | { stage: 'scan'; files: number }
  | { stage: 'build'; doc_id: string; event: CollectionBuildProgress; done: number; total: number }
  | { stage: 'landed'; doc_id: string; ok: boolean; done: number; total: number; error?: DocTreeError }
  | { stage: 'removed'; doc_id: string }
  | { stage: 'selection' }
  | { stage: 'lock-wait'; holder: string };

/** Options of {@link Collection.sync} and {@link Collection.ingest}. */
export interface CollectionSyncOptions {
  /** Folder of source files. Default: the manifest's `input_dir`. */
  inputDir?: string;
  /** Rebuild every document, changed or not. Default false. */
  force?: boolean;
  /**
   * Documents built at the same time (worker threads): `'auto'` one per core. Default `'auto'`; always 1 (this thread)
   * when the collection was opened with ready-made `components`.
   */
  workers?: number | 'auto';
  /** How long to wait for another run's lock, ms. Default 0 (fail at once, naming the holder). */
  waitMs?: number;
  /** Enter sub-folders of the input folder (hidden folders and symlink loops skipped). Default true. */
  recursive?: boolean;
  onProgress?: (event: CollectionProgress) => void;
}

/** Options of {@link Collection.select} and {@link Collection.ask}. */
export interface CollectionSelectOptions {
  /** `select` (default): the best documents; `all`: every candidate. */
  mode?: 'select' | 'all';
  /** Ask exactly these documents (no selection). */
  docs?: readonly string[];
  /** Metadata filters applied before selection. */
  filters?: CollectionFilters;
  /** Documents asked in `select` mode. Default 1. */
  maxDocs?: number;
  /** In `select` mode, let the configured chat model choose among the first candidates. Default true (offline: no model). */
  llm?: boolean;
  signal?: AbortSignal;
}

/** Options of {@link Collection.ask}. */
export interface CollectionAskOptions extends CollectionSelectOptions {
  /** Most documents asked in `all` mode. Default 10. */
  maxAll?: number;
  signal?: AbortSignal;
  /** Told of each document as it is asked. */
  onDocument?: (docId: string) => void;
  /** Split a question that names several documents' subjects into parts and combine their answers. Default true. */
  crossDocument?: boolean;
}

/** One document's answer to a collection question. */
export interface CollectionDocumentAnswer {
  doc_id: string;
  run: AskedQuestion;
}

/** A question answered over a collection: the selection step, each asked document's run, and the chosen answer. */
export interface CollectionAnswer {
  question: string;
  selection: DocumentSelection;
  /** The chosen answer (the most confident one that is not a refusal; else the most confident). */
  answer: Answer;
  /** Document of the chosen answer. */
  doc_id: string;
  /** Every asked document's run, in selection order. */
  documents: CollectionDocumentAnswer[];
  /** The parts, their citations (document id + page) and the computation, when the answer combines several documents. */
  cross?: CrossDocumentAnswer;
}

const now = (): string => new Date().toISOString();

/**
 * A collection of documents: built from a folder with {@link Collection.ingest} / {@link Collection.sync} (one worker
 * thread per core, unchanged documents untouched, a lock against concurrent writers, each document committed on its
 * own), inspected with {@link Collection.status}, asked with {@link Collection.ask} (document selection, then the
 * DocTree agent on the selected documents), and exchanged with PageIndex trees.
 *
 * @example
 * ```ts
 * const collection = await Collection.open('data/reports', { config });
 * await collection.sync({ inputDir: 'pdfs/reports' });
 * const { answer, doc_id, selection } = await collection.ask('What was the operating margin in 2023?');
 * ```
 */
export class Collection {
  readonly dir: string;
  readonly store: CollectionStore;
  readonly config: DocTreeConfig;
  private readonly cacheDir: string;
  private readonly given: Partial<IndexComponents>;
  private components: Promise<IndexComponents> | undefined;
  /** Agents of documents asked recently, per document version folder (a rebuild is another folder). */
  private readonly opened: OpenDocumentCache<OpenedAgent>;
  /** Selection profiles read from the store, per document at one build and metadata update. */
  private readonly profiles = new Map<string, { version: string; data: Pick<DocumentSelectionData, 'profile' | 'profile_vector' | 'embedder_id'> }>();
  private selector: LlmDocumentSelector | null | undefined;

  private constructor(dir: string, options: CollectionOptions) {
    this.dir = dir;
    this.config = options.config ?? resolveConfig({}).config;
    this.store = options.store ?? new FileCollectionStore(dir, { backend: this.config.index.backend, hnswMinNodes: this.config.index.hnsw_min_vectors });
    this.cacheDir = options.cacheDir ?? join(this.config.data_dir, '.cache');
    this.given = options.components ?? {};
    this.opened = new OpenDocumentCache(options.openDocuments);
  }

  /** Documents kept open for questions now ({@link CollectionOptions.openDocuments}) and their index bytes on disk. */
  get openDocuments(): { documents: number; bytes: number } {
    return { documents: this.opened.size, bytes: this.opened.bytes };
  }

  /** Opens (not yet creates) the collection in `dir`. */
  static async open(dir: string, options: CollectionOptions = {}): Promise<Collection> {
    return new Collection(resolve(dir), options);
  }

  /** The manifest, or undefined when nothing was built yet. */
  async manifest(): Promise<CollectionManifest | undefined> {
    return this.store.readManifest();
  }

  private indexComponents(): Promise<IndexComponents> {
    this.components ??= (async () => {
      const chat = this.given.summarizer ? undefined : createChatClient(this.config);
      return createIndexComponents(this.config, { cacheDir: this.cacheDir, given: this.given, ...(chat ? { chat } : {}) });
    })();
    return this.components;
  }

  private async requireManifest(): Promise<CollectionManifest> {
    const manifest = await this.store.readManifest();
    if (!manifest) throw new DocTreeError('INPUT_NOT_FOUND', 'no collection here', { file: this.dir, hint: 'Create it with `doctree collection ingest --input-dir <dir> --collection-dir <dir>`.' });
    return manifest;
  }

  private async inputDirOf(given: string | undefined): Promise<string> {
    if (given !== undefined) return resolve(given);
    const manifest = await this.store.readManifest();
    if (!manifest) throw new DocTreeError('USAGE', 'no input folder: the collection does not exist yet', { hint: 'Pass --input-dir.' });
    return manifest.input_dir;
  }

  /** What a sync would change (nothing is written); `recursive: false` looks at the input folder only. */
  async status(inputDir?: string, options: Pick<CollectionSyncOptions, 'recursive'> = {}): Promise<CollectionStatusReport> {
    const manifest = await this.store.readManifest();
    const dir = await this.inputDirOf(inputDir);
    const planned = planChanges(manifest, await this.scan(dir, options), await this.planOptions());
    const indexed = new Map((manifest?.documents ?? []).map((d) => [d.doc_id, d.indexed_at]));
    return {
      format: 'doctree.collection-status',
      version: 1,
      collection_dir: this.dir,
      input_dir: dir,
      ...(manifest ? { created_at: manifest.created_at, updated_at: manifest.updated_at } : {}),
      documents: manifest?.documents.length ?? 0,
      entries: planned.map((p) => ({ change: p.change, doc_id: p.doc_id, path: p.path, ...(indexed.has(p.doc_id) && p.change !== 'new' ? { indexed_at: indexed.get(p.doc_id)! } : {}), ...(p.reason ? { reason: p.reason } : {}) })),
      pending: planned.filter((p) => p.change !== 'unchanged').length,
    };
  }

  /** Adds new files, rebuilds modified ones and retries failed ones; never removes (see {@link Collection.sync}). */
  async ingest(options: CollectionSyncOptions = {}): Promise<CollectionSyncReport> {
    return this.apply('ingest', options);
  }

  /** Brings the collection in step with its input folder: adds new files, rebuilds modified ones, removes deleted ones. */
  async sync(options: CollectionSyncOptions = {}): Promise<CollectionSyncReport> {
    return this.apply('sync', options);
  }

  /** What decides, beside content, whether a document is current: the ingest settings and the embedder builds use now. */
  private async planOptions(): Promise<PlanChangesOptions> {
    // An embedder that cannot be made here (its word vectors missing…) fails the builds that need it, not the plan.
    const components = await this.indexComponents().catch(() => undefined);
    if (components === undefined) return { ingest: this.config.ingest };
    // The hash buildCollectionDocument's index build records.
    const indexConfig = indexConfigHash(documentIndexOptions(components));
    return { ingest: this.config.ingest, embedderId: components.embedder.id, indexConfig };
  }

  /** The input folder's source files; the collection folder is never scanned as input. */
  private scan(inputDir: string, options: Pick<CollectionSyncOptions, 'recursive'>): Promise<ScannedFile[]> {
    return scanInputDir(inputDir, { exclude: [this.dir], ...(options.recursive !== undefined ? { recursive: options.recursive } : {}) });
  }

  private async apply(mode: 'ingest' | 'sync', options: CollectionSyncOptions): Promise<CollectionSyncReport> {
    const started = performance.now();
    const progress = options.onProgress ?? (() => undefined);
    const inputDir = await this.inputDirOf(options.inputDir);
    const lock = await this.store.lock({ waitMs: options.waitMs ?? 0, onWait: (o) => progress({ stage: 'lock-wait', holder: `process ${o.pid} on ${o.host}, started ${o.started}` }) });
    try {
      let t = performance.now();
      const files = await this.scan(inputDir, options);
      progress({ stage: 'scan', files: files.length });
      const manifest = await this.store.initialize({ input_dir: inputDir });
      const planned = planChanges(manifest, files, await this.planOptions());
      const scanMs = performance.now() - t;
      const report: CollectionSyncReport = {
        format: 'doctree.collection-sync',
        version: 1,
        mode,
        collection_dir: this.dir,
        input_dir: inputDir,
        added: [],
        updated: [],
        removed: [],
        unchanged: [],
        failed: [],
        documents: 0,
        workers: 0,
        timings_ms: { scan: Math.round(scanMs), build: 0, selection: 0, total: 0 },
      };
      if (mode === 'sync') {
        for (const gone of planned.filter((p) => p.change === 'deleted')) {
          await this.store.removeDocument(gone.doc_id);
          report.removed.push(gone.doc_id);
          progress({ stage: 'removed', doc_id: gone.doc_id });
        }
      }
      const toBuild = planned.filter((p): p is PlannedChange & { file: ScannedFile } => p.file !== undefined && (options.force || p.change !== 'unchanged'));
      report.unchanged = planned.filter((p) => p.change === 'unchanged' && !options.force).map((p) => p.doc_id);
      t = performance.now();
      await this.buildAll(manifest, toBuild, report, options, progress);
      report.timings_ms.build = Math.round(performance.now() - t);
      t = performance.now();
      const refreshed = await this.refreshMetadata(report.unchanged);
      if (refreshed.length > 0) report.metadata_refreshed = refreshed;
      progress({ stage: 'selection' });
      await this.store.refreshSelectionIndex();
      report.timings_ms.selection = Math.round(performance.now() - t);
      report.documents = (await this.requireManifest()).documents.length;
      report.timings_ms.total = Math.round(performance.now() - started);
      return sortedReport(report);
    } finally {
      this.forgetOpened();
      await lock.release();
    }
  }

  private async buildAll(manifest: CollectionManifest, planned: ReadonlyArray<PlannedChange & { file: ScannedFile }>, report: CollectionSyncReport, options: CollectionSyncOptions, progress: (event: CollectionProgress) => void): Promise<void> {
    const rows = new Map(manifest.documents.map((d) => [d.doc_id, d]));
    const jobs: CollectionBuildJob[] = [];
    // Largest files first, so the last document built leaves no worker idle for long.
    const order = [...planned.entries()].sort((a, b) => b[1].file.size - a[1].file.size || a[0] - b[0]);
    for (const [index, p] of order) {
      const previous = rows.get(p.doc_id)?.metadata;
      jobs.push({ index, docId: p.doc_id, input: p.file.absolute, kind: p.file.kind, staged: await this.store.stageDocument(p.doc_id), config: this.config, ...(previous ? { previous } : {}) });
    }
    const byIndex = new Map(planned.map((p, i) => [i, p]));
    let done = 0;
    // Components given ready-made exist in this thread only: workers would build with the configuration's own.
    const workers = Object.values(this.given).some((part) => part !== undefined) ? 1 : (options.workers ?? 'auto');
    const builds = runCollectionBuilds(jobs, {
      workers,
      components: () => this.indexComponents(),
      cacheDir: this.cacheDir,
      onProgress: (job, event) => progress({ stage: 'build', doc_id: job.docId, event, done, total: jobs.length }),
    });
    report.workers = jobs.length === 0 ? 0 : Math.min(jobs.length, workers === 'auto' ? availableParallelism() : workers);
    for await (const outcome of builds) {
      done++;
      const p = byIndex.get(outcome.job.index)!;
      if (outcome.error) {
        await this.store.discardStaged(outcome.job.staged);
        // With the OCR fingerprint too: whatever setting the failure came from, changing it tries the file again.
        await this.store.recordFailure({ path: p.path, sha256: p.file.sha256, code: outcome.error.code, message: outcome.error.message, at: now(), build_settings: collectionBuildSettings(this.config.ingest, { ocr: true }) });
        report.failed.push({ doc_id: p.doc_id, path: p.path, code: outcome.error.code, message: outcome.error.message });
        progress({ stage: 'landed', doc_id: p.doc_id, ok: false, done, total: jobs.length, error: outcome.error });
        continue;
      }
      const r = outcome.result;
      const previous = rows.get(p.doc_id);
      const at = now();
      const row: CollectionDocument = {
        doc_id: p.doc_id,
        path: p.path,
        kind: p.file.kind,
        sha256: p.file.sha256,
        size: p.file.size,
        mtime: p.file.mtime,
        build_id: r.build_id,
        pages: r.pages,
        ingest_warnings: r.warnings,
        indexed_at: at,
        created_at: previous?.created_at ?? at,
        updated_at: at,
        description: r.description,
        metadata: r.metadata,
        build_settings: collectionBuildSettings(this.config.ingest, { ocr: r.textless > 0, indexConfig: r.indexConfig }),
      };
      await this.store.commitDocument(row, r.staged, r.selection);
      (previous ? report.updated : report.added).push(p.doc_id);
      progress({ stage: 'landed', doc_id: p.doc_id, ok: true, done, total: jobs.length });
    }
  }

  /**
   * Sets metadata fields of a document by hand (they are kept when the document is rebuilt); `undefined` clears a
   * field. The description and the document's profile for selection follow.
   *
   * @throws DocTreeError `INPUT_NOT_FOUND` for an unknown document, `SCHEMA_INVALID` for a bad value.
   */
  async setMetadata(docId: string, patch: Partial<Record<CollectionMetadataField, string | number | undefined>>, options: { waitMs?: number } = {}): Promise<CollectionDocument> {
    const lock = await this.store.lock({ waitMs: options.waitMs ?? 0 });
    try {
      const manifest = await this.requireManifest();
      const row = manifest.documents.find((d) => d.doc_id === docId);
      if (!row) throw new DocTreeError('INPUT_NOT_FOUND', `no document ${JSON.stringify(docId)} in this collection`, { file: this.dir });
      const next: Record<string, unknown> = { ...row.metadata, edited: [...row.metadata.edited] };
      for (const field of COLLECTION_METADATA_FIELDS) {
        if (!Object.hasOwn(patch, field)) continue;
        const value = patch[field];
        if (value === undefined) delete next[field];
        else next[field] = value;
        if (!(next['edited'] as string[]).includes(field)) (next['edited'] as string[]).push(field);
      }
      const metadata: CollectionMetadata = parseWith(CollectionMetadataSchema, next, { what: 'metadata' });
      return await writeDocumentMetadata(this.store, docId, metadata, async () => (await this.indexComponents()).embedder, (summary) => summary?.description.split(/(?<=[.!?])\s/)[0] ?? '');
    } finally {
      await lock.release();
    }
  }

  /**
   * Extracts again, from their stored text, the metadata of the given documents that an older extraction read
   * (`METADATA_EXTRACTOR_VERSION`); their descriptions and profiles follow (`refreshDocumentMetadata`). Hand-edited
   * fields are kept. Nothing is rebuilt. Returns the ids refreshed. Called under the writer lock.
   */
  private async refreshMetadata(docIds: readonly string[]): Promise<string[]> {
    const manifest = await this.requireManifest();
    const ids = new Set(docIds);
    const out: string[] = [];
    const embedder = async () => (await this.indexComponents()).embedder;
    for (const row of manifest.documents.filter((d) => ids.has(d.doc_id))) {
      if (await refreshDocumentMetadata(this.store, row, embedder)) out.push(row.doc_id);
    }
    return out;
  }

  /**
   * Which documents a question is about (see `rankDocuments`): filters, then metadata named in the question, then
   * reciprocal-rank fusion of description match (BM25 and dense) and node hits of the selection index.
   */
  async select(question: string, options: CollectionSelectOptions = {}): Promise<DocumentSelection> {
    const manifest = await this.requireManifest();
    if (options.docs && options.docs.length > 0) {
      for (const id of options.docs) {
        if (!manifest.documents.some((d) => d.doc_id === id)) throw new DocTreeError('USAGE', `no document ${JSON.stringify(id)} in this collection`, { file: this.dir, hint: 'List the documents with `doctree collection status`.' });
      }
      return { mode: 'doc', ranked: [], selected: [...options.docs], filtered_out: 0 };
    }
    const candidates = manifest.documents.filter((d) => matchesFilters(d, options.filters ?? {}));
    const embedder = (await this.indexComponents()).embedder;
    const query = await embedder.embedQuery(question);
    // The periods the question names, read once by the question analysis (any written form: FY21, Q2 2023, fiscal 2021).
    const analysis = analyzeQuestion(question);
    const profiles = await Promise.all(candidates.map(async (row) => ({ row, data: await this.selectionProfile(row) })));
    const ids = new Set(candidates.map((c) => c.doc_id));
    const hits = manifest.embedder?.id === embedder.id ? await this.store.searchNodes(query, SELECTION_NODE_HITS, ids) : [];
    const ranked = rankDocuments(
      question,
      profiles.map(({ row, data }) => ({ row, profile: data.profile, profileVector: data.embedder_id === embedder.id ? data.profile_vector : new Float32Array(0) })),
      query,
      hits,
      { years: analysis.years, quarter: analysis.quarter },
    );
    const mode = options.mode ?? 'select';
    const selected = mode === 'all' ? ranked.map((r) => r.doc_id) : ranked.slice(0, Math.max(1, options.maxDocs ?? 1)).map((r) => r.doc_id);
    if (mode === 'select' && options.llm !== false && ranked.length > 1 && (this.selector ??= llmSelectorFor(this.config) ?? null)) {
      const rows = new Map(candidates.map((c) => [c.doc_id, c]));
      const llm = await this.selector.choose(question, ranked.map((r) => rows.get(r.doc_id)!), options.signal);
      return { mode, ranked, selected: applyLlmChoice(selected, llm, options.maxDocs ?? 1), filtered_out: manifest.documents.length - candidates.length, llm };
    }
    return { mode, ranked, selected, filtered_out: manifest.documents.length - candidates.length };
  }

  /**
   * Answers a question over the collection: selects documents ({@link Collection.select}, or `docs`), asks the DocTree
   * agent on each, and keeps the most confident answer that is not a refusal. Every run is returned, so an answer can
   * cite several documents.
   *
   * @throws DocTreeError `INPUT_NOT_FOUND` (no collection), `USAGE` (unknown `docs`), errors of the agent.
   */
  async ask(question: string, options: CollectionAskOptions = {}): Promise<CollectionAnswer> {
    const selection = await this.select(question, options);
    const asked = selection.selected.slice(0, selection.mode === 'all' ? (options.maxAll ?? 10) : undefined);
    if (asked.length === 0) throw new DocTreeError('USAGE', 'no document matches the filters', { file: this.dir, hint: 'Loosen --where, or list the documents with `doctree collection status`.' });
    const components = await this.indexComponents();
    const plan = options.crossDocument === false ? undefined : crossDocumentPlan(question, selection, (await this.requireManifest()).documents);
    if (plan) {
      const outcome = await answerAcrossDocuments(question, plan, async (docId, part) => {
        options.onDocument?.(docId);
        return this.askDocument(docId, part, components, options.signal);
      });
      return { question, selection: { ...selection, selected: plan.parts.map((p) => p.doc_id) }, answer: outcome.answer, doc_id: primaryDocument(plan, selection), documents: outcome.runs, cross: outcome.cross };
    }
    const documents: CollectionDocumentAnswer[] = [];
    for (const docId of asked) {
      options.onDocument?.(docId);
      documents.push({ doc_id: docId, run: await this.askDocument(docId, question, components, options.signal) });
    }
    const answered = documents.filter((d) => d.run.answer.answer_format !== 'None' && !d.run.answer.abstention);
    const pool = answered.length > 0 ? answered : documents;
    const best = pool.reduce((a, b) => (b.run.answer.confidence > a.run.answer.confidence ? b : a));
    return { question, selection, answer: best.run.answer, doc_id: best.doc_id, documents };
  }

  /**
   * Asks one document with its agent kept open between questions: opened (index loaded, agent built) once per version
   * folder of the document, so a rebuilt document is opened again and an unchanged one is not.
   */
  private async askDocument(docId: string, question: string, components: IndexComponents, signal: AbortSignal | undefined): Promise<AskedQuestion> {
    const dir = await this.store.documentDir(docId);
    const opened = await this.opened.use(docId, dir, async () => {
      const value = await openAgent(dir, { config: this.config, cacheDir: this.cacheDir, components });
      return { value, bytes: await openedBytes(dir) };
    });
    const run = await opened.agent.ask(question, signal ? { signal } : {});
    return { ...run, document: opened.document };
  }

  /** A document's selection profile, read from the store once per build and metadata update. */
  private async selectionProfile(row: CollectionDocument): Promise<Pick<DocumentSelectionData, 'profile' | 'profile_vector' | 'embedder_id'>> {
    const version = `${row.build_id}|${row.updated_at}`;
    const kept = this.profiles.get(row.doc_id);
    if (kept?.version === version) return kept.data;
    const { profile, profile_vector, embedder_id } = await this.store.selectionData(row.doc_id);
    const data = { profile, profile_vector, embedder_id };
    this.profiles.set(row.doc_id, { version, data });
    return data;
  }

  /** Drops the open documents and profiles (after a sync or import: versions changed, documents went away). */
  private forgetOpened(): void {
    this.opened.forget();
    this.profiles.clear();
  }

  /** The PageIndex tree of a document (`{doc_name, doc_description, structure}`, 1-based pages). */
  async exportPageIndex(docId: string): Promise<PageIndexDocument> {
    const manifest = await this.requireManifest();
    const row = manifest.documents.find((d) => d.doc_id === docId);
    if (!row) throw new DocTreeError('INPUT_NOT_FOUND', `no document ${JSON.stringify(docId)} in this collection`, { file: this.dir });
    const dir = await this.store.documentDir(docId);
    const tree = JSON.parse(await readFile(join(dir, DOC_FILES.tree), 'utf8')) as DocTree;
    const summary = await readDocumentSummary(this.store, docId);
    return toPageIndex(tree, { docName: basename(row.path), description: row.description, ...(summary ? { summary } : {}) });
  }

  /**
   * Adds PageIndex trees (`*_structure.json` files) to the collection: each becomes a document (headings on their pages,
   * summaries as text) with its own row; it stays when the input folder is synced.
   */
  async importPageIndex(files: readonly string[], options: Omit<CollectionSyncOptions, 'inputDir' | 'force'> = {}): Promise<CollectionSyncReport> {
    const started = performance.now();
    const progress = options.onProgress ?? (() => undefined);
    const lock = await this.store.lock({ waitMs: options.waitMs ?? 0 });
    try {
      const existing = await this.store.readManifest();
      const manifest = existing ?? (await this.store.initialize({ input_dir: resolve(files[0] ? join(files[0], '..') : '.') }));
      const taken = new Map(manifest.documents.map((d) => [d.doc_id, d.path]));
      const planned: Array<PlannedChange & { file: ScannedFile }> = [];
      for (const file of files) {
        const absolute = resolve(file);
        const bytes = await readFile(absolute).catch((cause: unknown) => {
          throw new DocTreeError('INPUT_NOT_FOUND', 'no such file', { file: absolute, cause });
        });
        const info = await stat(absolute);
        const row = manifest.documents.find((d) => d.path === absolute);
        const docId = row?.doc_id ?? docIdFor(absolute, taken);
        taken.set(docId, absolute);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        planned.push({ change: row ? 'modified' : 'new', doc_id: docId, path: absolute, file: { path: absolute, absolute, kind: 'pageindex', sha256, size: info.size, mtime: info.mtime.toISOString() } });
      }
      const report: CollectionSyncReport = {
        format: 'doctree.collection-sync',
        version: 1,
        mode: 'ingest',
        collection_dir: this.dir,
        input_dir: manifest.input_dir,
        added: [],
        updated: [],
        removed: [],
        unchanged: [],
        failed: [],
        documents: 0,
        workers: 0,
        timings_ms: { scan: 0, build: 0, selection: 0, total: 0 },
      };
      let t = performance.now();
      await this.buildAll(manifest, planned, report, { ...options, workers: 1 }, progress);
      report.timings_ms.build = Math.round(performance.now() - t);
      t = performance.now();
      await this.store.refreshSelectionIndex();
      report.timings_ms.selection = Math.round(performance.now() - t);
      report.documents = (await this.requireManifest()).documents.length;
      report.timings_ms.total = Math.round(performance.now() - started);
      return report;
    } finally {
      this.forgetOpened();
      await lock.release();
    }
  }
}

/** Bytes on disk of what opening a document loads: its tree and its index folder (an estimate of its memory). */
async function openedBytes(docDir: string): Promise<number> {
  const size = async (path: string): Promise<number> => (await stat(path).catch(() => undefined))?.size ?? 0;
  const index = join(docDir, INDEX_DIR);
  const files = await readdir(index, { recursive: true }).catch(() => [] as string[]);
  const sizes = await Promise.all([join(docDir, DOC_FILES.tree), ...files.map((f) => join(index, f))].map(size));
  return sizes.reduce((a, b) => a + b, 0);
}

/** The report with its id lists in name order (documents land in the order they finish). */
function sortedReport(report: CollectionSyncReport): CollectionSyncReport {
  const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return { ...report, added: [...report.added].sort(byName), updated: [...report.updated].sort(byName), removed: [...report.removed].sort(byName), unchanged: [...report.unchanged].sort(byName), failed: [...report.failed].sort((a, b) => byName(a.doc_id, b.doc_id)) };
}
