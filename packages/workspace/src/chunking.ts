import { createHash } from 'node:crypto';
import { sentenceSpans as splitSentences, type SentenceOptions } from '@doctree/schema';

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

/**
 * How the workspace splits sentences with the one splitter of `@doctree/schema`: at `.`, `!`, `?` (followed by space,
 * closing marks allowed between, whatever starts the next sentence; not after an abbreviation of source documents or
 * an initial, nor inside a decimal), at `。！？；`, and at line breaks (a line of a PDF block is never joined to the next
 * block's).
 */
export const WORKSPACE_SENTENCES = {
  lineBreaks: true,
  closingQuotes: 'runs',
  anyStart: true,
  abbreviations: 'sources',
  initials: true,
  cjkStops: true,
} as const satisfies SentenceOptions;

/**
 * Sentences of `text` as spans (trimmed, never empty), split as {@link WORKSPACE_SENTENCES} says. Offsets index
 * `text`, so `text.slice(s.start, s.end)` is the sentence verbatim.
 */
export function sentenceSpans(text: string): TextSpan[] {
  return splitSentences(text, WORKSPACE_SENTENCES);
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
