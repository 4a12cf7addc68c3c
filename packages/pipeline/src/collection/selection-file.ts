import { COLLECTION_SELECTION_FORMAT, COLLECTION_SELECTION_VERSION, CollectionSelectionFileSchema, DocTreeError, parseWith, type CollectionSelectionFile, type DocumentSelectionData } from '@doctree/schema';

function encode(vectors: readonly Float32Array[]): string {
  const out = Buffer.alloc(vectors.reduce((n, v) => n + v.length * 4, 0));
  let offset = 0;
  for (const v of vectors) {
    for (const x of v) offset = out.writeFloatLE(x, offset);
  }
  return out.toString('base64');
}

function decode(text: string, dimension: number, count: number, file: string): Float32Array[] {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== dimension * count * 4) throw new DocTreeError('INDEX_CORRUPT', `expected ${count} vector(s) of ${dimension} values`, { file });
  const out: Float32Array[] = [];
  for (let i = 0; i < count; i++) {
    const v = new Float32Array(dimension);
    for (let j = 0; j < dimension; j++) v[j] = bytes.readFloatLE((i * dimension + j) * 4);
    out.push(v);
  }
  return out;
}

/** `selection.json` text of a document's selection data. */
export function encodeSelectionData(data: DocumentSelectionData): string {
  const file: CollectionSelectionFile = {
    format: COLLECTION_SELECTION_FORMAT,
    version: COLLECTION_SELECTION_VERSION,
    doc_id: data.doc_id,
    embedder_id: data.embedder_id,
    dimension: data.profile_vector.length,
    profile: data.profile,
    profile_vector: encode([data.profile_vector]),
    nodes: data.nodes,
    node_vectors: encode(data.node_vectors),
  };
  return `${JSON.stringify(file)}\n`;
}

/**
 * Selection data from the text of a `selection.json`.
 *
 * @throws DocTreeError `INDEX_CORRUPT` (not JSON, wrong vector sizes), `FORMAT_VERSION_UNSUPPORTED`, `SCHEMA_INVALID`.
 */
export function decodeSelectionData(text: string, file: string): DocumentSelectionData {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('INDEX_CORRUPT', 'selection data is not valid JSON', { file, cause });
  }
  const head = raw as { format?: unknown; version?: unknown };
  if (head?.format !== COLLECTION_SELECTION_FORMAT || head.version !== COLLECTION_SELECTION_VERSION) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `expected ${COLLECTION_SELECTION_FORMAT} version ${COLLECTION_SELECTION_VERSION}`, { file });
  }
  const parsed = parseWith(CollectionSelectionFileSchema, raw, { file });
  const [profileVector] = decode(parsed.profile_vector, parsed.dimension, 1, file);
  return {
    doc_id: parsed.doc_id,
    embedder_id: parsed.embedder_id,
    profile: parsed.profile,
    profile_vector: profileVector!,
    nodes: parsed.nodes,
    node_vectors: decode(parsed.node_vectors, parsed.dimension, parsed.nodes.length, file),
  };
}
