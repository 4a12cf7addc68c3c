import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ingestFile, ingestOptionsFromConfig } from '@doctree/ingest';
import { buildDocIndex, INDEX_DIR, INDEX_FILES, type BuildDocIndexOptions } from '@doctree/index';
import type { CollectionMetadata, CollectionSelectionNode, DocSummary, DocTree, DocTreeConfig, DocumentSelectionData, IngestWarning } from '@doctree/schema';
import type { IndexComponents } from '../index-components.js';
import { describeDocument, extractMetadata, periodLabel } from './document-metadata.js';
import { pageIndexToMarkdown, parsePageIndex } from './pageindex.js';

/** Most nodes of one document offered to selection (shallow sections first). */
export const MAX_SELECTION_NODES = 400;
/** Top-level titles written into a document's profile. */
const PROFILE_TITLES = 40;
/** Characters of a node's selection text. */
const NODE_TEXT_CHARS = 600;

/** One document to build: everything a worker thread needs (plain data). */
export interface CollectionBuildJob {
  /** Position in the run (for progress). */
  index: number;
  docId: string;
  /** Absolute source path. */
  input: string;
  kind: 'pdf' | 'mineru' | 'markdown' | 'pageindex';
  /** Staged document folder ({@link CollectionStore.stageDocument}). */
  staged: string;
  /** Metadata of the previous version (its hand-edited fields are kept). */
  previous?: CollectionMetadata;
  config: DocTreeConfig;
  /** Pages read by PDF workers inside this build: 0 in a worker thread (one file per core). */
  pdfWorkers?: number | 'auto';
}

/** What building one document produced (plain data, so it crosses threads). */
export interface CollectionBuildResult {
  docId: string;
  staged: string;
  build_id: string;
  pages: number;
  warnings: IngestWarning[];
  /** Pages without a text layer (those OCR reads, whether it could or not). */
  textless: number;
  /** `config_hash` of the document's index (what its embedder, analyser, summarizer and format make it). */
  indexConfig: string;
  metadata: CollectionMetadata;
  description: string;
  selection: DocumentSelectionData;
  timings: { ingest: number; index: number; selection: number };
}

/**
 * The index build options of a collection document from its components: what {@link buildCollectionDocument} builds
 * with, and what `indexConfigHash` of them gives — the hash a current document's index records.
 */
export function documentIndexOptions(components: IndexComponents): Pick<BuildDocIndexOptions, 'embedder' | 'sparse' | 'summarizer' | 'backend' | 'hnswMinVectors'> {
  return { embedder: components.embedder, sparse: components.sparse, summarizer: components.summarizer, backend: components.backend, hnswMinVectors: components.hnswMinVectors };
}

/** Progress of one document build. */
export type CollectionBuildProgress = { stage: 'ingest'; done: number; total: number } | { stage: 'index' } | { stage: 'selection' };

/**
 * Builds one collection document in its staged folder: ingest (PDF, Markdown, MinerU or a PageIndex tree converted to
 * Markdown), index, metadata, description, and the selection data (profile and section vectors). Nothing outside the
 * staged folder is written; the caller commits or discards it.
 *
 * @throws DocTreeError of ingest or index (`PDF_*`, `INPUT_*`, `INDEX_*`…).
 */
