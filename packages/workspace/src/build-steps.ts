import { mkdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { docIdFromFilename } from '@doctree/ingest';
import { buildBm25, Bm25FileSchema } from './bm25.js';
import { renderInstructionBrief, renderStyleBrief } from './briefs.js';
import { claimBuildId, writeBuildManifest, type BuildManifest } from './builds.js';
import { buildChildren, buildParents, CHUNKER_ID } from './chunk.js';
import { ChunkManifestSchema, type ChildRecord, type ChunkManifest, type ParentRecord } from './chunk-records.js';
import { textHash } from './chunking.js';
import { defaultWorkspaceConfig, workspaceConfigHash, WorkspaceConfigSchema } from './config.js';
import { loadChunks, loadSources, logChange, saveSources, workspaceEmbedder, type WorkspaceContext } from './context.js';
import { appendVersionLog, readJsonIfPresent, writeFileAtomic, writeJsonAtomic, writeJsonLinesAtomic } from './io.js';
import { WORKSPACE_CONFIG_FILE, WORKSPACE_DIRS, workspacePaths } from './layout.js';
import { parseSource, readParsedContent, renderParseReport, type ParseSummary } from './parse.js';
import { WORKSPACE_TOOL_VERSION, type ProjectFile } from './project.js';
import { WORKSPACE_RERANKER_ID } from './retrieval.js';
import { applySourceMeta, scanSources, syncCollectionSources, type CollectionSourceDocument, type SourceMetaUpdate, type SourceRecord, type SourceScan } from './sources.js';
import { embedChildren, loadVectors } from './vector-store.js';

/** What `workspace init` did. */
export interface InitResult {
  root: string;
  project: ProjectFile;
  /** False when a configuration was already there (it is never overwritten). */
  config_written: boolean;
  created_dirs: string[];
}

/** Options of {@link initWorkspace}. */
export interface InitWorkspaceOptions {
  /** Clock (tests pin it). Default `() => new Date()`. */
  now?: () => Date;
  /** Project id. Default: from the folder name. */
  projectId?: string;
  /** A DocTree collection folder as the evidence store (written as `collection` into a new configuration). */
  collection?: string;
}

/**
 * Creates the workspace layout in `root` (folders that exist are kept), writes `workspace.config.json` with the fixed
 * defaults only when there is none, and `meta/project.json` only when there is none. Never touches `raw/` files.
 */
export async function initWorkspace(root: string, options: InitWorkspaceOptions = {}): Promise<InitResult> {
  const paths = workspacePaths(resolve(root));
  const now = (options.now ?? (() => new Date()))();
  const created: string[] = [];
  for (const dir of WORKSPACE_DIRS) {
    const path = join(paths.root, dir);
    const existed = await stat(path).then((s) => {
      if (!s.isDirectory()) throw new DocTreeError('USAGE', `${dir} exists and is not a folder`, { file: path });
      return true;
    }, () => false);
    if (!existed) {
      await mkdir(path, { recursive: true });
      created.push(dir);
    }
  }
  const config = defaultWorkspaceConfig(options.collection !== undefined ? { collection: options.collection } : {});
  let configWritten = false;
  const existingConfig = await readFile(paths.config, 'utf8').catch(() => undefined);
  if (existingConfig !== undefined && options.collection !== undefined) {
    const existing = await readJsonIfPresent(paths.config, WorkspaceConfigSchema, 'workspace configuration');
    if (existing?.collection !== options.collection) {
      throw new DocTreeError('USAGE', `the workspace already has a configuration${existing?.collection ? ` with collection ${existing.collection}` : ' without a collection'}; init never overwrites it`, {
        file: paths.config,
        hint: `Set "collection": ${JSON.stringify(options.collection)} in ${WORKSPACE_CONFIG_FILE} yourself, or pass --collection to each command.`,
      });
    }
  }
  if (existingConfig === undefined) {
    await writeJsonAtomic(paths.config, config);
    configWritten = true;
  }
  const previous = await readFile(paths.project, 'utf8').catch(() => undefined);
  let project: ProjectFile;
  if (previous !== undefined) project = JSON.parse(previous) as ProjectFile;
  else {
    project = {
      format: 'doctree.workspace-project',
      version: 1,
      project_id: options.projectId ?? docIdFromFilename(basename(paths.root)),
      created_at: now.toISOString(),
      tool_version: WORKSPACE_TOOL_VERSION,
      config_hash: workspaceConfigHash(config),
    };
    await writeJsonAtomic(paths.project, project);
    const log = { timestamp: now.toISOString(), command: 'init', from: null, to: 'v001', reason: 'workspace created' };
    await appendVersionLog(paths.root, paths.versionLog, { ...log, file: paths.project });
    if (configWritten) await appendVersionLog(paths.root, paths.versionLog, { ...log, file: paths.config, reason: 'default configuration' });
  }
  return { root: paths.root, project, config_written: configWritten, created_dirs: created };
}

/** Scans `raw/` and saves the registry (logged when it changed). */
export async function scanWorkspace(ctx: WorkspaceContext): Promise<SourceScan> {
  const previous = await loadSources(ctx);
  const scan = await scanSources(ctx.paths, previous, ctx.now());
  if (scan.added.length + scan.changed.length + scan.missing.length > 0 || previous.length === 0) {
    await saveSources(ctx, scan.sources);
    const reason = [scan.added.length && `added ${scan.added.join(', ')}`, scan.changed.length && `changed ${scan.changed.join(', ')}`, scan.missing.length && `missing ${scan.missing.join(', ')}`].filter(Boolean).join('; ');
    if (reason) await logChange(ctx, 'scan', ctx.paths.sources, null, `${scan.sources.length} sources`, reason);
  }
  for (const s of scan.skipped) ctx.warn(`not registered: ${s.path} (${s.reason})`);
  return scan;
}

/**
 * Registers the documents of the workspace's collection as sources ({@link syncCollectionSources}) and saves the
 * registry when anything changed (logged).
 */
export async function syncCollectionWorkspace(ctx: WorkspaceContext, docs: readonly CollectionSourceDocument[]): Promise<SourceScan> {
  const previous = await loadSources(ctx);
  const scan = syncCollectionSources(previous, docs, ctx.now());
  if (scan.added.length + scan.changed.length + scan.missing.length > 0) {
    await saveSources(ctx, scan.sources);
    const reason = [scan.added.length && `added ${scan.added.join(', ')}`, scan.changed.length && `changed ${scan.changed.join(', ')}`, scan.missing.length && `gone from the collection ${scan.missing.join(', ')}`].filter(Boolean).join('; ');
    await logChange(ctx, 'collection sync', ctx.paths.sources, null, `${scan.sources.length} sources`, reason);
  }
  return scan;
}

/** `workspace meta set`: updates one record of the registry and logs the change. */
export async function setSourceMeta(ctx: WorkspaceContext, docUid: string, update: SourceMetaUpdate): Promise<SourceRecord> {
  const sources = await loadSources(ctx);
  const next = applySourceMeta(sources, docUid, update, ctx.now());
  const old = sources.find((s) => s.doc_uid === docUid)!;
  await saveSources(ctx, sources.map((s) => (s.doc_uid === docUid ? next : s)));
  const changed = Object.keys(update).filter((k) => (update as Record<string, unknown>)[k] !== undefined);
  const show = (r: SourceRecord): string => changed.map((k) => `${k}=${JSON.stringify((r as unknown as Record<string, unknown>)[k])}`).join(', ');
  await logChange(ctx, 'meta set', ctx.paths.sources, `${docUid}@r${old.revision}: ${show(old)}`, `${docUid}@r${next.revision}: ${show(next)}`, 'metadata set by the user');
  return next;
}

/** What `workspace parse` did. */
export interface ParseResult {
  build_id: string;
  parsed: string[];
  reused: string[];
  failed: Array<{ doc_uid: string; error: string }>;
  report: string;
  summaries: ParseSummary[];
}

/** `workspace parse`: registers `raw/` files, parses each (unchanged ones are reused), writes the quality report and the briefs. */
export async function parseWorkspace(ctx: WorkspaceContext, options: { force?: boolean } = {}): Promise<ParseResult> {
  const scan = await scanWorkspace(ctx);
  // Collection documents are parsed by their collection.
  const present = scan.sources.filter((s) => s.present && s.collection_doc_id === undefined);
  const buildId = await claimBuildId(ctx.paths.builds, ctx.now(), ctx.configHash);
  const rows: Array<{ source: SourceRecord; summary: ParseSummary | null; error?: string }> = [];
  const result: ParseResult = { build_id: buildId, parsed: [], reused: [], failed: [], report: ctx.paths.parseReport, summaries: [] };
  for (const source of present) {
    try {
      const { summary, reused } = await parseSource(ctx.paths, source, {
        ...ctx.options.ingestLimits,
        ...ctx.options.ingestOcr,
        ...(options.force ? { force: true } : {}),
        ...(ctx.options.pdfWorkers !== undefined ? { pdfWorkers: ctx.options.pdfWorkers } : {}),
        ...(ctx.options.signal ? { signal: ctx.options.signal } : {}),
      });
      rows.push({ source, summary });
      result.summaries.push(summary);
      (reused ? result.reused : result.parsed).push(source.doc_uid);
    } catch (error) {
      if (DocTreeError.isInstance(error) && error.code === 'CANCELLED') throw error;
      const message = error instanceof Error ? error.message : String(error);
      rows.push({ source, summary: null, error: message });
      result.failed.push({ doc_uid: source.doc_uid, error: message });
      ctx.warn(`${source.doc_uid}: parse failed: ${message}`);
    }
  }
  const at = ctx.now().toISOString();
  await writeFileAtomic(ctx.paths.parseReport, renderParseReport(rows, { generated_at: at, build_id: buildId }));
  await logChange(ctx, 'parse', ctx.paths.parseReport, null, buildId, `${result.parsed.length} parsed, ${result.reused.length} unchanged, ${result.failed.length} failed`);
  const instruction = [];
  for (const row of rows) if (row.summary && row.source.source_type === 'instruction') instruction.push({ source: row.source, list: await readParsedContent(ctx.paths, row.source.doc_uid) });
  await writeFileAtomic(ctx.paths.instructionBrief, renderInstructionBrief(instruction, at));
  await writeFileAtomic(ctx.paths.styleBrief, renderStyleBrief(instruction, at));
  await logChange(ctx, 'parse', ctx.paths.instructionBrief, null, buildId, `${instruction.filter((d) => d.source.source_subtype !== 'exemplars').length} instruction documents`);
  await logChange(ctx, 'parse', ctx.paths.styleBrief, null, buildId, `${instruction.filter((d) => d.source.source_subtype === 'exemplars').length} exemplars`);
  await writeBuildManifest(ctx.paths.builds, buildId, ctx.now(), {
    step: 'parse',
    config_hash: ctx.configHash,
    inputs: present.map((s) => ({ doc_uid: s.doc_uid, sha256: s.sha256 })),
    models: { parser: '@doctree/ingest' },
    counts: { documents: present.length, parsed: result.parsed.length, reused: result.reused.length, failed: result.failed.length },
    previous_build_id: null,
  });
  return result;
}

/** What `workspace chunk` did. */
export interface ChunkResult {
  build_id: string;
  manifest: ChunkManifest;
}

function chunksHash(children: readonly ChildRecord[]): string {
  return textHash(children.map((c) => c.hash).join('\n'));
}

/**
 * `workspace chunk`: page-level parents and ~200-token children for every parsed evidence document. Documents whose
 * raw file and chunk sizes are unchanged keep their parents and children; `chunk_manifest.json` says what changed.
 */
export async function chunkWorkspace(ctx: WorkspaceContext): Promise<ChunkResult> {
  const sources = (await loadSources(ctx)).filter((s) => s.present && s.source_type === 'evidence' && s.collection_doc_id === undefined);
  const previous = await readJsonIfPresent(ctx.paths.chunkManifest, ChunkManifestSchema, 'chunk manifest');
  const sizes = ctx.config.chunk;
  const sameSizes = previous !== undefined && previous.chunker === CHUNKER_ID && JSON.stringify(previous.sizes) === JSON.stringify(sizes);
  const old = sameSizes ? await loadChunks(ctx) : { parents: [], children: [] };
  const buildId = await claimBuildId(ctx.paths.builds, ctx.now(), ctx.configHash);
  const parents: ParentRecord[] = [];
  const children: ChildRecord[] = [];
  const docs: ChunkManifest['docs'] = [];
  const changes: ChunkManifest['changes'] = { added: [], updated: [], removed: [], unchanged: [] };
  for (const source of sources) {
    const before = previous?.docs.find((d) => d.doc_uid === source.doc_uid);
    let docParents: ParentRecord[];
    let docChildren: ChildRecord[];
    if (sameSizes && before && before.source_sha256 === source.sha256) {
      docParents = old.parents.filter((p) => p.doc_uid === source.doc_uid);
      docChildren = old.children.filter((c) => c.doc_uid === source.doc_uid);
      changes.unchanged.push(source.doc_uid);
    } else {
      let list;
      try {
        list = await readParsedContent(ctx.paths, source.doc_uid);
      } catch (error) {
        ctx.warn(`${source.doc_uid}: not parsed, left out (${(error as Error).message})`);
        continue;
      }
      if (list.source.sha256 !== source.sha256) {
        ctx.warn(`${source.doc_uid}: the parsed copy is older than the file; run \`doctree workspace parse\` first`);
        continue;
      }
      docParents = buildParents(source.doc_uid, list);
      docChildren = docParents.flatMap((p) => buildChildren(p, sizes));
      (before ? changes.updated : changes.added).push(source.doc_uid);
    }
    parents.push(...docParents);
    children.push(...docChildren);
    docs.push({ doc_uid: source.doc_uid, source_sha256: source.sha256, parents: docParents.length, chunks: docChildren.length, chunks_sha256: chunksHash(docChildren) });
  }
  for (const d of previous?.docs ?? []) if (!docs.some((x) => x.doc_uid === d.doc_uid)) changes.removed.push(d.doc_uid);
  const manifest: ChunkManifest = {
    format: 'doctree.workspace-chunks',
    version: 1,
    build_id: buildId,
    created_at: ctx.now().toISOString(),
    config_hash: ctx.configHash,
    tool_version: WORKSPACE_TOOL_VERSION,
    chunker: CHUNKER_ID,
    sizes,
    docs,
    totals: { docs: docs.length, parents: parents.length, chunks: children.length },
    changes,
  };
  await writeJsonLinesAtomic(ctx.paths.parents, parents);
  await writeJsonLinesAtomic(ctx.paths.children, children);
  await writeJsonAtomic(ctx.paths.chunkManifest, manifest);
  await logChange(ctx, 'chunk', ctx.paths.chunkManifest, previous?.build_id ?? null, buildId, `added ${changes.added.length}, updated ${changes.updated.length}, removed ${changes.removed.length}, unchanged ${changes.unchanged.length}`);
  await writeBuildManifest(ctx.paths.builds, buildId, ctx.now(), {
    step: 'chunk',
    config_hash: ctx.configHash,
    inputs: sources.map((s) => ({ doc_uid: s.doc_uid, sha256: s.sha256 })),
    models: { chunker: CHUNKER_ID },
    counts: { docs: docs.length, parents: parents.length, chunks: children.length, added: changes.added.length, updated: changes.updated.length, removed: changes.removed.length },
    previous_build_id: previous?.build_id ?? null,
  });
  return { build_id: buildId, manifest };
}

/** What `workspace embed` did. */
export interface EmbedResult {
  build_id: string;
  manifest: BuildManifest;
  embedder: string;
  chunks: number;
  embedded: number;
  reused: number;
}

async function chunkInputs(ctx: WorkspaceContext): Promise<{ manifest: ChunkManifest; children: ChildRecord[] }> {
  const manifest = await readJsonIfPresent(ctx.paths.chunkManifest, ChunkManifestSchema, 'chunk manifest');
  if (!manifest) throw new DocTreeError('INDEX_MISSING', 'the workspace has no chunks yet', { file: ctx.paths.chunkManifest, hint: 'Run `doctree workspace parse` then `doctree workspace chunk`.' });
  const { children } = await loadChunks(ctx);
  return { manifest, children };
}

/** `workspace embed`: embeds the children whose hash has no vector yet (incremental) with the configured embedder. */
export async function embedWorkspace(ctx: WorkspaceContext): Promise<EmbedResult> {
  const { manifest: chunks, children } = await chunkInputs(ctx);
  const embedder = workspaceEmbedder(ctx);
  if ('initialize' in embedder && typeof (embedder as { initialize?: unknown }).initialize === 'function') await (embedder as unknown as { initialize(): Promise<void> }).initialize();
  const previous = await loadVectors(ctx.paths.vectorsMeta, ctx.paths.vectors).catch((error: unknown) => {
    ctx.warn(`the previous vector index could not be read and is rebuilt (${(error as Error).message})`);
    return undefined;
  });
  const buildId = await claimBuildId(ctx.paths.builds, ctx.now(), ctx.configHash);
  const outcome = await embedChildren(children, embedder, previous, { meta: ctx.paths.vectorsMeta, vectors: ctx.paths.vectors, buildId }, ctx.options.signal);
  const manifest = await writeBuildManifest(ctx.paths.builds, buildId, ctx.now(), {
    step: 'embed',
    config_hash: ctx.configHash,
    inputs: chunks.docs.map((d) => ({ doc_uid: d.doc_uid, sha256: d.chunks_sha256 })),
    models: { embedder: embedder.id, dimension: embedder.dimension, reranker: ctx.config.rerank.enabled ? WORKSPACE_RERANKER_ID : null, chat: ctx.chat?.model ?? null, chunk_build_id: chunks.build_id },
    counts: { chunks: children.length, embedded: outcome.embedded, reused: outcome.reused },
    previous_build_id: previous?.meta.build_id ?? null,
  });
  await logChange(ctx, 'embed', ctx.paths.vectorsMeta, previous?.meta.build_id ?? null, buildId, `${outcome.embedded} embedded, ${outcome.reused} reused (${embedder.id})`);
  return { build_id: buildId, manifest, embedder: embedder.id, chunks: children.length, embedded: outcome.embedded, reused: outcome.reused };
}

/** What `workspace build-bm25` did. */
export interface Bm25Result {
  build_id: string;
  manifest: BuildManifest;
  chunks: number;
  reused: number;
}

/** `workspace build-bm25`: the BM25 index of the children (DocTree's sparse analyzer), incremental by child hash. */
export async function buildBm25Workspace(ctx: WorkspaceContext): Promise<Bm25Result> {
  const { manifest: chunks, children } = await chunkInputs(ctx);
  const previous = await readJsonIfPresent(ctx.paths.bm25, Bm25FileSchema, 'BM25 index').catch(() => undefined);
  const buildId = await claimBuildId(ctx.paths.builds, ctx.now(), ctx.configHash);
  const { file, reused } = buildBm25(children, buildId, previous);
  await writeJsonAtomic(ctx.paths.bm25, file);
  const manifest = await writeBuildManifest(ctx.paths.builds, buildId, ctx.now(), {
    step: 'bm25',
    config_hash: ctx.configHash,
    inputs: chunks.docs.map((d) => ({ doc_uid: d.doc_uid, sha256: d.chunks_sha256 })),
    models: { analyzer: `doctree-sparse-analyzer-v${file.analyzer}`, k1: file.k1, b: file.b, chunk_build_id: chunks.build_id },
    counts: { chunks: children.length, reused },
    previous_build_id: previous?.build_id ?? null,
  });
  await logChange(ctx, 'build-bm25', ctx.paths.bm25, previous?.build_id ?? null, buildId, `${children.length} chunks, ${reused} reused`);
  return { build_id: buildId, manifest, chunks: children.length, reused };
}
