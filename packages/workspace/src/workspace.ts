import { resolve } from 'node:path';
import { buildBm25Workspace, chunkWorkspace, embedWorkspace, initWorkspace, parseWorkspace, scanWorkspace, setSourceMeta, syncCollectionWorkspace, type Bm25Result, type ChunkResult, type EmbedResult, type InitResult, type InitWorkspaceOptions, type ParseResult } from './build-steps.js';
import { auditDraft, supportCandidates, verifyCitations, type AuditResult, type VerifyResult } from './citations.js';
import { workspaceRetriever } from './context.js';
import type { SupportFeatures } from './support.js';
import { loadSources, openContext, type EvidenceWorkspaceOptions, type WorkspaceContext } from './context.js';
import { exportUsedSources, type ExportResult } from './export-sources.js';
import { runQuery, type QueryOptions, type QueryResult } from './query.js';
import type { CollectionSourceDocument, SourceMetaUpdate, SourceRecord, SourceScan } from './sources.js';

/**
 * An evidence workspace for writers: a folder with `raw/` sources, parsed copies, chunks, an index, metadata and
 * versioned outputs. Every operation is a method; each writes its files atomically and logs them in
 * `meta/version_log.jsonl`.
 *
 * @example
 * ```ts
 * await EvidenceWorkspace.init('thesis');
 * // copy PDFs into thesis/raw/evidence/
 * const ws = await EvidenceWorkspace.open('thesis');
 * await ws.parse(); await ws.chunk(); await ws.embed(); await ws.buildBm25();
 * const { output, run } = await ws.query('How did membership fees change?');
 * console.log(output, run.evidence[0]?.exact_quote);
 * ```
 */
export class EvidenceWorkspace {
  readonly #ctx: WorkspaceContext;

  private constructor(ctx: WorkspaceContext) {
    this.#ctx = ctx;
  }

  /**
   * Creates the layout, the default configuration (never overwritten; with `collection` when given) and
   * `meta/project.json` in `dir`.
   */
  static init(dir: string, options: InitWorkspaceOptions = {}): Promise<InitResult> {
    return initWorkspace(resolve(dir), options);
  }

  /** Opens an initialised workspace. @throws DocTreeError `INPUT_NOT_FOUND` when `dir` is not one. */
  static async open(dir: string, options: EvidenceWorkspaceOptions = {}): Promise<EvidenceWorkspace> {
    return new EvidenceWorkspace(await openContext(resolve(dir), options));
  }

  /** Root folder. */
  get root(): string {
    return this.#ctx.paths.root;
  }

  /** The context (paths, configuration, hash) the operations share. */
  get context(): WorkspaceContext {
    return this.#ctx;
  }

  /** The sources registry. */
  sources(): Promise<SourceRecord[]> {
    return loadSources(this.#ctx);
  }

  /** Registers new `raw/` files and marks changed and missing ones. */
  scan(): Promise<SourceScan> {
    return scanWorkspace(this.#ctx);
  }

  /**
   * Registers the documents of a DocTree collection as sources (`source_subtype` `collection`, citable until set
   * otherwise, `collection_doc_id` naming each); a document gone from the collection is marked not present.
   */
  syncCollection(docs: readonly CollectionSourceDocument[]): Promise<SourceScan> {
    return syncCollectionWorkspace(this.#ctx, docs);
  }

  /** Sets document-level metadata of one source (validated). */
  setMeta(docUid: string, update: SourceMetaUpdate): Promise<SourceRecord> {
    return setSourceMeta(this.#ctx, docUid, update);
  }

  /** Parses every source (unchanged ones are reused) and writes the quality report and the briefs. */
  parse(options: { force?: boolean } = {}): Promise<ParseResult> {
    return parseWorkspace(this.#ctx, options);
  }

  /** Page-level parents and ~200-token children of the evidence documents (incremental). */
  chunk(): Promise<ChunkResult> {
    return chunkWorkspace(this.#ctx);
  }

  /** Embeds new and changed children (incremental by hash). */
  embed(): Promise<EmbedResult> {
    return embedWorkspace(this.#ctx);
  }

  /** Builds the BM25 index of the children. */
  buildBm25(): Promise<Bm25Result> {
    return buildBm25Workspace(this.#ctx);
  }

  /** Searches the citable sources and writes a versioned evidence (or papers) pack and a query run. */
  query(question: string, options: QueryOptions = {}): Promise<QueryResult> {
    return runQuery(this.#ctx, question, options);
  }

  /** Lists the draft's strong claims with their evidence and what still needs some. */
  audit(draftPath: string): Promise<AuditResult> {
    return auditDraft(this.#ctx, resolve(draftPath));
  }

  /** Checks every `{#doc_uid}` citation of a draft against the cited document. */
  verifyCitations(draftPath: string): Promise<VerifyResult> {
    return verifyCitations(this.#ctx, resolve(draftPath));
  }

  /**
   * Support features of each claim against its cited document's k best children (`verify_citations.k`), for fitting
   * the citation support model on claims of your own.
   */
  async supportCandidates(claims: ReadonlyArray<{ text: string; doc_uid: string }>): Promise<Array<Array<{ chunk_id: string; features: SupportFeatures }>>> {
    const retriever = await workspaceRetriever(this.#ctx);
    const out = [];
    for (const claim of claims) out.push(await supportCandidates(retriever, claim.text, claim.doc_uid, this.#ctx.config.verify_citations.k));
    return out;
  }

  /** Exports the sources an evidence pack uses (Markdown, BibTeX, CSL-JSON). */
  exportUsedSources(packPath?: string): Promise<ExportResult> {
    return exportUsedSources(this.#ctx, packPath);
  }
}
