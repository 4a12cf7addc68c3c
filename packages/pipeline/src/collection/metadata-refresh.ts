import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DOC_FILES } from '@doctree/ingest';
import { INDEX_DIR, INDEX_FILES } from '@doctree/index';
import type { CollectionDocument, CollectionMetadata, CollectionStore, DocSummary, DocTree, Embedder } from '@doctree/schema';
import { documentProfile, firstSentences } from './build-document.js';
import { describeDocument, extractMetadata, METADATA_EXTRACTOR_VERSION } from './document-metadata.js';

/**
 * An embedder, or a function that makes one: called only when a document needs it, so a caller whose documents are
 * all up to date never loads an embedder.
 */
export type EmbedderSource = Embedder | (() => Promise<Embedder>);

/** True when a row's metadata was read by an older extraction than {@link METADATA_EXTRACTOR_VERSION} (none recorded: version 1). */
export function metadataIsStale(row: CollectionDocument): boolean {
  return (row.metadata.extractor ?? 1) < METADATA_EXTRACTOR_VERSION;
}

/**
 * Extracts again, from its stored text, the metadata of a committed document that an older extraction read
 * ({@link METADATA_EXTRACTOR_VERSION}) and writes it with the description and selection profile it gives (the profile
 * embedded again; nothing else is rebuilt). Hand-edited fields are kept. `collection sync` calls it for its unchanged
 * documents, and the queue workers of `@doctree/jobs` for a job whose document the store already holds.
 *
 * @returns The updated row; `undefined` when the metadata is current, or when the stored tree cannot be read (the
 *   document keeps its metadata; a rebuild reads it again).
 * @throws What the store throws (e.g. `INPUT_NOT_FOUND` for a document removed meanwhile), or the embedder.
 *
 * @example
 * ```ts
 * const row = (await store.readManifest())!.documents.find((d) => d.doc_id === 'acme-2023')!;
 * const refreshed = await refreshDocumentMetadata(store, row, async () => (await createIndexComponents(config)).embedder);
 * ```
 */
export async function refreshDocumentMetadata(store: CollectionStore, row: CollectionDocument, embedder: EmbedderSource): Promise<CollectionDocument | undefined> {
  if (!metadataIsStale(row)) return undefined;
  let tree: DocTree;
  try {
    tree = JSON.parse(await readFile(join(await store.documentDir(row.doc_id), DOC_FILES.tree), 'utf8')) as DocTree;
  } catch {
    return undefined;
  }
  const metadata = extractMetadata({ filename: basename(row.path), text: tree.text, ...(tree.doc.title ? { title: tree.doc.title } : {}) }, row.metadata);
  return writeDocumentMetadata(store, row.doc_id, metadata, embedder, (summary) => firstSentences(summary?.description ?? ''));
}

/**
 * Writes a committed document's metadata through `store.updateMetadata` with the description they give — the metadata
 * and `lead(summary)`, the opening of the stored document summary — and the selection profile (description, metadata
 * and top-level section titles) embedded again.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` for a document the store does not hold; errors of the embedder.
 */
export async function writeDocumentMetadata(store: CollectionStore, docId: string, metadata: CollectionMetadata, embedder: EmbedderSource, lead: (summary: DocSummary | undefined) => string): Promise<CollectionDocument> {
  const description = describeDocument(metadata, lead(await readDocumentSummary(store, docId)));
  const data = await store.selectionData(docId);
  const profile = documentProfile(metadata, description, data.nodes.filter((n) => n.level === 1).map((n) => n.title));
  const [vector] = await (typeof embedder === 'function' ? await embedder() : embedder).embedDocuments([profile]);
  return store.updateMetadata(docId, { metadata, description, profile: { text: profile, vector: vector! } });
}

/** The stored summary of a committed document (`index/summary`), or undefined when it cannot be read. */
export async function readDocumentSummary(store: CollectionStore, docId: string): Promise<DocSummary | undefined> {
  try {
    return JSON.parse(await readFile(join(await store.documentDir(docId), INDEX_DIR, INDEX_FILES.summary), 'utf8')) as DocSummary;
  } catch {
    return undefined;
  }
}
