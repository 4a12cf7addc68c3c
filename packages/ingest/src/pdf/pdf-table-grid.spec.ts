import { groupRows, lineFrags, wordCount } from './pdf-table-grid.js';
import { line, span } from '../__fixtures__/pdf-spans.js';

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
