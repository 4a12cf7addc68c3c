import { TraceSchema, type Hit } from '@doctree/schema';
import fc from 'fast-check';
import { TRACE_HIT_TEXT, TraceRecorder, summarizeHits, traceSnippet } from './trace-recorder.js';

const hit = (i: number, snippet: string): Hit => ({
  eid: `e${i}`,
  doc_id: 'acme',
  page_idx: i % 3,
  node_id: `t_${i}`,
  modality: 'text',
  snippet,
  bbox: [10, 20 + i, 300, 40 + i],
  score_raw: 1 / (i + 1),
  method: 'bm25_node.search',
  extra: {},
});

describe('hit text in traces', () => {
  it('keeps the start of the text and the box of the first hits only, so a trace shows what was found and stays small', () => {
    const long = `Net sales rose\n\n   to $412.0 million ${'and more words '.repeat(40)}`;
    const hits = Array.from({ length: 30 }, (_, i) => hit(i, long));
    const summary = summarizeHits(hits);
    expect(summary).toHaveLength(30);
    const withText = summary.filter((h) => h.snippet !== undefined);
    expect(withText).toHaveLength(TRACE_HIT_TEXT.hits);
    expect(withText[0]!.snippet!.startsWith('Net sales rose to $412.0 million and more')).toBe(true);
    expect(withText[0]!.snippet!.length).toBeLessThanOrEqual(TRACE_HIT_TEXT.chars);
    expect(summary[0]!.bbox).toEqual([10, 20, 300, 40]);
    expect(summary.slice(TRACE_HIT_TEXT.hits).every((h) => h.snippet === undefined && h.bbox === undefined)).toBe(true);
    expect(traceSnippet('a\tb\n c')).toBe('a b c');
  });

  it('cuts a long text from its start only: the same snippet as collapsing the whole text first', () => {
    const whole = (text: string, max: number): string => {
      const flat = text.replace(/\s+/g, ' ').trim();
      return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
    };
    const piece = fc.oneof(fc.constantFrom(' ', '\n', '\t  ', '   \n\n', 'word', 'x', '$1.2'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.integer({ min: 1, max: 60 }), (pieces, max) => {
        const text = pieces.join('');
        expect(traceSnippet(text, max)).toBe(whole(text, max));
      }),
      { numRuns: 400 },
    );
    const table = `${'\n'.repeat(300)}Revenue ${'1,234   '.repeat(5000)}`;
    expect(traceSnippet(table)).toBe(whole(table, TRACE_HIT_TEXT.chars));
  });

  it('scrubs secrets from hit text and the result is a valid trace', () => {
    const recorder = new TraceRecorder({ secrets: ['sk-SECRET-123'] });
    recorder.record({ type: 'tool_call', tool_id: 'bm25_node.search', args: { query: 'q' }, status: 'ok', n_hits: 1, hits: summarizeHits([hit(0, 'key sk-SECRET-123 in a page')]) });
    const trace = recorder.toTrace({ doc_id: 'acme', question: 'q', mode: 'offline' });
    expect(TraceSchema.parse(trace).events[0]!.hits![0]!.snippet).not.toContain('sk-SECRET-123');
  });
});
