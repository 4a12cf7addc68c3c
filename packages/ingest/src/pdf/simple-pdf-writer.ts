/**
 * A tiny PDF writer for fixtures and self-checks: pages of positioned text in the standard Helvetica
 * fonts, plus filled rectangles and lines. It writes real, valid PDF 1.4 files that pdf.js,
 * pdftotext and viewers read, so tests never depend on licensed documents.
 */

/** One text run on a page; coordinates in PDF points from the top-left corner. */
export interface PdfTextRun {
  text: string;
  x: number;
  /** Baseline position from the top of the page. */
  y: number;
  size?: number;
  bold?: boolean;
}

/** A stroked line or filled rectangle; coordinates from the top-left corner. */
export interface PdfShape {
  kind: 'line' | 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One page of a {@link writeSimplePdf} document. */
export interface PdfPageSpec {
  width?: number;
  height?: number;
  runs: PdfTextRun[];
  shapes?: PdfShape[];
}

/** Options of {@link writeSimplePdf}. */
export interface SimplePdfOptions {
  title?: string;
  /** Outline (bookmarks): title, level 1.., 0-based page. */
  outline?: Array<{ title: string; pageIdx: number }>;
}

const escapePdfString = (s: string): string =>
  s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)').replace(/[^\x20-\x7e]/g, '?');

/** Writes a PDF with the given pages and returns its bytes. */
export function writeSimplePdf(pages: readonly PdfPageSpec[], options: SimplePdfOptions = {}): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalogId = add('');
  const pagesId = add('');
  const fontRegular = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const fontBold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const page of pages) {
    const width = page.width ?? 612;
    const height = page.height ?? 792;
    const ops: string[] = [];
    for (const shape of page.shapes ?? []) {
      const y = height - shape.y - shape.height;
      if (shape.kind === 'rect') ops.push(`0.85 g ${shape.x} ${y} ${shape.width} ${shape.height} re f 0 g`);
      else ops.push(`0.5 w ${shape.x} ${height - shape.y} m ${shape.x + shape.width} ${height - shape.y - shape.height} l S`);
    }
    for (const run of page.runs) {
      const size = run.size ?? 11;
      ops.push(`BT /${run.bold ? 'F2' : 'F1'} ${size} Tf 1 0 0 1 ${run.x} ${height - run.y} Tm (${escapePdfString(run.text)}) Tj ET`);
    }
    const stream = ops.join('\n');
    const contentId = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 ${fontRegular} 0 R /F2 ${fontBold} 0 R >> >> /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  let outlineRef = '';
  const outline = options.outline ?? [];
  if (outline.length > 0) {
    const rootId = add('');
    const itemIds = outline.map(() => add(''));
    outline.forEach((item, i) => {
      const links = [i > 0 ? `/Prev ${itemIds[i - 1]} 0 R` : '', i < itemIds.length - 1 ? `/Next ${itemIds[i + 1]} 0 R` : ''].join(' ');
      objects[itemIds[i]! - 1] = `<< /Title (${escapePdfString(item.title)}) /Parent ${rootId} 0 R ${links} /Dest [${pageIds[item.pageIdx]} 0 R /Fit] >>`;
    });
    objects[rootId - 1] = `<< /Type /Outlines /First ${itemIds[0]} 0 R /Last ${itemIds[itemIds.length - 1]} 0 R /Count ${itemIds.length} >>`;
    outlineRef = ` /Outlines ${rootId} 0 R /PageMode /UseOutlines`;
  }
  objects[catalogId - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R${outlineRef} >>`;
  const infoId = options.title ? add(`<< /Title (${escapePdfString(options.title)}) /Producer (DocTree simple-pdf-writer) >>`) : 0;

  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((content, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${content}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root ${catalogId} 0 R${infoId ? ` /Info ${infoId} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}
