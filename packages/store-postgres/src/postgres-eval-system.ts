import { createHash } from 'node:crypto';
import { loadDocIndex } from '@doctree/index';
import type { DocIndex } from '@doctree/index';
import type { EvalSystemFactory, EvalSystemFactoryContext, PreparedDocument } from '@doctree/pipeline';
import { readIndexBundle } from './index-bundle.js';
import type { IndexBundle } from './index-bundle.js';
import { POSTGRES_SCHEMA_VERSION } from './migrations.js';
import { PostgresCollectionStore } from './postgres-collection-store.js';
import { PostgresRetriever } from './postgres-retriever.js';
import type { PostgresStore } from './postgres-store.js';

/** Options of {@link postgresEvalSystem}. */
export interface PostgresEvalSystemOptions {
  /** The open store the evaluated documents are written to and read from. */
  store: PostgresStore;
  /** Collection the evaluation's documents are kept in. Default `eval`. */
  collection?: string;
  /** System id. Default `doctree-pg`. */
  id?: string;
  /** Report label. Default `DocTree on PostgreSQL + pgvector`. */
  label?: string;
  /** Local folder of the documents materialised from the store. Default the collection store's (`<tmp>/doctree-pg-cache/…`). */
  cacheDir?: string;
  /**
   * Add the store's hybrid search (HNSW kNN + `ts_rank`, RRF in SQL: {@link PostgresRetriever}, lane
   * `pg_hybrid.search`, scoped to the document) beside the agent's own lanes. Default false: the agent reads the
   * document from the store and retrieves exactly as `doctree` does, so the two systems must agree.
   */
  hybridLane?: boolean;
}

/** Defaults of {@link PostgresEvalSystemOptions}. */
export const POSTGRES_EVAL_SYSTEM_DEFAULTS = {
  collection: 'eval',
  id: 'doctree-pg',
  label: 'DocTree on PostgreSQL + pgvector',
  hybridLane: false,
} as const satisfies Partial<PostgresEvalSystemOptions>;

/** What the evaluation keeps of a document folder in the store: the tree and the index (not the source, not `rag/`). */
function storedPart(path: string): boolean {
  return path === 'doctree.mm.json' || path.startsWith('index/');
}

/** sha256 over the stored files (path and content hash of each, in path order): what makes the write idempotent. */
export function bundleHash(bundle: Pick<IndexBundle, 'artifacts'>): string {
  const hash = createHash('sha256');
  for (const artifact of [...bundle.artifacts].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${artifact.path}\u0000${createHash('sha256').update(artifact.content).digest('hex')}\n`);
  }
  return hash.digest('hex');
}

/**
 * The DocTree agent as an evaluated system whose documents live in PostgreSQL: each document the shared ingest and
 * index prepared is written to the store in one transaction (nodes with their `tsvector`, pages, embeddings in
 * pgvector with HNSW, every file of `doctree.mm.json` + `index/` as an artifact; skipped when the store already holds
 * the same files), then read back from the store — the artifacts materialised into a local cache, each checked
 * against its sha256 — and the agent answers over the index loaded from that copy. With `hybridLane`, the store's
 * hybrid search in SQL joins the agent's lanes. Register it by id beside the built-in systems
 * (`evaluateQuestions({ systemFactories })`; `doctree eval --systems doctree,doctree-pg --store postgres://…`).
 *
 * @example
 * ```ts
 * const store = await PostgresStore.open({ url: process.env.DOCTREE_STORE! });
 * const result = await evaluateQuestions({ questions, systems: ['doctree', 'doctree-pg'], outDir, config,
 *   systemFactories: new Map([['doctree-pg', postgresEvalSystem({ store })]]) });
 * await store.close();
 * ```
 */
export function postgresEvalSystem(options: PostgresEvalSystemOptions): EvalSystemFactory {
  const o = { ...POSTGRES_EVAL_SYSTEM_DEFAULTS, ...options };
  return (context: EvalSystemFactoryContext) => {
    const documents = new PostgresCollectionStore({ store: o.store, collection: o.collection, ...(o.cacheDir !== undefined ? { cacheDir: o.cacheDir } : {}) });
    const loaded = new WeakMap<DocIndex, Promise<DocIndex>>();
    const docIds = new WeakMap<DocIndex, string>();
    const load = async (prepared: PreparedDocument): Promise<DocIndex> => {
      const bundle = await readIndexBundle(prepared.docDir);
      const artifacts = bundle.artifacts.filter((a) => storedPart(a.path));
      const hash = bundleHash({ artifacts });
      if ((await o.store.documentHash(o.collection, prepared.docId)) !== hash) {
        await o.store.writeDocument({
          collection: o.collection,
          doc_id: prepared.docId,
          content_sha256: hash,
          row: { doc_id: prepared.docId, build_id: hash.slice(0, 16), source: prepared.input.path.split(/[\\/]/).pop() ?? '' },
          nodes: bundle.nodes,
          pages: bundle.pages,
          embeddings: bundle.embeddings,
          embedder_id: bundle.embedder_id,
          artifacts,
        });
      }
      const { sparse, embedder, backend } = await context.documents.components();
      const index = await loadDocIndex(await documents.documentDir(prepared.docId), { sparse, embedder, backend });
      docIds.set(index, prepared.docId);
      return index;
    };
    return context.doctreeSystem({
      id: o.id,
      label: o.label,
      parts: { store: 'postgres', schema_version: POSTGRES_SCHEMA_VERSION, collection: o.collection, lane: o.hybridLane ? 'pg_hybrid.search' : 'none' },
      index: (prepared) => {
        // Once per prepared index (a rebuilt document is a new one): concurrent questions share the write and load.
        let index = loaded.get(prepared.index);
        if (index === undefined) {
          index = load(prepared);
          index.catch(() => loaded.delete(prepared.index));
          loaded.set(prepared.index, index);
        }
        return index;
      },
      agent: (index) => {
        const docId = docIds.get(index);
        if (!o.hybridLane || docId === undefined) return {};
        return { retrievers: [new PostgresRetriever({ store: o.store, collection: o.collection, docIds: [docId], name: 'pg_hybrid', ...(index.embedder ? { embedder: index.embedder } : {}) })] };
      },
    });
  };
}