export async function buildCollectionDocument(job: CollectionBuildJob, components: IndexComponents, onProgress?: (event: CollectionBuildProgress) => void): Promise<CollectionBuildResult> {
  let t = performance.now();
  let input = job.input;
  if (job.kind === 'pageindex') {
    const tree = parsePageIndex(await readFile(job.input, 'utf8'), job.input);
    input = join(dirname(job.staged), `${job.docId}.md`);
    await writeFile(input, pageIndexToMarkdown(tree));
  }
  const ingested = await ingestFile(input, {
    outDir: dirname(job.staged),
    docId: job.docId,
    ...ingestOptionsFromConfig(job.config.ingest),
    ...(job.pdfWorkers !== undefined ? { pdfWorkers: job.pdfWorkers } : {}),
    onProgress: (event) => {
      if (event.stage === 'adapt') onProgress?.({ stage: 'ingest', done: event.done, total: event.total });
    },
  });
  const ingestMs = performance.now() - t;
  t = performance.now();
  onProgress?.({ stage: 'index' });
  const built = await buildDocIndex(ingested.docDir, documentIndexOptions(components));
  const indexMs = performance.now() - t;
  t = performance.now();
  onProgress?.({ stage: 'selection' });
  const tree = ingested.tree;
  const summary = JSON.parse(await readFile(join(ingested.docDir, INDEX_DIR, INDEX_FILES.summary), 'utf8')) as DocSummary;
  const metadata = extractMetadata({ filename: basename(job.input), text: tree.text, ...(tree.doc.title ? { title: tree.doc.title } : {}) }, job.previous);
  const description = describeDocument(metadata, firstSentences(summary.description));
  const selection = await selectionData(job.docId, tree, summary, metadata, description, components);
  return {
    docId: job.docId,
    staged: ingested.docDir,
    build_id: `${built.manifest.build_id}-${randomBytes(3).toString('hex')}`,
    pages: tree.doc.page_count,
    warnings: tree.warnings,
    textless: ingested.adapted.pages.filter((page) => !page.has_text_layer).length,
    indexConfig: built.manifest.config_hash,
    metadata,
    description,
    selection,
    timings: { ingest: Math.round(ingestMs), index: Math.round(indexMs), selection: Math.round(performance.now() - t) },
  };
}

/** The first one or two sentences of a summary (at most 200 characters): what a document's description quotes. */
export function firstSentences(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.slice(0, 200).search(/[.!?]\s(?=[^.!?]*$)/);
  return end > 40 ? flat.slice(0, end + 1) : flat.slice(0, 200);
}

/** Profile text of a document: description, metadata and top-level section titles. */
export function documentProfile(metadata: CollectionMetadata, description: string, topTitles: readonly string[]): string {
  const facts = [metadata.company, metadata.form, periodLabel(metadata), metadata.title].filter(Boolean);
  return [description, facts.join(' '), topTitles.slice(0, PROFILE_TITLES).join(' · ')].filter(Boolean).join('\n');
}

/**
 * Selection data of a built document: its profile and up to {@link MAX_SELECTION_NODES} section nodes (shallowest
 * first), each as title, headings path and gist, embedded with the collection's embedder.
 */
export async function selectionData(docId: string, tree: DocTree, summary: DocSummary, metadata: CollectionMetadata, description: string, components: Pick<IndexComponents, 'embedder'>): Promise<DocumentSelectionData> {
  const byId = new Map(tree.nodes.map((n) => [n.node_id, n]));
  const gists = new Map(summary.sections.map((s) => [s.node_id, s.gist]));
  const sections = tree.nodes.filter((n) => n.role === 'section' && n.node_id !== tree.root_id && (n.title ?? '').trim() !== '');
  const depth = (id: string): number => {
    let d = 0;
    for (let n = byId.get(id); n && n.parent_id !== null && d < 64; n = byId.get(n.parent_id)) d++;
    return d;
  };
  const path = (id: string): string[] => {
    const out: string[] = [];
    for (let n = byId.get(byId.get(id)?.parent_id ?? ''); n && n.node_id !== tree.root_id && out.length < 8; n = byId.get(n.parent_id ?? '')) if (n.title) out.unshift(n.title);
    return out;
  };
  const ranked = sections
    .map((n) => ({ node: n, level: depth(n.node_id) }))
    .sort((a, b) => a.level - b.level || a.node.read_order - b.node.read_order)
    .slice(0, MAX_SELECTION_NODES)
    .sort((a, b) => a.node.read_order - b.node.read_order);
  const nodes: CollectionSelectionNode[] = ranked.map(({ node, level }) => {
    const title = (node.title ?? '').trim();
    const text = [[...path(node.node_id), title].join(' › '), gists.get(node.node_id) ?? ''].filter(Boolean).join('\n').slice(0, NODE_TEXT_CHARS);
    return { node_id: node.node_id, title, text, level, pages: [node.page_span[0] + 1, node.page_span[1] + 1] };
  });
  const topTitles = ranked.filter((r) => r.level === 1).map((r) => (r.node.title ?? '').trim());
  const profile = documentProfile(metadata, description, topTitles);
  const vectors = await components.embedder.embedDocuments([profile, ...nodes.map((n) => n.text)]);
  return { doc_id: docId, embedder_id: components.embedder.id, profile, profile_vector: vectors[0]!, nodes, node_vectors: vectors.slice(1) };
}
