import { sentenceSpans as splitSentenceSpans, type SentenceOptions } from '@doctree/schema';
import { stemEnglish } from '@doctree/index';

/** A word of a text with its offsets and stem. */
export interface WordToken {
  word: string;
  stem: string;
  start: number;
  end: number;
}

/** A half-open `[start, end)` span of a text. */
export interface TextSpan {
  start: number;
  end: number;
}

const WORD_RE = /[A-Za-z][A-Za-z0-9&'’-]*[A-Za-z0-9]|[A-Za-z]|\d+(?:[.,]\d+)*/g;

/** Normalises and stems one word (`Revenues` → `revenu`; `R&D` stays `r&d`; possessives dropped). */
export function stemWord(word: string): string {
  const lower = word.toLowerCase().replace(/[’']s$/, '').replace(/[’']/g, '');
  return stemEnglish(lower);
}

/** Words of a text with offsets and stems; hyphenated words also give their parts (same offsets). */
export function wordTokens(text: string): WordToken[] {
  const out: WordToken[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const word = m[0];
    out.push({ word, stem: stemWord(word), start: m.index, end: m.index + word.length });
    if (word.includes('-')) {
      let offset = m.index;
      for (const part of word.split('-')) {
        if (part) out.push({ word: part, stem: stemWord(part), start: offset, end: offset + part.length });
        offset += part.length + 1;
      }
    }
  }
  return out;
}

/**
 * How the reader splits evidence into sentences: also at line breaks (table rows, list items), after a closing quote,
 * before a currency sign, and not after initials or the abbreviations of manuals and filings (`approx.`, `p.`, `vol.`).
 */
const EVIDENCE_SENTENCES: SentenceOptions = { lineBreaks: true, closingQuotes: true, moneyStarts: true, abbreviations: 'evidence', initials: true };

/** Sentence spans of an evidence text ({@link EVIDENCE_SENTENCES}); spans exclude surrounding whitespace. */
export function sentenceSpans(text: string): TextSpan[] {
  return splitSentenceSpans(text, EVIDENCE_SENTENCES);
}

/** Trims a span to at most `max` characters around a focus span, at word boundaries. */
export function windowAround(text: string, span: TextSpan, focus: TextSpan, max: number): TextSpan {
  if (span.end - span.start <= max) return span;
  const half = Math.max(0, Math.floor((max - (focus.end - focus.start)) / 2));
  let start = Math.max(span.start, focus.start - half);
  let end = Math.min(span.end, Math.max(focus.end + half, start + max));
  start = Math.max(span.start, Math.min(start, end - max));
  while (start > span.start && start < focus.start && /\S/.test(text[start - 1]!)) start++;
  while (end < span.end && end > focus.end && /\S/.test(text[end]!)) end--;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}
