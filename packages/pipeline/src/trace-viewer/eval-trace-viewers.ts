import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PdfRegionRenderer, type RegionRenderer, type RenderedRegion, type RenderRegionRequest } from '@doctree/agents';
import { writeFileAtomic } from '@doctree/index';
import { traceViewerPath } from '@doctree/eval';
import { TraceSchema, type Prediction, type TraceAnswer } from '@doctree/schema';
import { buildTraceViewer } from './trace-viewer.js';

/** Options of {@link drawEvalTraceViewers}. */
export interface EvalTraceViewersOptions {
  /** Folder the eval documents were ingested into (`<dir>/<doc_id>/`). */
  documentsDir: string;
  /** Folder the predictions' `doc_file` paths are relative to (the dataset's). */
  datasetDir: string;
  /** Pages drawn per viewer (the supporting page first). Default 1 (about 150 KB a viewer; `doctree trace --html` draws more). */
  maxPages?: number;
  /** Rendered pages kept for reuse across questions and systems. Default 48. */
  cachePages?: number;
  /** Renders the pages (default pdf.js + `@napi-rs/canvas`). */
  renderer?: RegionRenderer;
}

/** Defaults of {@link EvalTraceViewersOptions}. */
export const EVAL_TRACE_VIEWERS_DEFAULTS = { maxPages: 1, cachePages: 48 } as const;

/** What {@link drawEvalTraceViewers} did. */
export interface DrawnEvalTraceViewers {
  /** Viewer pages now holding their evidence pages. */
  drawn: number;
  /** Viewers already drawn by an earlier run and unchanged since (resume). */
  kept: number;
  /** Viewers left as text (no document at hand, or the page could not be rendered). */
  textOnly: number;
}

/** A renderer that reuses the PNG of a page rendered before (the same pages come back across questions and systems). */
function cachingRenderer(inner: RegionRenderer, size: number): RegionRenderer {
  const cache = new Map<string, Promise<RenderedRegion>>();
  return {
    render(request: RenderRegionRequest): Promise<RenderedRegion> {
      const key = JSON.stringify([request.pdfPath, request.page, request.bbox, request.marginPt, request.scale]);
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const made = inner.render(request);
      made.catch(() => cache.delete(key));
      cache.set(key, made);
      while (cache.size > size) cache.delete(cache.keys().next().value as string);
      return made;
    },
  };
}

const isFile = (path: string): Promise<boolean> => stat(path).then((s) => s.isFile(), () => false);
const mtime = (path: string): Promise<number> => stat(path).then((s) => s.mtimeMs, () => 0);

/**
 * Redraws the trace viewer page of every traced answer of an eval run (`traces/<system>/<id>.html`, written as text by
 * `writeReports` of `@doctree/eval`) with its evidence pages rendered and the supporting boxes highlighted, resolving
 * nodes against the ingested document (`<documentsDir>/<doc_id>/`) or, failing that, the dataset's PDF. A viewer already
 * drawn and newer than its trace is kept (a resumed run does not render again). Never throws for one answer: its
 * viewer stays as text.
 *
 * @example
 * ```ts
 * await drawEvalTraceViewers(result.predictions, result.outDir, { documentsDir: 'data/eval', datasetDir: 'data/eval/dev' });
 * ```
 */
export async function drawEvalTraceViewers(predictions: readonly Prediction[], outDir: string, options: EvalTraceViewersOptions): Promise<DrawnEvalTraceViewers> {
  const o = { ...EVAL_TRACE_VIEWERS_DEFAULTS, ...options };
  const own = o.renderer === undefined ? new PdfRegionRenderer({ cacheSize: 2 }) : undefined;
  const renderer = cachingRenderer(o.renderer ?? own!, o.cachePages);
  const done: DrawnEvalTraceViewers = { drawn: 0, kept: 0, textOnly: 0 };
  try {
    for (const p of predictions) {
      const viewer = traceViewerPath(p);
      if (viewer === undefined) continue;
      const viewerPath = join(outDir, viewer);
      const tracePath = join(outDir, p.trace_path!);
      try {
        const html = await readFile(viewerPath, 'utf8').catch(() => '');
        if (html.includes('data:image/') && (await mtime(viewerPath)) >= (await mtime(tracePath))) {
          done.kept++;
          continue;
        }
        const trace = TraceSchema.parse(JSON.parse(await readFile(tracePath, 'utf8')));
        const docDir = join(resolve(o.documentsDir), trace.doc_id);
        const pdf = resolve(o.datasetDir, p.doc_file);
        const doc = (await isFile(join(docDir, 'doctree.mm.json'))) ? docDir : (await isFile(pdf)) && /\.pdf$/i.test(pdf) ? pdf : undefined;
        if (doc === undefined) {
          done.textOnly++;
          continue;
        }
        const answer: TraceAnswer = { answer: p.answer, answer_format: p.answer_format, confidence: Math.min(1, Math.max(0, p.confidence)), pages: p.pages, support: p.support };
        const gold = (p as Prediction & { gold?: { answer: unknown } }).gold;
        const facts: Array<[string, string]> = [
          ['system', p.system],
          ['question id', p.id],
          ...(gold !== undefined ? ([['gold', Array.isArray(gold.answer) ? gold.answer.join('; ') : String(gold.answer)]] as Array<[string, string]>) : []),
        ];
        const built = await buildTraceViewer(trace, { doc, answer, facts, maxPages: o.maxPages, renderer });
        if (built.pages.length === 0) {
          done.textOnly++;
          continue;
        }
        await writeFileAtomic(viewerPath, built.html);
        done.drawn++;
      } catch {
        // A document that cannot be read or rendered leaves the text viewer in place.
        done.textOnly++;
      }
    }
  } finally {
    await own?.close();
  }
  return done;
}
