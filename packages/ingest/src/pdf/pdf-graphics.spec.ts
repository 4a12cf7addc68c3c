import { colorLightness, pdfOpsFrom, readPdfGraphics } from './pdf-graphics.js';
import type { PdfOps } from './pdf-graphics.js';

/** The page frame of an unrotated US-letter page: y flips, origin at the top-left corner. */
const VIEWPORT = [1, 0, 0, -1, 0, 792];
const PAGE = { width: 612, height: 792 };
/** pdf.js drawing codes inside `constructPath` buffers. */
const M = 0;
const L = 1;
const C = 2;
const Z = 4;

let ops: PdfOps;

beforeAll(async () => {
  const unpdf = await import('unpdf');
  const pdfjs = (await unpdf.getResolvedPDFJS()) as { OPS: Record<string, number> };
  ops = pdfOpsFrom(pdfjs.OPS)!;
});

/** A pdf.js ≥ 5 `constructPath` operation: paint operator, drawing buffer, min/max box. */
const path = (paint: number, buffer: number[]): [number, unknown] => [ops.constructPath, [paint, [Float32Array.from(buffer)], null]];
const rect = (x: number, y: number, w: number, h: number): number[] => [M, x, y, L, x + w, y, L, x + w, y + h, L, x, y + h, Z];

/** Reads graphics from a list of `[operator, args]` pairs. */
function read(list: Array<[number, unknown]>): ReturnType<typeof readPdfGraphics> {
  return readPdfGraphics({ fnArray: list.map(([fn]) => fn), argsArray: list.map(([, args]) => args) }, ops, VIEWPORT, PAGE);
}

describe('readPdfGraphics', () => {
  it('turns thin dark filled rectangles and stroked segments into rules in top-left coordinates', () => {
    const g = read([
      [ops.setFillRGBColor, ['#000000']],
      path(ops.fill, rect(72, 700, 200, 0.8)),
      [ops.setLineWidth, [0.5]],
      path(ops.stroke, [M, 300, 100, L, 300, 400]),
    ]);
    expect(g.rules).toEqual([
      { orientation: 'h', from: 72, to: 272, at: 91.6, width: 0.8 },
      { orientation: 'v', from: 392, to: 692, at: 300, width: 0.5 },
    ]);
    expect(g.paths).toEqual([]);
  });

  it('ignores white paint and keeps light thin fills out of the rules', () => {
    const g = read([
      [ops.setFillRGBColor, ['#ffffff']],
      path(ops.fill, rect(72, 700, 200, 0.8)),
      [ops.setFillRGBColor, ['#cceeff']],
      path(ops.fill, rect(72, 600, 200, 2)),
      path(ops.fill, rect(72, 500, 200, 30)),
    ]);
    expect(g.rules).toEqual([]);
    expect(g.paths).toEqual([{ bbox: [72, 262, 272, 292], curves: 0, segments: 4, rect: true, filled: true, stroked: false }]);
  });

  it('follows transforms through save / restore and form XObjects, and boxes images and curves', () => {
    const g = read([
      [ops.save, null],
      [ops.transform, [2, 0, 0, 2, 10, 10]],
      path(ops.stroke, [M, 0, 0, C, 10, 20, 30, 20, 40, 0]),
      [ops.restore, null],
      [ops.paintFormXObjectBegin, [[1, 0, 0, 1, 100, 0], [0, 0, 50, 50]]],
      [ops.save, null],
      [ops.transform, [100, 0, 0, 50, 0, 0]],
      [ops.paintImageXObject, ['img_p0_1', 2, 2]],
      [ops.restore, null],
      [ops.paintFormXObjectEnd, null],
      [ops.transform, [30, 0, 0, 30, 400, 400]],
      [ops.paintInlineImageXObject, [{}]],
    ]);
    expect(g.paths).toEqual([{ bbox: [10, 742, 90, 782], curves: 1, segments: 1, rect: false, filled: false, stroked: true }]);
    expect(g.images).toEqual([
      { bbox: [100, 742, 200, 792], kind: 'xobject' },
      { bbox: [400, 362, 430, 392], kind: 'inline' },
    ]);
  });

  it('reads the older constructPath form with a separate paint operator and drops lone points', () => {
    const g = read([
      [ops.constructPath, [[ops.rectangle], [72, 100, 300, 1]]],
      [ops.fill, null],
      path(ops.fill, [...rect(10, 10, 100, 100), M, 10, 10]),
    ]);
    expect(g.rules).toEqual([{ orientation: 'h', from: 72, to: 372, at: 691.5, width: 1 }]);
    expect(g.paths).toEqual([{ bbox: [10, 682, 110, 782], curves: 0, segments: 4, rect: true, filled: true, stroked: false }]);
  });

  it('edges of a stroked rectangle become four rules', () => {
    const g = read([path(ops.stroke, rect(100, 100, 50, 20))]);
    expect(g.rules.map((r) => [r.orientation, r.at])).toEqual([
      ['h', 692],
      ['v', 150],
      ['h', 672],
      ['v', 100],
    ]);
  });
});

describe('colorLightness', () => {
  it('reads hex strings, gray, RGB and CMYK components', () => {
    expect(colorLightness(['#000000'])).toBe(0);
    expect(colorLightness(['#ffffff'])).toBeCloseTo(1);
    expect(colorLightness([0.5])).toBe(0.5);
    expect(colorLightness([255, 255, 255])).toBeCloseTo(1);
    expect(colorLightness([0, 0, 0, 1])).toBe(0);
    expect(colorLightness([{ pattern: true }])).toBeUndefined();
  });

  it('reads hex digits of either case and nothing that is not `#rrggbb`', () => {
    expect(colorLightness(['#FF0000'])).toBe(0.299);
    expect(colorLightness(['#00ff00'])).toBe(0.587);
    expect(colorLightness(['#0000Ff'])).toBe(0.114);
    expect(colorLightness(['#808080'])).toBe(0.299 * (128 / 255) + 0.587 * (128 / 255) + 0.114 * (128 / 255));
    for (const bad of ['#fff', '#ggg000', '#0000000', 'ff0000', '#00 000', ' #000000']) expect([bad, colorLightness([bad])]).toEqual([bad, undefined]);
  });
});
