import { estimateTokens } from '@doctree/index';
import type { TextSpan } from './text-spans.js';

/** Size settings of {@link packSpans}, in `estimateTokens` units. */
export interface PackSpansSettings {
  targetTokens: number;
  minTokens: number;
  maxTokens: number;
  /** Largest overlap with the previous chunk, in tokens; 0 turns overlap off. */
  overlapTokens: number;
  /** Largest overlap as a fraction of either neighbour's length in characters. */
  maxOverlapRatio: number;
}

/**
 * Packs consecutive pieces (sentences or table rows, each at most `maxTokens`) of one contiguous stretch of `text`
 * into chunks: pieces are added while the chunk stays within `targetTokens`, or within `maxTokens` while it is
 * still below `minTokens`; a short last chunk is merged into its predecessor or takes pieces from it. Each chunk
 * after the first may start with the last whole piece(s) of its predecessor, if they fit `overlapTokens`,
 * `maxOverlapRatio` of both chunks and `maxTokens`; when no whole piece fits, it starts with the trailing words of its
 * predecessor within the same limits. Returns exact spans of `text`, in order.
 */
export function packSpans(text: string, pieces: readonly TextSpan[], settings: PackSpansSettings): TextSpan[] {
  const n = pieces.length;
  if (n === 0) return [];
  const tokens = (i: number, j: number): number => estimateTokens(text.slice(pieces[i]!.start, pieces[j - 1]!.end));
  const groups: Array<[number, number]> = [];
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n) {
      const withNext = tokens(i, j + 1);
      if (withNext <= settings.targetTokens || (tokens(i, j) < settings.minTokens && withNext <= settings.maxTokens)) j++;
      else break;
    }
    groups.push([i, j]);
    i = j;
  }
  rebalanceTail(groups, tokens, settings);

  const spans: TextSpan[] = [];
  for (let g = 0; g < groups.length; g++) {
    const [i, j] = groups[g]!;
    const end = pieces[j - 1]!.end;
    let start = pieces[i]!.start;
    const previous = spans[g - 1];
    if (previous && settings.overlapTokens > 0) {
      const [pi, pj] = groups[g - 1]!;
      for (let k = 1; k < pj - pi; k++) {
        const candidate = pieces[pj - k]!.start;
        const overlap = previous.end - candidate;
        const fits =
          estimateTokens(text.slice(candidate, previous.end)) <= settings.overlapTokens &&
          overlap <= settings.maxOverlapRatio * (end - candidate) &&
          overlap <= settings.maxOverlapRatio * (previous.end - previous.start) &&
          estimateTokens(text.slice(candidate, end)) <= settings.maxTokens;
        if (!fits) break;
        start = candidate;
      }
      if (start === pieces[i]!.start) start = trailingWordsStart(text, previous, start, end, settings);
    }
    spans.push({ start, end });
  }
  return spans;
}

/** A last group below `minTokens` joins its predecessor when both fit `maxTokens`, else takes its trailing pieces. */
function rebalanceTail(groups: Array<[number, number]>, tokens: (i: number, j: number) => number, settings: PackSpansSettings): void {
  if (groups.length < 2) return;
  const last = groups[groups.length - 1]!;
  const previous = groups[groups.length - 2]!;
  if (tokens(last[0], last[1]) >= settings.minTokens) return;
  if (tokens(previous[0], last[1]) <= settings.maxTokens) {
    groups.splice(groups.length - 2, 2, [previous[0], last[1]]);
    return;
  }
  while (tokens(last[0], last[1]) < settings.minTokens && previous[1] - previous[0] > 1) {
    const moved = previous[1] - 1;
    if (tokens(previous[0], moved) < settings.minTokens || tokens(moved, last[1]) > settings.maxTokens) break;
    previous[1] = moved;
    last[0] = moved;
  }
}

/**
 * Start of an overlap made of the predecessor's trailing words: at most `overlapTokens` and `maxOverlapRatio` of
 * either chunk, beginning at a word. Returns `start` unchanged when no word fits.
 */
function trailingWordsStart(text: string, previous: TextSpan, start: number, end: number, settings: PackSpansSettings): number {
  const budget = Math.floor(Math.min(settings.overlapTokens * 4, settings.maxOverlapRatio * (previous.end - previous.start), settings.maxOverlapRatio * (end - start)));
  if (budget <= 0) return start;
  let candidate = previous.end - budget;
  while (candidate < previous.end && !/\s/.test(text[candidate - 1] ?? ' ')) candidate++;
  while (candidate < previous.end && /\s/.test(text[candidate]!)) candidate++;
  if (candidate >= previous.end || candidate <= previous.start) return start;
  return estimateTokens(text.slice(candidate, end)) <= settings.maxTokens ? candidate : start;
}
