import type { BBox } from '@doctree/schema';
import type { PdfLine } from './pdf-lines.js';

/**
 * The regions a page is cut into besides running text: tables and figures. Their types live here, apart from the
 * detectors, so that modules placing lines in regions need not import a detector.
 */

/** A table found on a page. */
export interface PdfTableRegion {
  kind: 'table';
  bbox: BBox;
  /** Cell texts, one array per row; every row has the same length. */
  rows: string[][];
  /** Leading rows that are column headers. */
  headerRows: number;
  /** Which detector found it (`drawn`: cell shading or boxes around rows of cells). */
  source: 'grid' | 'rules' | 'borderless' | 'drawn';
  /** The text lines the table covers (they leave the text flow). */
  lines: PdfLine[];
}

/** A figure found on a page. */
export interface PdfFigureRegion {
  kind: 'figure';
  bbox: BBox;
  /** `xobject` when it holds a raster image, `vector` when it is drawn. */
  source: 'xobject' | 'vector';
  /** Text lines inside the figure (labels); they leave the text flow. */
  lines: PdfLine[];
}
