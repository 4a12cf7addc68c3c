import { DocTreeError, resolveConfig, type ChatModelClient, type Embedder, type LlmConfig } from '@doctree/schema';
import { createEmbedder } from '@doctree/index';
import type { IngestLimitOptions, IngestOcrOptions } from '@doctree/ingest';
import { Bm25FileSchema, Bm25Index } from './bm25.js';
import { ChildRecordSchema, ParentRecordSchema, type ChildRecord, type ParentRecord } from './chunk-records.js';
import { workspaceConfigHash, WorkspaceConfigSchema, type WorkspaceConfig } from './config.js';
import { appendVersionLog, readJson, readJsonIfPresent, readJsonLines, writeJsonAtomic } from './io.js';
import { workspacePaths, type WorkspacePaths } from './layout.js';
import { ProjectFileSchema, type ProjectFile } from './project.js';
import { LocalChunkRetriever, type EvidenceRetriever } from './retrieval.js';
import { SourcesFileSchema, type SourceRecord } from './sources.js';
import { loadVectors } from './vector-store.js';

/** Options of {@link EvidenceWorkspace} (and of the operations it runs). */
export interface EvidenceWorkspaceOptions {
  /** Clock (tests pin it). Default `() => new Date()`. */
  now?: () => Date;
  /** Chat model (from `llm.*` of the DocTree configuration); offline when absent. */
  chat?: ChatModelClient;
  /** LLM endpoint settings for the `openai` embedder. Default: offline settings. */
  llm?: LlmConfig;
  /** Embedder to use instead of the one `embedding.kind` names (tests, SDK users). */
  embedder?: Embedder;
  /** Folder of the SIF word-vector cache. */
  sifCacheDir?: string;
  /** Retriever to use instead of the local one over `chunks/` and `index/` (e.g. a DocTree collection). */
  retriever?: EvidenceRetriever;
  /** Resource limits of parsing. */
  ingestLimits?: IngestLimitOptions;
  /** OCR of pages without a text layer when parsing (`ingest.ocr` of the configuration through `ingestOcrFromConfig`). */
  ingestOcr?: IngestOcrOptions;
  /** Page worker threads when parsing PDFs (default: `ingestFile`'s). */
  pdfWorkers?: number | 'auto';
  /** Called with each warning as it happens. */
  onWarning?: (warning: string) => void;
  signal?: AbortSignal;
}

/** What every operation of a workspace needs. */
export interface WorkspaceContext {
  paths: WorkspacePaths;
  config: WorkspaceConfig;
  configHash: string;
  project: ProjectFile;
  options: EvidenceWorkspaceOptions;
  now(): Date;
  chat: ChatModelClient | undefined;
  warn(warning: string): void;
}

/** Opens the workspace at `root`: reads its configuration and `meta/project.json`. */
export async function openContext(root: string, options: EvidenceWorkspaceOptions): Promise<WorkspaceContext> {
  const paths = workspacePaths(root);
  const hint = `Run \`doctree workspace init ${root}\` first (or pass --workspace DIR).`;
  const config = await readJsonIfPresent(paths.config, WorkspaceConfigSchema, 'workspace configuration');
  if (!config) throw new DocTreeError('INPUT_NOT_FOUND', 'not an evidence workspace (no workspace.config.json)', { file: paths.config, hint });
  const project = await readJson(paths.project, ProjectFileSchema, 'project file', hint);
  return {
    paths,
    config,
    configHash: workspaceConfigHash(config),
    project,
    options,
    now: options.now ?? (() => new Date()),
    chat: options.chat,
    warn: options.onWarning ?? (() => undefined),
  };
}

/** Appends a line to `meta/version_log.jsonl`. */
export function logChange(ctx: WorkspaceContext, command: string, file: string, from: string | null, to: string, reason: string): Promise<void> {
  return appendVersionLog(ctx.paths.root, ctx.paths.versionLog, { timestamp: ctx.now().toISOString(), command, file, from, to, reason });
}

/** The sources registry (empty before the first scan). */
export async function loadSources(ctx: WorkspaceContext): Promise<SourceRecord[]> {
  return (await readJsonIfPresent(ctx.paths.sources, SourcesFileSchema, 'sources registry'))?.sources ?? [];
}

/** Writes the sources registry atomically. */
export function saveSources(ctx: WorkspaceContext, sources: readonly SourceRecord[]): Promise<void> {
  return writeJsonAtomic(ctx.paths.sources, { format: 'doctree.workspace-sources', version: 1, sources });
}

/** Parents and children of `chunks/`. */
export async function loadChunks(ctx: WorkspaceContext): Promise<{ parents: ParentRecord[]; children: ChildRecord[] }> {
  const [parents, children] = await Promise.all([readJsonLines(ctx.paths.parents, ParentRecordSchema, 'parents'), readJsonLines(ctx.paths.children, ChildRecordSchema, 'chunks')]);
  return { parents, children };
}

/** The embedder the configuration names (or the one given in the options). */
export function workspaceEmbedder(ctx: WorkspaceContext): Embedder {
  if (ctx.options.embedder) return ctx.options.embedder;
  const llm = ctx.options.llm ?? resolveConfig({ env: {} }).config.llm;
  return createEmbedder({ kind: ctx.config.embedding.kind, dimension: ctx.config.embedding.dimension, batch_size: ctx.config.embedding.batch_size }, llm, {
    ...(ctx.options.sifCacheDir !== undefined ? { sifCacheDir: ctx.options.sifCacheDir } : {}),
  });
}

/**
 * The retriever of the workspace: the one given in the options (a collection, an SDK user's), else the local one over
 * `chunks/` and `index/`.
 *
 * @throws DocTreeError `INDEX_MISSING` before `embed`, `EMBEDDER_MISMATCH` when the configuration names another embedder.
 */
export async function workspaceRetriever(ctx: WorkspaceContext): Promise<EvidenceRetriever> {
  if (ctx.options.retriever) return ctx.options.retriever;
  const { parents, children } = await loadChunks(ctx);
  const vectors = await loadVectors(ctx.paths.vectorsMeta, ctx.paths.vectors);
  if (!vectors) throw new DocTreeError('INDEX_MISSING', 'the workspace has no vector index yet', { file: ctx.paths.vectorsMeta, hint: 'Run `doctree workspace parse`, `chunk` and `embed` first.' });
  const embedder = workspaceEmbedder(ctx);
  if (embedder.id !== vectors.meta.embedder_id) {
    throw new DocTreeError('EMBEDDER_MISMATCH', `the index was built with ${vectors.meta.embedder_id}, the configuration names ${embedder.id}`, { hint: 'Run `doctree workspace embed` again.' });
  }
  const bm25File = await readJsonIfPresent(ctx.paths.bm25, Bm25FileSchema, 'BM25 index');
  return new LocalChunkRetriever({
    parents,
    children,
    vectors,
    embedder,
    candidateK: ctx.config.rerank.candidate_k,
    rerank: ctx.config.rerank.enabled,
    ...(bm25File ? { bm25: new Bm25Index(bm25File) } : {}),
  });
}

/** {@link workspaceRetriever}, or undefined when there is nothing to search yet (no retriever given and no chunks). */
export async function workspaceRetrieverIfAny(ctx: WorkspaceContext): Promise<EvidenceRetriever | undefined> {
  if (ctx.options.retriever) return ctx.options.retriever;
  const { children } = await loadChunks(ctx);
  return children.length > 0 ? workspaceRetriever(ctx) : undefined;
}
