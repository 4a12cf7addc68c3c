import { stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { buildCollectionDocument, collectionBuildSettings, createIndexComponents, refreshDocumentMetadata } from '@doctree/pipeline';
import { DocTreeError } from '@doctree/schema';
import type { CollectionDocument, CollectionStore, DocTreeConfig, DocumentSelectionData } from '@doctree/schema';
import type { DocumentJob } from './document-job.js';
import type { DocumentJobHandlers, JobStore } from './job-handlers.js';

/** A document built in its staged folder, waiting for its commit. */
export interface BuiltCollectionDocument {
  row: CollectionDocument;
  staged: string;
  selection: DocumentSelectionData;
}

/** Options of {@link collectionJobHandlers}. */
export interface CollectionJobHandlersOptions {
  /** The collection the documents are committed to (the Postgres collection store for many workers). */
  store: CollectionStore;
  config: DocTreeConfig;
  /** Index components (embedder, sparse backend, summarizer); default: made from `config` once. */
  components?: Awaited<ReturnType<typeof createIndexComponents>>;
}

/** The source kind of a path, as a collection reads it. */
export function sourceKindOf(path: string): CollectionDocument['kind'] {
  const lower = path.toLowerCase();
  if (lower.endsWith('_structure.json')) return 'pageindex';
  if (lower.endsWith('.json')) return 'mineru';
  const ext = extname(lower);
  if (ext === '.pdf') return 'pdf';
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  throw new DocTreeError('INPUT_UNSUPPORTED', `cannot build ${path}: not a .pdf, .md, MinerU content_list.json or PageIndex tree`, { file: path });
}

/**
 * Job handlers that build a collection document the way `doctree collection sync` does (ingest, index, metadata,
 * selection data — `buildCollectionDocument` of `@doctree/pipeline`) in a folder staged by the collection store.
 * Pair them with {@link collectionJobStore} of the same store; several workers may commit at once to a store whose
 * commits are transactions (the Postgres collection store).
 */
export function collectionJobHandlers(options: CollectionJobHandlersOptions): DocumentJobHandlers<BuiltCollectionDocument> {
  let components = options.components ? Promise.resolve(options.components) : undefined;
  return {
    async build(job: DocumentJob) {
      const manifest = await options.store.readManifest();
      const previous = manifest?.documents.find((d) => d.doc_id === job.doc_id);
      const source = sourcePath(job.path, manifest?.input_dir);
      const kind = sourceKindOf(source);
      const info = await stat(source).catch((cause: unknown) => {
        throw new DocTreeError('INPUT_NOT_FOUND', `source of ${job.doc_id} not found`, { file: source, cause });
      });
      const staged = await options.store.stageDocument(job.doc_id);
      try {
        components ??= createIndexComponents(options.config);
        const result = await buildCollectionDocument({ index: 0, docId: job.doc_id, input: source, kind, staged, config: options.config, ...(previous ? { previous: previous.metadata } : {}) }, await components);
        const at = new Date().toISOString();
        const row: CollectionDocument = {
          doc_id: job.doc_id,
          path: previous?.path ?? rowPath(source, manifest?.input_dir),
          kind,
          sha256: job.sha256,
          size: info.size,
          mtime: info.mtime.toISOString(),
          build_id: result.build_id,
          pages: result.pages,
          ingest_warnings: result.warnings,
          indexed_at: at,
          created_at: previous?.created_at ?? at,
          updated_at: at,
          description: result.description,
          metadata: result.metadata,
          // What it was built with, as a local `collection sync` records it (a sync with other settings rebuilds it).
          build_settings: collectionBuildSettings(options.config.ingest, { ocr: result.textless > 0, indexConfig: result.indexConfig }),
        };
        return { row, staged: result.staged, selection: result.selection };
      } catch (error) {
        await options.store.discardStaged(staged);
        throw error;
      }
    },
  };
}

/** The job's source file: absolute as given, or relative to the collection's input folder. */
function sourcePath(path: string, inputDir: string | undefined): string {
  return isAbsolute(path) || inputDir === undefined ? path : join(inputDir, path);
}

/**
 * The manifest's `path` of a source: relative to the collection's input folder (`/`-separated) when it lies inside it
 * — as `collection sync` records it, so the next sync or status finds the document unchanged — else absolute.
 */
function rowPath(source: string, inputDir: string | undefined): string {
  if (inputDir === undefined) return source;
  const rel = relative(inputDir, source);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? source : rel.split(sep).join('/');
}

/** Options of {@link collectionJobStore}. */
export interface CollectionJobStoreOptions {
  /**
   * Configuration of the collection (its embedder): with it (or `components`), a job whose document the store already
   * holds with the same hash refreshes metadata that an older extractor read. Give the one the handlers get.
   */
  config?: DocTreeConfig;
  /** Index components (the embedder re-embeds refreshed profiles); default: made from `config` once, when first needed. */
  components?: Awaited<ReturnType<typeof createIndexComponents>>;
}

/**
 * The {@link JobStore} view of a collection store: hash lookup from the manifest, commit, removal — and, given the
 * collection's `config` or `components`, `refreshUnchanged`: a document held with the job's hash whose metadata an
 * older extractor read gets it extracted again from its stored text, with its description and selection profile
 * (`refreshDocumentMetadata` of `@doctree/pipeline`, what `collection sync` does; outcome `refreshed`, nothing rebuilt).
 * Without either, such documents stay as they are (outcome `unchanged`): the embedder of the profile must be the
 * collection's.
 *
 * @example
 * ```ts
 * const worker = await runWorker({ queue, store: collectionJobStore(store, { config }), handlers: collectionJobHandlers({ store, config }) });
 * ```
 */
export function collectionJobStore(store: CollectionStore, options: CollectionJobStoreOptions = {}): JobStore<BuiltCollectionDocument> {
  const { config, components: given } = options;
  const make = given ? () => Promise.resolve(given) : config ? () => createIndexComponents(config) : undefined;
  let components: ReturnType<typeof createIndexComponents> | undefined;
  const embedder = make
    ? async () => {
        // Made once, on the first stale document; a failure is not kept (the job's retry makes them again).
        components ??= make().catch((error: unknown) => {
          components = undefined;
          throw error;
        });
        return (await components).embedder;
      }
    : undefined;
  return {
    ...(embedder
      ? {
          async refreshUnchanged(_collection: string, docId: string): Promise<boolean> {
            const row = (await store.readManifest())?.documents.find((d) => d.doc_id === docId);
            return row !== undefined && (await refreshDocumentMetadata(store, row, embedder)) !== undefined;
          },
        }
      : {}),
    async documentHash(_collection, docId) {
      return (await store.readManifest())?.documents.find((d) => d.doc_id === docId)?.sha256;
    },
    async writeDocument(doc) {
      try {
        await store.commitDocument(doc.row, doc.staged, doc.selection);
      } catch (error) {
        await store.discardStaged(doc.staged);
        throw error;
      }
    },
    async removeDocument(_collection, docId) {
      const known = (await store.readManifest())?.documents.some((d) => d.doc_id === docId) ?? false;
      if (known) await store.removeDocument(docId);
      return known;
    },
  };
}
