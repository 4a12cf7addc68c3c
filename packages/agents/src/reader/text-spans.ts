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
 * Sentence spans of a text: split after `.`, `!`, `?` followed by a capital, digit or quote, and at line breaks
 * (table rows, list items); abbreviations (`e.g.`, `Inc.`, `U.S.`) and decimals do not split. Spans exclude
 * surrounding whitespace.
 */
export function sentenceSpans(text: string): TextSpan[] {
  const out: TextSpan[] = [];
  const boundary = /(?<=[.!?]["”’)]?)\s+(?=[A-Z0-9"“‘($€£])|\s*\n\s*/g;
  let start = 0;
  const push = (end: number): void => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e > s) out.push({ start: s, end: e });
  };
  for (const m of text.matchAll(boundary)) {
    const before = text.slice(Math.max(start, m.index - 6), m.index);
    if (!m[0].includes('\n') && /(?:\b(?:e\.g|i\.e|etc|vs|fig|figs|eq|no|nr|inc|corp|ltd|co|mr|mrs|ms|dr|approx|ca|max|min|al|st|p|pp|vol)\.|\b[A-Z]\.)$/i.test(before)) continue;
    push(m.index);
    start = m.index + m[0].length;
  }
  push(text.length);
  return out;
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
