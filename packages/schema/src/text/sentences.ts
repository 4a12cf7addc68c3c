/**
 * Sentences of running text: the sentence splitter of the index (extractive summaries, sentence records) and of the
 * RAG baseline's chunks.
 */

const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|fig|figs|eq|no|inc|corp|ltd|co|mr|mrs|dr|u\.s|approx|al)\.$/i;

/**
 * Splits text into sentences, keeping abbreviations (`e.g.`, `Fig.`, `U.S.`) and decimals intact. Whitespace is
 * normalised to single spaces; a sentence ends at `.`, `!` or `?` before a capital, a digit, `(` or a quote.
 *
 * @example
 * ```ts
 * splitSentences('Sales rose 4.2% (see Fig. 3). Costs fell.'); // ['Sales rose 4.2% (see Fig. 3).', 'Costs fell.']
 * ```
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const parts = text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s+(?=[A-Z0-9("“])/);
  for (const part of parts) {
    const previous = out[out.length - 1];
    if (previous !== undefined && ABBREVIATIONS.test(previous)) out[out.length - 1] = `${previous} ${part}`;
    else if (part.length > 0) out.push(part);
  }
  return out;
}
