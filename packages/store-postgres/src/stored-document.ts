import type { BBox, Modality } from '@doctree/schema';

/** A retrievable unit of a document (a section, paragraph, table, figure…) as the Postgres store keeps it. */
export interface StoredNode {
  node_id: string;
  /** `section`, `paragraph`, `table`… (the role filter of retrieval). */
  role: string;
  modality: Modality;
  /** 0-based page where the node starts. */
  page_idx: number;
  title?: string;
  /** The text searched (full text) and shown (snippet). */
  text: string;
  bbox?: BBox | null;
  /** Extra fields carried to `Hit.extra` (JSON). */
  extra?: Record<string, unknown>;
}

/** One embedding of a node in a view (`node`, `coarse`, `leaf`…). */
export interface StoredEmbedding {
  node_id: string;
  view: string;
  vector: Float32Array;
}

/** One file of the document's local artifacts (`doctree.mm.json`, `index/…`), kept so any machine can rebuild the folder. */
export interface StoredArtifact {
  /** `/`-separated path relative to the document folder. */
  path: string;
  content: Uint8Array;
}

/** Selection data of a document: its profile and vector, and its selection nodes with one vector each (HNSW-searchable). */
export interface StoredSelection {
  embedder_id: string;
  profile: string;
  profile_vector: Float32Array;
  /** Selection nodes (JSON, as the collection store returns them), each with a `node_id`. */
  nodes: readonly { node_id: string }[];
  /** One vector per node, in `nodes` order. */
  node_vectors: readonly Float32Array[];
}

/**
 * Everything the store holds of one document, written in one transaction by `PostgresStore.writeDocument`
 * (replacing any older version of the same `doc_id`).
 */
export interface StoredDocument {
  collection: string;
  doc_id: string;
  /** sha256 of the source (what makes a rebuild idempotent: an unchanged hash is skipped by the job handlers). */
  content_sha256: string;
  /** The manifest row (JSON). */
  row?: Record<string, unknown>;
  nodes: readonly StoredNode[];
  /** Text of each page (0-based `page_idx`). */
  pages?: readonly { page_idx: number; text: string }[];
  /** Index records as JSON, by kind (`dense_coarse`, `dense_leaf`…) and id. */
  records?: readonly { kind: string; record_id: string; body: unknown }[];
  /** Embeddings; all of one embedder. */
  embeddings?: readonly StoredEmbedding[];
  embedder_id?: string;
  artifacts?: readonly StoredArtifact[];
  selection?: StoredSelection;
}

/** A document the store holds: id, source hash, manifest row. */
export interface StoredDocumentInfo {
  doc_id: string;
  content_sha256: string;
  row: Record<string, unknown>;
  nodes: number;
  embeddings: number;
}
