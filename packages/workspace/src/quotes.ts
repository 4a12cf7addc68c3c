import { analyzeQuery } from '@doctree/index';
import { countWords, sentenceSpans, type TextSpan } from './chunking.js';

/** Longest exact quote, in words (a CJK character counts as one). */
export const MAX_QUOTE_WORDS = 60;

/**
 * Characters a PDF text layer gives for glyphs it could not map to Unicode: C0 and C1 control characters (other than
 * line breaks and tabs), the private use area and U+FFFD. A sentence holding one is not what the page shows, so a
 * quote avoids it when another sentence of the child shares some of the query.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
export const UNMAPPED_GLYPH = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ue000-\uf8ff\ufffd]/u;

/**
 * The documented normalisation under which a quote is compared with another reading of its page: Unicode NFKC
 * (ligatures such as `ﬁ` become `fi`, full-width forms plain ones), soft hyphens removed, every run of whitespace one
 * space, trimmed. `exact_quote` itself is never normalised: it is the exact slice of DocTree's text of the page.
 */
export function verbatimForm(text: string): string {
  return text.normalize('NFKC').replace(/\u00ad/g, '').replace(/\s+/g, ' ').trim();
}

/** A quote and where it is in the text it was taken from. */
export interface Quote extends TextSpan {
  text: string;
}

const UNIT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * The exact quote for a query from `text`: the sentence sharing most of the query's terms (the first on a tie; a
 * sentence with an {@link UNMAPPED_GLYPH} only when no other shares any term), cut to the window of at most
 * {@link MAX_QUOTE_WORDS} words that shares most. Sentences overlapping a span of `avoid` (text the reader composed,
 * such as a table header of several rows) are never quoted. Always a verbatim slice of `text`.
 */
export function selectQuote(text: string, query: string, maxWords = MAX_QUOTE_WORDS, avoid: ReadonlyArray<readonly [number, number]> = []): Quote | null {
  const queryTerms = new Set(analyzeQuery(query));
  const spans = sentenceSpans(text).filter((span) => !avoid.some(([a, b]) => span.start < b && a < span.end));
  if (spans.length === 0) return null;
  const overlap = (s: string): number => {
    let n = 0;
    for (const t of new Set(analyzeQuery(s))) if (queryTerms.has(t)) n++;
    return n;
  };
  let best = spans[0]!;
  let bestScore = -1;
  for (const span of spans) {
    const sentence = text.slice(span.start, span.end);
    const shared = overlap(sentence);
    // Clean sentences that share a term rank above every sentence with an unmapped glyph.
    const score = shared > 0 && !UNMAPPED_GLYPH.test(sentence) ? shared + 1_000_000 : shared;
    if (score > bestScore) {
      best = span;
      bestScore = score;
    }
  }
  let span: TextSpan = best;
  if (countWords(text.slice(best.start, best.end)) > maxWords) {
    const units = [...text.slice(best.start, best.end).matchAll(UNIT)].map((m) => ({ start: best.start + m.index, end: best.start + m.index + m[0].length }));
    let top = -1;
    for (let i = 0; i + maxWords <= units.length || i === 0; i++) {
      const w = { start: units[i]!.start, end: units[Math.min(units.length, i + maxWords) - 1]!.end };
      const score = overlap(text.slice(w.start, w.end));
      if (score > top) {
        top = score;
        span = w;
      }
      if (i + maxWords >= units.length) break;
    }
  }
  return { start: span.start, end: span.end, text: text.slice(span.start, span.end) };
}

/** True when `quote` occurs verbatim in `source` and has at most `maxWords` words. */
export function isVerbatimQuote(quote: string, source: string, maxWords = MAX_QUOTE_WORDS): boolean {
  return quote.length > 0 && source.includes(quote) && countWords(quote) <= maxWords;
}

/** The first and last five words of a quote (the char anchor of a locator without a page). */
export function anchorsOf(quote: string): { anchor_begin: string; anchor_end: string } {
  const words = quote.split(/\s+/).filter(Boolean);
  return { anchor_begin: words.slice(0, 5).join(' '), anchor_end: words.slice(-5).join(' ') };
}
