import type { BBox } from '@doctree/schema';
import type { PdfLine, PdfSpan } from './pdf-lines.js';
import { groupRows, lineFrags, wordCount } from './pdf-table-grid.js';

/** A span of `text` at x on the baseline y, 0.5 em per character wide. */
function span(text: string, x: number, y: number, size = 9): PdfSpan {
  const bbox: BBox = [x, y - 0.8 * size, x + 0.5 * size * text.length, y + 0.2 * size];
  return { text, bbox, baseline: y, size, bold: false };
}

/** A line of spans. */
function line(spans: PdfSpan[]): PdfLine {
  const bbox: BBox = [Math.min(...spans.map((s) => s.bbox[0])), Math.min(...spans.map((s) => s.bbox[1])), Math.max(...spans.map((s) => s.bbox[2])), Math.max(...spans.map((s) => s.bbox[3]))];
  return { text: spans.map((s) => s.text).join(' '), bbox, baseline: spans[0]!.baseline, size: spans[0]!.size, bold: false, spans };
}

describe('wordCount', () => {
  it('counts the runs of non-whitespace a `\\s+` split counts, Unicode spaces included', () => {
    const texts = ['', ' ', 'one', ' two  words ', 'a\tb\nc\u000bd\u000ce\rf', 'no\u00a0break', 'thin\u2009space\u3000ideographic', 'zero\u200bwidth', 'bom\ufeffhere', 'line\u2028para\u2029end', '\u1680ogham\u202fnarrow\u205fmath', '𝐀𝐁 𝐂'];
    for (const text of texts) expect([text, wordCount(text)]).toEqual([text, text.split(/\s+/).filter(Boolean).length]);
  });
});

describe('lineFrags', () => {
  it('gives every call an array of its own, so grouping the same lines again gives the same rows', () => {
    const lines = [
      line([span('Revenue', 72, 100), span('10', 300, 100), span('12', 360, 100)]),
      line([span('Costs', 72, 100.5), span('(4)', 420, 100.5)]),
    ];
    const first = lineFrags(lines[0]!);
    first.reverse();
    first.push({ ...first[0]!, text: 'stray' });
    expect(lineFrags(lines[0]!).map((f) => f.text)).toEqual(['Revenue', '10', '12']);
    const once = groupRows(lines);
    const again = groupRows(lines);
    expect(again).toEqual(once);
    expect(once[0]!.frags.map((f) => f.text)).toEqual(['Revenue', 'Costs', '10', '12', '(4)']);
  });
});
