/**
 * A tiny PDF writer for fixtures and self-checks: pages of positioned text in the standard Helvetica
 * fonts, plus filled rectangles, lines, Bézier curves and small raster images (image XObjects or
 * inline images). It writes real, valid PDF 1.4 files that pdf.js, pdftotext and viewers read, so
 * tests never depend on licensed documents.
 */

/** One text run on a page; coordinates in PDF points from the top-left corner. */
export interface PdfTextRun {
  text: string;
  x: number;
  /** Baseline position from the top of the page. */
  y: number;
  size?: number;
  bold?: boolean;
  /** Write the string as a hex string (`<48656c6c6f>`), as many PDF producers do, instead of a literal `( … )`. */
  hex?: boolean;
  /**
   * Write the text in any script (Arabic, Hebrew, CJK…) with a font whose `ToUnicode` map names each character: its
   * text is extracted exactly, but no glyph is drawn (nothing shows on a rendered page). Characters are placed left to
   * right in the order given, so give right-to-left text in visual order, as producers store it. At most 220 distinct
   * characters per document.
   */
  unicode?: boolean;
}

/**
 * A shape; coordinates from the top-left corner. `line`: a stroked line from (x, y) to
 * (x + width, y + height); `rect`: a filled rectangle; `frame`: a stroked rectangle outline;
 * `curve`: a stroked cubic Bézier from (x, y) to (x + width, y + height) bowing upwards by `bulge`.
 */
export interface PdfShape {
  kind: 'line' | 'rect' | 'frame' | 'curve';
  x: number;
  y: number;
  width: number;
  height: number;
  /** Gray level of a `rect` fill (0 black … 1 white); 0.85 by default. */
  gray?: number;
  /** Line width of stroked shapes; 0.5 by default. */
  lineWidth?: number;
  /** How far a `curve` bows upwards, in points; 20 by default. */
  bulge?: number;
}

/** A small raster image (a 2×2 RGB checkerboard) scaled into a box; coordinates from the top-left corner. */
export interface PdfImageSpec {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Write it as an inline image (`BI … ID … EI`) instead of an image XObject. */
  inline?: boolean;
}

/** One page of a {@link writeSimplePdf} document. */
export interface PdfPageSpec {
  width?: number;
  height?: number;
  runs: PdfTextRun[];
  shapes?: PdfShape[];
  images?: PdfImageSpec[];
  /** Page `/Rotate` (clockwise degrees a viewer turns the page); coordinates stay unrotated. */
  rotate?: 0 | 90 | 180 | 270;
}

/** One outline (bookmark) entry of {@link SimplePdfOptions}. */
export interface SimplePdfOutlineEntry {
  title: string;
  /** 0-based page the bookmark points to. */
  pageIdx: number;
  /** Nesting level, 1 = top (default); an entry nests under the closest preceding entry one level up. */
  level?: number;
}

/** Options of {@link writeSimplePdf}. */
export interface SimplePdfOptions {
  title?: string;
  /** Outline (bookmarks): title, 0-based page and optional level (1..). */
  outline?: SimplePdfOutlineEntry[];
}

const escapePdfString = (s: string): string =>
  s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)').replace(/[^\x20-\x7e]/g, '?');

/** Pixels of the 2×2 RGB checkerboard images (12 bytes, latin1): dark, light / light, dark. */
const CHECKER_PIXELS = '\x20\x40\x80\xe0\xd0\xc0\xe0\xd0\xc0\x20\x40\x80';

/** WinAnsiEncoding bytes of the typographic characters fixtures need (bullets, dashes, quotes). */
const WIN_ANSI_EXTRA: Readonly<Record<string, number>> = {
  '\u20ac': 0x80, '\u2026': 0x85, '\u2020': 0x86, '\u2021': 0x87, '\u2030': 0x89, '\u2018': 0x91, '\u2019': 0x92,
  '\u201c': 0x93, '\u201d': 0x94, '\u2022': 0x95, '\u2013': 0x96, '\u2014': 0x97, '\u2122': 0x99,
};

/** One character as its WinAnsi byte (a latin1 character) when it is Latin-1 above ASCII or one of the extras above. */
const winAnsiByte = (ch: string): string | undefined => {
  const extra = WIN_ANSI_EXTRA[ch];
  if (extra !== undefined) return String.fromCharCode(extra);
  const code = ch.codePointAt(0) ?? 0;
  return code >= 0xa0 && code <= 0xff ? ch : undefined;
};

