import { splitSentences } from '@doctree/schema';

/** A half-open `[start, end)` span of a text. */
export interface TextSpan {
  start: number;
  end: number;
}

const WHITESPACE = /\s/;

/**
 * Sentences of `text.slice(start, end)` as exact spans of `text`, found with the `splitSentences` of
 * `@doctree/schema`. That splitter works on whitespace-normalised text, so every sentence is mapped back to the
 * original characters: a span starts at the sentence's first character and ends after its last one (surrounding
 * whitespace excluded). Whitespace-only input gives no spans.
 */
export function sentenceSpans(text: string, start: number, end: number): TextSpan[] {
  const slice = text.slice(start, end);
  // Replicates `replace(/\s+/g, ' ').trim()` while recording where each normalised character came from.
  let normalised = '';
  const origin: number[] = [];
  for (let i = 0; i < slice.length; i++) {
    if (WHITESPACE.test(slice[i]!)) {
      if (normalised.length > 0 && !normalised.endsWith(' ')) {
        normalised += ' ';
        origin.push(i);
      }
      continue;
    }
    normalised += slice[i]!;
    origin.push(i);
  }
  if (normalised.endsWith(' ')) {
    normalised = normalised.slice(0, -1);
    origin.pop();
  }
  if (normalised.length === 0) return [];
  const spans: TextSpan[] = [];
  let cursor = 0;
  for (const sentence of splitSentences(slice)) {
    let at = normalised.startsWith(sentence, cursor) ? cursor : normalised.indexOf(sentence, cursor);
    if (at < 0) at = cursor; // cannot happen with the current splitter; keeps spans monotonic if it ever does
    const last = Math.min(normalised.length, at + sentence.length) - 1;
    if (last < at) continue;
    spans.push({ start: start + origin[at]!, end: start + origin[last]! + 1 });
    cursor = last + 1;
  }
  // Whatever the splitter dropped at the end still belongs to the text.
  const tail = spans[spans.length - 1];
  const lastChar = start + origin[origin.length - 1]! + 1;
  if (tail && tail.end < lastChar) tail.end = lastChar;
  return spans;
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
