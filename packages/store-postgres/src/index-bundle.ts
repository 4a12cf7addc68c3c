import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { decodeVectorFile, INDEX_DIR, INDEX_FILES, VECTOR_VIEWS } from '@doctree/index';
import { DocTreeError } from '@doctree/schema';
import type { BBox, Modality } from '@doctree/schema';
import type { StoredArtifact, StoredEmbedding, StoredNode } from './stored-document.js';

/** What the Postgres store keeps of a built document folder (`doctree.mm.json` + `index/`). */
export interface IndexBundle {
  nodes: StoredNode[];
  embeddings: StoredEmbedding[];
  /** Embedder of the vectors ('' when the folder has none). */
  embedder_id: string;
  pages: { page_idx: number; text: string }[];
  /** Every file of the folder (so any machine can rebuild it: `documentDir`). */
  artifacts: StoredArtifact[];
}

const COARSE_MODALITY = new Map<string, Modality>([['section', 'section'], ['image', 'image'], ['chart', 'chart'], ['table', 'table']]);
const LEAF_MODALITY = new Map<string, Modality>([['list', 'list'], ['equation', 'equation']]);

interface RecordLine {
  node_id?: unknown;
  role?: unknown;
  dense_text?: unknown;
  raw_text?: unknown;
  title?: unknown;
  filters?: { page_idx?: unknown; page_span?: unknown; bbox?: unknown };
}

/**
 * Reads a built document folder into rows: nodes from `dense_coarse.jsonl` and `dense_leaf.jsonl` (their text, role,
 * first page, box), embeddings of the `coarse`, `leaf` and `leaf_raw` views (from the DTVX vector files and their
 * id tables), page texts from `sparse_pages.jsonl`, and every file as an artifact. A folder without `index/` gives
 * artifacts only. @throws DocTreeError `INDEX_CORRUPT` for unreadable index files.
 */
export async function readIndexBundle(docDir: string): Promise<IndexBundle> {
  const artifacts: StoredArtifact[] = [];
  for (const file of await listFiles(docDir)) {
    artifacts.push({ path: relative(docDir, file).split(sep).join('/'), content: await readFile(file) });
  }
  const indexDir = join(docDir, INDEX_DIR);
  const nodes = new Map<string, StoredNode>();
  const embeddings: StoredEmbedding[] = [];
  const pages: { page_idx: number; text: string }[] = [];
  let embedderId = '';
  if (!existsSync(indexDir)) return { nodes: [], embeddings, embedder_id: embedderId, pages, artifacts };
  for (const [file, kind] of [[INDEX_FILES.denseCoarse, 'coarse'], [INDEX_FILES.denseLeaf, 'leaf']] as const) {
    for (const line of await readJsonl<RecordLine>(join(indexDir, file))) {
      if (typeof line.node_id !== 'string' || typeof line.dense_text !== 'string') continue;
      const role = typeof line.role === 'string' ? line.role : 'paragraph';
      const filters = line.filters ?? {};
      const span = Array.isArray(filters.page_span) ? (filters.page_span as unknown[]) : [];
      const page = typeof filters.page_idx === 'number' ? filters.page_idx : typeof span[0] === 'number' ? span[0] : 0;
      const bbox = Array.isArray(filters.bbox) && filters.bbox.length === 4 ? (filters.bbox as BBox) : null;
      const modality = (kind === 'coarse' ? COARSE_MODALITY.get(role) : LEAF_MODALITY.get(role)) ?? 'text';
      const text = kind === 'leaf' && typeof line.raw_text === 'string' ? line.raw_text : line.dense_text;
      nodes.set(line.node_id, { node_id: line.node_id, role, modality, page_idx: page, ...(typeof line.title === 'string' ? { title: line.title } : {}), text, bbox });
    }
  }
  for (const view of VECTOR_VIEWS) {
    for (const name of [`${view}.vectors`, `${view}.faiss.vectors`]) {
      const file = join(indexDir, name);
      // Meta of `<view>.vectors` is `<view>.vectors.meta.json`; of a faiss sidecar `<view>.faiss.meta.json`.
      const metaFile = join(indexDir, `${name.endsWith('.faiss.vectors') ? name.slice(0, -'.vectors'.length) : name}.meta.json`);
      if (!existsSync(file) || !existsSync(metaFile)) continue;
      const meta = parseJson<{ ids?: unknown; embedder_id?: unknown }>(await readFile(metaFile, 'utf8'), metaFile);
      const decoded = decodeVectorFile(await readFile(file), file);
      const ids = Array.isArray(meta.ids) ? meta.ids : [];
      if (ids.length !== decoded.count) throw new DocTreeError('INDEX_CORRUPT', `${ids.length} ids for ${decoded.count} vectors`, { file: metaFile });
      if (typeof meta.embedder_id === 'string') embedderId = meta.embedder_id;
      ids.forEach((id, i) => {
        if (typeof id === 'string' && nodes.has(id)) embeddings.push({ node_id: id, view, vector: decoded.vectors.slice(i * decoded.dimension, (i + 1) * decoded.dimension) });
      });
      break;
    }
  }
  const pagesFile = join(indexDir, INDEX_FILES.sparsePages);
  if (existsSync(pagesFile)) {
    for (const line of await readJsonl<{ id?: unknown; body?: unknown }>(pagesFile)) {
      const n = typeof line.id === 'string' ? Number(/^P(\d+)$/.exec(line.id)?.[1]) : Number.NaN;
      if (Number.isInteger(n) && n >= 1 && typeof line.body === 'string') pages.push({ page_idx: n - 1, text: line.body });
    }
  }
  return { nodes: [...nodes.values()], embeddings, embedder_id: embedderId, pages, artifacts };
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

async function readJsonl<T>(file: string): Promise<T[]> {
  if (!existsSync(file)) return [];
  const text = await readFile(file, 'utf8');
  return text.split('\n').filter((line) => line.trim().length > 0).map((line, i) => parseJson<T>(line, `${file}:${i + 1}`));
}

function parseJson<T>(text: string, file: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new DocTreeError('INDEX_CORRUPT', `not valid JSON: ${(cause as Error).message}`, { file });
  }
}
