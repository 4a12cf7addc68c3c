import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PdfRegionRenderer, type RegionRenderer } from '@doctree/agents';
import { writeFileAtomic } from '@doctree/index';
import { buildTraceView, renderTraceViewerHtml, type ResolvedNode, type TraceViewerPage } from '@doctree/eval';
import { DocTreeError, DocTreeSchema, pageFromIndex, type BBox, type DocTree, type Trace, type TraceAnswer } from '@doctree/schema';

/** Options of {@link buildTraceViewer} and {@link writeTraceViewer}. */
export interface TraceViewerOptions {
  /**
   * The document the trace is about: a document folder (`doctree.mm.json`, `source.pdf`) or the PDF itself. Without
   * it the viewer shows the path with the text the trace stores, and no page.
   */
  doc?: string;
  /** The final answer when the trace does not carry it (an eval prediction's). */
  answer?: TraceAnswer;
  /** Most pages rendered (supporting pages first, then evidence pages). Default 4. */
  maxPages?: number;
  /** Pixels per PDF point of the page images. Default 1.25. */
  scale?: number;
  /** Longest side of a page image in pixels. Default 1200. */
  maxSidePx?: number;
  /** Renders the pages (default: pdf.js + `@napi-rs/canvas`, as the observer renders figures). */
  renderer?: RegionRenderer;
  /** Extra lines shown with the answer. */
  facts?: ReadonlyArray<[string, string]>;
}

/** Defaults of {@link TraceViewerOptions}. */
export const TRACE_VIEWER_DEFAULTS = { maxPages: 4, scale: 1.25, maxSidePx: 1200 } as const;

/** What {@link buildTraceViewer} made. */
export interface BuiltTraceViewer {
  html: string;
  /** 1-based pages rendered into the viewer. */
  pages: number[];
  /** Why pages are missing, when they are. */
  note?: string;
}

/** The document a trace viewer resolves node ids and pages against. */
interface ViewerDocument {
  tree?: DocTree;
  pdf?: string;
}

/** Reads `doc`: a folder with `doctree.mm.json` (and `source.pdf`), or a PDF file. */
async function openDocument(doc: string, trace: Trace): Promise<ViewerDocument> {
  let isDir: boolean;
  try {
    isDir = (await stat(doc)).isDirectory();
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'the document of --doc does not exist', { file: doc, cause, hint: 'Pass the document folder (with doctree.mm.json) or the PDF the trace was made from.' });
  }
  if (!isDir) return { pdf: doc };
  const treePath = join(doc, 'doctree.mm.json');
  let text: string;
  try {
    text = await readFile(treePath, 'utf8');
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'no doctree.mm.json in the --doc folder', { file: treePath, cause, hint: 'Pass the document folder `doctree ask` prepared (data/default/<doc_id>) or the PDF itself.' });
  }
  let parsed;
  try {
    parsed = DocTreeSchema.safeParse(JSON.parse(text));
  } catch (cause) {
    throw new DocTreeError('SCHEMA_INVALID', 'doctree.mm.json is not JSON', { file: treePath, cause, hint: 'Re-run `doctree ingest` on the document.' });
  }
  if (!parsed.success) throw new DocTreeError('SCHEMA_INVALID', 'doctree.mm.json does not match its schema', { file: treePath, hint: 'Re-run `doctree ingest` on the document.' });
  const tree = parsed.data;
  if (tree.doc.doc_id !== trace.doc_id) {
    throw new DocTreeError('USAGE', `the trace is about document "${trace.doc_id}", the --doc folder holds "${tree.doc.doc_id}"`, { file: doc, hint: 'Pass the folder of the document the question was asked about.' });
  }
  const pdf = join(doc, 'source.pdf');
  const hasPdf = await stat(pdf).then((s) => s.isFile(), () => false);
  return { tree, ...(hasPdf ? { pdf } : {}) };
}

/** A node's text, first page and box from the tree (tables as their cells' text). */
function nodeResolver(tree: DocTree | undefined): ((nodeId: string) => ResolvedNode | undefined) | undefined {
  if (!tree) return undefined;
  const byId = new Map(tree.nodes.map((n) => [n.node_id, n]));
  return (nodeId) => {
    const node = byId.get(nodeId);
    if (!node) return undefined;
    const text = node.text || node.table?.markdown || node.title || '';
    const box = node.bboxes[0];
    return { text, page: box ? pageFromIndex(box.page_idx) : pageFromIndex(node.page_span[0]), bbox: box?.bbox ?? null, role: node.role };
  };
}

/** Every box of a node on a 1-based page (a node spanning pages has one per page). */
function nodeBoxes(tree: DocTree | undefined, nodeId: string, page: number): BBox[] {
  const node = tree?.nodes.find((n) => n.node_id === nodeId);
  return node ? node.bboxes.filter((b) => pageFromIndex(b.page_idx) === page).map((b) => b.bbox) : [];
}

