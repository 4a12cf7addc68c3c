import { sentenceSpans as splitSentenceSpans } from '@doctree/schema';

/** A half-open `[start, end)` span of a text. */
export interface TextSpan {
  start: number;
  end: number;
}

const WHITESPACE = /\s/;

/**
 * Sentences of `text.slice(start, end)` as exact spans of `text` (the `sentenceSpans` of `@doctree/schema`, the
 * index's prose splitter): a span starts at the sentence's first character and ends after its last one (surrounding
 * whitespace excluded). Whitespace-only input gives no spans.
 */
export function sentenceSpans(text: string, start: number, end: number): TextSpan[] {
  return splitSentenceSpans(text.slice(start, end)).map((s) => ({ start: start + s.start, end: start + s.end }));
}

/** Lines of `text.slice(start, end)` (table rows), as exact spans without their line breaks; blank lines skipped. */
export function lineSpans(text: string, start: number, end: number): TextSpan[] {
  const spans: TextSpan[] = [];
  let lineStart = start;
  for (let i = start; i <= end; i++) {
    if (i === end || text[i] === '\n') {
      const span = trimSpan(text, { start: lineStart, end: i });
      if (span) spans.push(span);
      lineStart = i + 1;
    }
  }
  return spans;
}

/** The span without surrounding whitespace, or undefined when nothing is left. */
export function trimSpan(text: string, span: TextSpan): TextSpan | undefined {
  let { start, end } = span;
  while (start < end && WHITESPACE.test(text[start]!)) start++;
  while (end > start && WHITESPACE.test(text[end - 1]!)) end--;
  return end > start ? { start, end } : undefined;
}

/**
 * Cuts a span longer than `maxChars` into pieces of at most `maxChars`, preferring to cut at whitespace in the
 * second half of each piece (a hard cut only inside very long words). Shorter spans come back unchanged.
 */
export function splitLongSpan(text: string, span: TextSpan, maxChars: number): TextSpan[] {
  if (span.end - span.start <= maxChars) return [span];
  const pieces: TextSpan[] = [];
  let start = span.start;
  while (span.end - start > maxChars) {
    let cut = start + maxChars;
    const floor = start + Math.floor(maxChars / 2);
    while (cut > floor && !WHITESPACE.test(text[cut]!)) cut--;
    if (cut <= floor) cut = start + maxChars;
    const piece = trimSpan(text, { start, end: cut });
    if (piece) pieces.push(piece);
    start = cut;
    while (start < span.end && WHITESPACE.test(text[start]!)) start++;
  }
  const rest = trimSpan(text, { start, end: span.end });
  if (rest) pieces.push(rest);
  return pieces;
}