/** Escapes text shown with the WinAnsi-encoded fonts: Latin-1 and the characters above pass, others become `?`. */
const escapeWinAnsiString = (s: string): string =>
  Array.from(s)
    .map((ch) => winAnsiByte(ch) ?? escapePdfString(ch))
    .join('');

/** The WinAnsi bytes of text (a latin1 string, for a hex string): as {@link escapeWinAnsiString}, without escapes. */
const winAnsiBytes = (s: string): string =>
  Array.from(s)
    .map((ch) => winAnsiByte(ch) ?? (/^[\x20-\x7e]$/.test(ch) ? ch : '?'))
    .join('');

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
  // Characters of `unicode` runs: one byte code each (from 0x21), named by the font's ToUnicode map.
  const unicodeChars = [...new Set(pages.flatMap((page) => page.runs.filter((run) => run.unicode).flatMap((run) => Array.from(run.text))))];
  if (unicodeChars.length > 220) throw new RangeError(`writeSimplePdf: ${unicodeChars.length} distinct characters in unicode runs, at most 220`);
  const unicodeCode = new Map(unicodeChars.map((ch, i) => [ch, 0x21 + i]));
  let fontUnicode = 0;
  if (unicodeChars.length > 0) {
    const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');
    const utf16 = (ch: string): string => Array.from({ length: ch.length }, (_, i) => hex(ch.charCodeAt(i), 4)).join('');
    const cmap = [
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
      '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /DocTree-UCS def /CMapType 2 def',
      '1 begincodespacerange <00> <FF> endcodespacerange',
      `${unicodeChars.length} beginbfchar`,
      ...unicodeChars.map((ch) => `<${hex(unicodeCode.get(ch)!, 2)}> <${utf16(ch)}>`),
      'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
    ].join('\n');
    const toUnicode = add(`<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`);
    fontUnicode = add(
      `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 33 /LastChar ${0x20 + unicodeChars.length} /Widths [${unicodeChars.map(() => 550).join(' ')}] /ToUnicode ${toUnicode} 0 R >>`,
    );
  }
  const pageIds: number[] = [];
  for (const page of pages) {
    const width = page.width ?? 612;
    const height = page.height ?? 792;
    const ops: string[] = [];
    for (const shape of page.shapes ?? []) {
      const y = height - shape.y - shape.height;
      const lineWidth = shape.lineWidth ?? 0.5;
      if (shape.kind === 'rect') ops.push(`${shape.gray ?? 0.85} g ${shape.x} ${y} ${shape.width} ${shape.height} re f 0 g`);
      else if (shape.kind === 'frame') ops.push(`${lineWidth} w ${shape.x} ${y} ${shape.width} ${shape.height} re S`);
      else if (shape.kind === 'curve') {
        const [x0, y0, x1, y1] = [shape.x, height - shape.y, shape.x + shape.width, height - shape.y - shape.height];
        const bulge = shape.bulge ?? 20;
        ops.push(`${lineWidth} w ${x0} ${y0} m ${x0 + (x1 - x0) / 3} ${y0 + bulge} ${x0 + (2 * (x1 - x0)) / 3} ${y1 + bulge} ${x1} ${y1} c S`);
      } else ops.push(`${lineWidth} w ${shape.x} ${height - shape.y} m ${shape.x + shape.width} ${height - shape.y - shape.height} l S`);
    }
    const xobjects: string[] = [];
    for (const image of page.images ?? []) {
      const place = `q ${image.width} 0 0 ${image.height} ${image.x} ${height - image.y - image.height} cm`;
      if (image.inline) {
        ops.push(`${place} BI /W 2 /H 2 /CS /RGB /BPC 8 ID ${CHECKER_PIXELS} EI Q`);
      } else {
        const name = `Im${xobjects.length}`;
        xobjects.push(name);
        ops.push(`${place} /${name} Do Q`);
      }
    }
    for (const run of page.runs) {
      const size = run.size ?? 11;
      if (run.unicode) {
        const codes = Array.from(run.text, (ch) => unicodeCode.get(ch)!.toString(16).padStart(2, '0')).join('');
        ops.push(`BT /F3 ${size} Tf 1 0 0 1 ${run.x} ${height - run.y} Tm <${codes}> Tj ET`);
        continue;
      }
      const shown = run.hex ? `<${Buffer.from(winAnsiBytes(run.text), 'latin1').toString('hex')}>` : `(${escapeWinAnsiString(run.text)})`;
      ops.push(`BT /${run.bold ? 'F2' : 'F1'} ${size} Tf 1 0 0 1 ${run.x} ${height - run.y} Tm ${shown} Tj ET`);
    }
    const stream = ops.join('\n');
    const contentId = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    const imageRefs = xobjects.map((name) => `/${name} ${add(`<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${CHECKER_PIXELS.length} >>\nstream\n${CHECKER_PIXELS}\nendstream`)} 0 R`);
    const xobjectDict = imageRefs.length > 0 ? ` /XObject << ${imageRefs.join(' ')} >>` : '';
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${width} ${height}]${page.rotate ? ` /Rotate ${page.rotate}` : ''} /Resources << /Font << /F1 ${fontRegular} 0 R /F2 ${fontBold} 0 R${fontUnicode ? ` /F3 ${fontUnicode} 0 R` : ''} >>${xobjectDict} >> /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  let outlineRef = '';
  const outline = options.outline ?? [];
  if (outline.length > 0) {
    const rootId = add('');
    const itemIds = outline.map(() => add(''));
    // Parent of each entry: the closest preceding entry one level up (-1 = the outline root).
    const levels = outline.map((item) => Math.max(1, Math.floor(item.level ?? 1)));
    const parents = levels.map((level, i) => {
      for (let j = i - 1; j >= 0; j--) if (levels[j]! < level) return j;
      return -1;
    });
    const childrenOf = (parent: number): number[] => parents.flatMap((p, i) => (p === parent ? [i] : []));
    const descendants = (parent: number): number =>
      childrenOf(parent).reduce((sum, child) => sum + 1 + descendants(child), 0);
    outline.forEach((item, i) => {
      const siblings = childrenOf(parents[i]!);
      const at = siblings.indexOf(i);
      const prev = siblings[at - 1];
      const next = siblings[at + 1];
      const kids = childrenOf(i);
      const links = [
        prev !== undefined ? `/Prev ${itemIds[prev]} 0 R` : '',
        next !== undefined ? `/Next ${itemIds[next]} 0 R` : '',
        kids.length > 0 ? `/First ${itemIds[kids[0]!]} 0 R /Last ${itemIds[kids[kids.length - 1]!]} 0 R /Count ${descendants(i)}` : '',
      ].join(' ');
      const parentId = parents[i]! < 0 ? rootId : itemIds[parents[i]!]!;
      objects[itemIds[i]! - 1] = `<< /Title (${escapePdfString(item.title)}) /Parent ${parentId} 0 R ${links} /Dest [${pageIds[item.pageIdx]} 0 R /Fit] >>`;
    });
    const top = childrenOf(-1);
    objects[rootId - 1] = `<< /Type /Outlines /First ${itemIds[top[0]!]} 0 R /Last ${itemIds[top[top.length - 1]!]} 0 R /Count ${itemIds.length} >>`;
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

/**
 * A one-page PDF whose extra objects are the given stream dictionaries and data (xref offsets exact), drawing
 * `content` in Helvetica: for tests of what a PDF's streams hold (decompression bombs, huge images).
 */
export function writePdfWithStreams(streams: Array<{ dict: string; data: Buffer }>, content = 'BT /F1 12 Tf 72 720 Td (Hello) Tj ET'): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: Buffer | string): void => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (n: number, body: Array<Buffer | string>): void => {
    offsets[n] = length;
    push(`${n} 0 obj\n`);
    for (const piece of body) push(piece);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n');
  const xobjects = streams.map((_, i) => `/X${6 + i} ${6 + i} 0 R`).join(' ');
  object(1, ['<< /Type /Catalog /Pages 2 0 R >>']);
  object(2, ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>']);
  object(3, [`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << ${xobjects} >> >> /Contents 4 0 R >>`]);
  object(4, [`<< /Length ${content.length} >>\nstream\n${content}\nendstream`]);
  object(5, ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>']);
  streams.forEach((s, i) => object(6 + i, [`<< ${s.dict} /Length ${s.data.length} >>\nstream\n`, s.data, '\nendstream']));
  const xref = length;
  const count = 6 + streams.length;
  push(`xref\n0 ${count}\n0000000000 65535 f \n${Array.from({ length: count - 1 }, (_, i) => `${String(offsets[i + 1]).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