/**
 * Builds the self-contained HTML viewer of a trace (see `renderTraceViewerHtml` of `@doctree/eval`): node ids are
 * resolved against the document when `doc` is given, and the pages of the answer's support and of the evidence pack
 * (at most `maxPages`) are rendered as inline PNG images with the supporting and evidence boxes drawn over them.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (no such document), `SCHEMA_INVALID` (bad `doctree.mm.json`), `USAGE` (the
 * document is not the trace's).
 *
 * @example
 * ```ts
 * const { html, pages } = await buildTraceViewer(trace, { doc: 'data/default/acme-2023' });
 * ```
 */
export async function buildTraceViewer(trace: Trace, options: TraceViewerOptions = {}): Promise<BuiltTraceViewer> {
  const o = { ...TRACE_VIEWER_DEFAULTS, ...options };
  const doc = o.doc !== undefined ? await openDocument(o.doc, trace) : {};
  const nodeText = nodeResolver(doc.tree);
  const withAnswer: Trace = o.answer && !trace.answer ? { ...trace, answer: o.answer } : trace;
  const view = buildTraceView(withAnswer, nodeText ? { nodeText } : {});

  // Pages to show: the answer's support first, then the evidence pack's, at most maxPages.
  const wanted: number[] = [];
  for (const h of [...view.final.support, ...(view.evidence?.items ?? [])]) if (!wanted.includes(h.page)) wanted.push(h.page);
  const shown = wanted.slice(0, Math.max(0, o.maxPages));
  const pages: TraceViewerPage[] = [];
  let note: string | undefined;
  if (shown.length === 0) note = 'The trace names no supporting or evidence page.';
  else if (!doc.pdf) note = o.doc === undefined ? 'No page rendered: pass --doc <doc_dir|file.pdf> to see the evidence on its pages.' : 'No page rendered: the document folder holds no source.pdf.';
  else {
    const renderer = o.renderer ?? new PdfRegionRenderer({ maxSidePx: o.maxSidePx, cacheSize: 1 });
    try {
      for (const page of shown) {
        const size = doc.tree?.doc.pages.find((p) => pageFromIndex(p.page_idx) === page) ?? (await probeSize(renderer, doc.pdf, page));
        const scale = Math.min(o.scale, o.maxSidePx / Math.max(size.width, size.height));
        const image = await renderer.render({ pdfPath: doc.pdf, page, bbox: null, marginPt: 0, scale });
        const boxes: TraceViewerPage['boxes'] = [];
        const add = (nodeId: string, kind: 'support' | 'evidence', bbox: BBox | null): void => {
          const all = bbox ? [bbox] : nodeBoxes(doc.tree, nodeId, page);
          for (const b of all) if (!boxes.some((x) => x.nodeId === nodeId && x.kind === kind && x.bbox.join() === b.join())) boxes.push({ bbox: b, nodeId, kind });
        };
        for (const s of view.final.support) if (s.page === page) add(s.nodeId, 'support', s.bbox);
        for (const item of view.evidence?.items ?? []) if (item.page === page && !boxes.some((b) => b.nodeId === item.nodeId)) add(item.nodeId, 'evidence', doc.tree ? null : item.bbox);
        pages.push({ page, widthPt: size.width, heightPt: size.height, src: `data:image/png;base64,${Buffer.from(image.png).toString('base64')}`, boxes });
      }
    } finally {
      if (!o.renderer && renderer instanceof PdfRegionRenderer) await renderer.close();
    }
    if (wanted.length > shown.length) note = `${shown.length} of ${wanted.length} evidence pages rendered.`;
  }
  const html = renderTraceViewerHtml({
    trace: withAnswer,
    ...(nodeText ? { nodeText } : {}),
    pages,
    ...(note !== undefined ? { note } : {}),
    ...(o.facts ? { facts: o.facts } : {}),
  });
  return { html, pages: pages.map((p) => p.page), ...(note !== undefined ? { note } : {}) };
}

/** A page's size in points when no tree says it: a small render, whose pixels at a known scale give the size. */
async function probeSize(renderer: RegionRenderer, pdf: string, page: number): Promise<{ width: number; height: number }> {
  const probe = 0.1;
  const image = await renderer.render({ pdfPath: pdf, page, bbox: null, marginPt: 0, scale: probe });
  return { width: image.width / probe, height: image.height / probe };
}

/**
 * Writes the viewer of {@link buildTraceViewer} to `outPath` atomically.
 *
 * @example
 * ```ts
 * await writeTraceViewer(trace, 'trace.html', { doc: 'report.pdf' });
 * ```
 */
export async function writeTraceViewer(trace: Trace, outPath: string, options: TraceViewerOptions = {}): Promise<BuiltTraceViewer> {
  const built = await buildTraceViewer(trace, options);
  await writeFileAtomic(outPath, built.html);
  return built;
}
