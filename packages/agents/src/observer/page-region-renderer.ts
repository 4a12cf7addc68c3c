import { readFile } from 'node:fs/promises';
import { DocTreeError, ensureArrayBufferTransfer, type BBox } from '@doctree/schema';

/** What to render: a region of one PDF page. */
export interface RenderRegionRequest {
  /** Path of the source PDF. */
  pdfPath: string;
  /** 1-based page. */
  page: number;
  /** Region in PDF points, origin top-left; null renders the whole page. */
  bbox: BBox | null;
  /** Margin added around the box, in points. */
  marginPt: number;
  /** Pixels per point. */
  scale: number;
  signal?: AbortSignal;
}

/** A rendered region. */
export interface RenderedRegion {
  /** PNG bytes. */
  png: Uint8Array;
  width: number;
  height: number;
}

/** Renders page regions to PNG (the ImageObserver's eyes for a VLM). Swappable for tests or other engines. */
export interface RegionRenderer {
  render(request: RenderRegionRequest): Promise<RenderedRegion>;
}

/** Options of {@link PdfRegionRenderer}. */
export interface PdfRegionRendererOptions {
  /** PDFs kept open between calls (most recently used). Default 2. */
  cacheSize?: number;
  /** Largest output side in pixels; the scale is lowered to fit. Default 1600. */
  maxSidePx?: number;
}

/** Defaults of {@link PdfRegionRendererOptions}. */
export const PDF_REGION_RENDERER_DEFAULTS = { cacheSize: 2, maxSidePx: 1600 } as const satisfies Required<PdfRegionRendererOptions>;

type UnpdfModule = typeof import('unpdf');
type CanvasModule = typeof import('@napi-rs/canvas');
type PdfProxy = Awaited<ReturnType<UnpdfModule['getDocumentProxy']>>;

async function loadCanvas(): Promise<CanvasModule> {
  try {
    return await import('@napi-rs/canvas');
  } catch (cause) {
    throw new DocTreeError('BACKEND_UNAVAILABLE', '@napi-rs/canvas is not installed or does not load on this platform', {
      cause,
      hint: 'Install the optional dependency @napi-rs/canvas to render figures for a vision model.',
    });
  }
}

/**
 * Renders a region of a PDF page to PNG with unpdf (pdf.js) and `@napi-rs/canvas`: the page is rasterised at
 * `scale` pixels per point, then cropped to the box plus a margin. Open documents are cached.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (no PDF), `PDF_CORRUPT`, `BACKEND_UNAVAILABLE` (no canvas), `USAGE` (page out of range).
 */
export class PdfRegionRenderer implements RegionRenderer {
  private readonly options: Required<PdfRegionRendererOptions>;
  private readonly open = new Map<string, Promise<PdfProxy>>();

  /** @param options cache size and output size cap. */
  constructor(options: PdfRegionRendererOptions = {}) {
    this.options = { ...PDF_REGION_RENDERER_DEFAULTS, ...options };
  }

  /** Renders one region. */
  async render(request: RenderRegionRequest): Promise<RenderedRegion> {
    if (request.signal?.aborted) throw new DocTreeError('CANCELLED', 'rendering was cancelled');
    const canvasModule = await loadCanvas();
    const pdf = await this.document(request.pdfPath);
    if (!Number.isInteger(request.page) || request.page < 1 || request.page > pdf.numPages) {
      throw new DocTreeError('USAGE', `page ${request.page} is outside the document (1–${pdf.numPages})`, { file: request.pdfPath, page: request.page });
    }
    const { renderPageAsImage } = await import('unpdf');
    const page = await pdf.getPage(request.page);
    const viewport = page.getViewport({ scale: 1 });
    const [x0, y0, x1, y1] = request.bbox ?? [0, 0, viewport.width, viewport.height];
    const left = Math.max(0, x0 - request.marginPt);
    const top = Math.max(0, y0 - request.marginPt);
    const right = Math.min(viewport.width, x1 + request.marginPt);
    const bottom = Math.min(viewport.height, y1 + request.marginPt);
    if (right - left < 1 || bottom - top < 1) {
      throw new DocTreeError('USAGE', 'the region to render is empty or outside the page', { file: request.pdfPath, page: request.page });
    }
    const scale = Math.min(request.scale, this.options.maxSidePx / Math.max(right - left, bottom - top));
    let full: ArrayBuffer;
    try {
      full = await renderPageAsImage(pdf, request.page, { canvasImport: () => Promise.resolve(canvasModule), scale });
    } catch (cause) {
      throw new DocTreeError('PDF_CORRUPT', `page ${request.page} could not be rendered: ${(cause as Error).message}`, { file: request.pdfPath, page: request.page, cause });
    }
    const image = await canvasModule.loadImage(Buffer.from(full));
    const sx = Math.floor(left * scale);
    const sy = Math.floor(top * scale);
    const width = Math.max(1, Math.min(image.width - sx, Math.ceil((right - left) * scale)));
    const height = Math.max(1, Math.min(image.height - sy, Math.ceil((bottom - top) * scale)));
    const canvas = canvasModule.createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.drawImage(image, sx, sy, width, height, 0, 0, width, height);
    const png = await canvas.encode('png');
    return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width, height };
  }

  /** Closes every cached document. */
  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.loadingTask.destroy().catch(() => undefined)));
  }

  private document(path: string): Promise<PdfProxy> {
    const cached = this.open.get(path);
    if (cached) {
      this.open.delete(path);
      this.open.set(path, cached);
      return cached;
    }
    const loading = (async (): Promise<PdfProxy> => {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await readFile(path));
      } catch (cause) {
        throw new DocTreeError('INPUT_NOT_FOUND', 'the source PDF is not available', { file: path, cause, hint: 'Ingest with the source copied (the default) to render figures.' });
      }
      ensureArrayBufferTransfer();
      const { getDocumentProxy } = await import('unpdf');
      try {
        return await getDocumentProxy(bytes, { verbosity: 0 });
      } catch (cause) {
        throw new DocTreeError('PDF_CORRUPT', `the source PDF could not be opened: ${(cause as Error).message}`, { file: path, cause });
      }
    })();
    loading.catch(() => this.open.delete(path));
    this.open.set(path, loading);
    while (this.open.size > this.options.cacheSize) {
      const oldest = this.open.keys().next().value as string;
      const evicted = this.open.get(oldest);
      this.open.delete(oldest);
      void evicted?.then((p) => p.loadingTask.destroy()).catch(() => undefined);
    }
    return loading;
  }
}
