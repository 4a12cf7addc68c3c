import { createHash } from 'node:crypto';

/** A span of text: `[start, end)` in UTF-16 code units. */
export interface TextSpan {
  start: number;
  end: number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_G = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const WORD_G = /[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu;

/** True when the text contains Chinese, Japanese or Korean characters. */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * Tokens of a text as chunk sizes count them: each word of a space-separated script and each CJK character is one
 * token (close to what sub-word tokenisers give for English prose, a little above for Chinese).
 */
export function countTokens(text: string): number {
  const cjk = text.match(CJK_G)?.length ?? 0;
  const words = (text.replace(CJK_G, ' ').match(WORD_G) ?? []).length;
  return cjk + words;
}

/** Words of a text (CJK characters count one each), for the 60-word quote limit. */
export function countWords(text: string): number {
  return countTokens(text);
}

const ABBREVIATION = /(?:\b(?:e\.g|i\.e|etc|vs|fig|figs|eq|no|inc|corp|ltd|co|mr|mrs|ms|dr|st|u\.s|approx|al|p|pp|vol|rs|nos?|fy)\.|\b[A-Z]\.)$/i;

/**
 * Sentences of `text` as spans (trimmed, never empty): ends at `.`, `!`, `?` (followed by space and not after an
 * abbreviation or inside a decimal), at `。！？；`, and at line breaks (a line of a PDF block is never joined to the next
 * block's). Offsets index `text`, so `text.slice(s.start, s.end)` is the sentence verbatim.
 */
export function sentenceSpans(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  let start = 0;
  const push = (end: number): void => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e > s) spans.push({ start: s, end: e });
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') {
      push(i + 1);
    } else if ('。！？；'.includes(ch)) {
      let j = i + 1;
      while (j < text.length && '”’」』）)'.includes(text[j]!)) j++;
      push(j);
      i = j - 1;
    } else if (ch === '.' || ch === '!' || ch === '?') {
      let j = i + 1;
      while (j < text.length && `"'”’)]`.includes(text[j]!)) j++;
      if (j < text.length && !/\s/.test(text[j]!)) continue;
      if (ch === '.' && ABBREVIATION.test(text.slice(Math.max(start, i - 12), i + 1))) continue;
      push(j);
      i = j - 1;
    }
  }
  push(text.length);
  return spans;
}

/** Splits one over-long span into pieces of at most `maxTokens` tokens, at word (or CJK character) boundaries. */
function splitLong(text: string, span: TextSpan, maxTokens: number): TextSpan[] {
  const units: TextSpan[] = [];
  const re = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
  const piece = text.slice(span.start, span.end);
  for (const m of piece.matchAll(re)) units.push({ start: span.start + m.index, end: span.start + m.index + m[0].length });
  const out: TextSpan[] = [];
  let tokens = 0;
  let first: TextSpan | undefined;
  let last: TextSpan | undefined;
  for (const unit of units) {
    const t = countTokens(text.slice(unit.start, unit.end));
    if (first && tokens + t > maxTokens) {
      out.push({ start: first.start, end: last!.end });
      first = undefined;
      tokens = 0;
    }
    first ??= unit;
    last = unit;
    tokens += t;
  }
  if (first) out.push({ start: first.start, end: last!.end });
  return out;
}

/** Sizes of the children (see `WorkspaceConfig.chunk`). */
export interface ChildSizes {
  target_tokens: number;
  min_tokens: number;
  max_tokens: number;
  max_overlap: number;
}

/** One child span and how many of its tokens repeat the previous child. */
export interface ChildSpan extends TextSpan {
  tokens: number;
  overlap_tokens: number;
}

/**
 * Packs the sentences of a parent's text into children of about `target_tokens` (between `min_tokens` and
 * `max_tokens`; a parent shorter than `min_tokens` gives one shorter child). A child may start with the previous
 * child's last sentence when that keeps the repeated part at most `max_overlap` of the child.
 */
export function packChildren(text: string, sizes: ChildSizes): ChildSpan[] {
  const sentences: Array<TextSpan & { tokens: number }> = [];
  for (const span of sentenceSpans(text)) {
    const tokens = countTokens(text.slice(span.start, span.end));
    if (tokens > sizes.max_tokens) {
      for (const part of splitLong(text, span, sizes.target_tokens)) sentences.push({ ...part, tokens: countTokens(text.slice(part.start, part.end)) });
    } else sentences.push({ ...span, tokens });
  }
  const groups: Array<Array<(typeof sentences)[number]>> = [];
  let current: Array<(typeof sentences)[number]> = [];
  let tokens = 0;
  for (const s of sentences) {
    if (current.length > 0 && tokens + s.tokens > sizes.target_tokens && (tokens >= sizes.min_tokens || tokens + s.tokens > sizes.max_tokens)) {
      groups.push(current);
      current = [];
      tokens = 0;
    }
    current.push(s);
    tokens += s.tokens;
  }
  if (current.length > 0) {
    const previous = groups[groups.length - 1];
    const prevTokens = previous?.reduce((n, s) => n + s.tokens, 0) ?? 0;
    if (previous && tokens < sizes.min_tokens && prevTokens + tokens <= sizes.max_tokens) previous.push(...current);
    else groups.push(current);
  }
  const out: ChildSpan[] = [];
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    const own = group.reduce((n, s) => n + s.tokens, 0);
    let start = group[0]!.start;
    let overlap = 0;
    const carried = g > 0 ? groups[g - 1]![groups[g - 1]!.length - 1] : undefined;
    if (carried && groups[g - 1]!.length > 1 && carried.tokens <= sizes.max_overlap * (own + carried.tokens) && own + carried.tokens <= sizes.max_tokens) {
      start = carried.start;
      overlap = carried.tokens;
    }
    out.push({ start, end: group[group.length - 1]!.end, tokens: own + overlap, overlap_tokens: overlap });
  }
  return out;
}

/** sha256 (hex) of a text: the hash of parents and children, the key of incremental embedding. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
