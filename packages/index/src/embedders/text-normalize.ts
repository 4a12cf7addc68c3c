/**
 * Text normalisation and tokenisation shared by the offline embedders.
 * Changing anything here changes vectors: bump the version in the embedder ids (`hashing-v1`, `sif-…-v1`).
 */

/** English function words (a compact list in the spirit of the NLTK / SMART lists), used for down-weighting. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own s same she should so some such t than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves'
  ).split(' '),
);

const MARKS = /\p{M}+/gu;

/**
 * Lower-cases and strips accents: NFKD decomposition (also folds ligatures and full-width forms), then removes
 * combining marks. `Café ﬁnal` → `cafe final`.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

// Letters runs, numbers with inner `.`/`,` groups, and the symbols that carry meaning in financial text.
const TOKEN = /\p{L}+|\p{N}+(?:[.,]\p{N}+)*|[%$€£¥]/gu;

/**
 * Normalises a number token: thousands separators are dropped and a zero fraction removed, so `1,482.00`,
 * `1482.0` and `1482` are the same token; `12.50` becomes `12.5`. Tokens with several dots (`1.2.3`) are kept.
 */
export function normalizeNumber(token: string): string {
  const plain = token.replace(/,/g, '');
  const dots = plain.split('.').length - 1;
  if (dots !== 1) return plain;
  const trimmed = plain.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}

/** True for a token that starts with a letter (words, as opposed to numbers and symbols). */
export function isWordToken(token: string): boolean {
  return /^\p{L}/u.test(token);
}

/**
 * Tokenises for feature hashing: {@link normalizeText}, then runs of letters, numbers (normalised by
 * {@link normalizeNumber}) and the symbols `% $ € £ ¥`. Everything else separates tokens (`10-K` → `10`, `k`).
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of normalizeText(text).matchAll(TOKEN)) {
    const token = match[0];
    out.push(/^\p{N}/u.test(token) ? normalizeNumber(token) : token);
  }
  return out;
}

// Word-vector vocabularies (GloVe) keep hyphenated words and clitics (`'s`, `n't`) as tokens.
const WORD_TOKEN = /\p{L}+(?:['’-]\p{L}+)*|\p{N}+(?:[.,]\p{N}+)*|[%$]/gu;

/**
 * Characters besides ASCII that {@link normalizeText} leaves as they are and that are no part of a word token: each is
 * its own NFKD form, no combining mark, its own lower case, and neither a letter, a number nor a character the token
 * pattern reads (`'` `’` `-` `.` `,` `%` `$`). A text of ASCII and these only is normalised by lower-casing alone.
 * (Checked character by character in text-normalize.spec.ts.)
 */
export const PLAIN_SEPARATORS = '‘“”–—•·©®°§¶€£¥¢';
// Right single quotation mark: read as an apostrophe (the replace in {@link wordTokens}), also on the fast path.
const PLAIN_TEXT = new RegExp(`^[\\x00-\\x7f’${PLAIN_SEPARATORS}]*$`);
// WORD_TOKEN on a lower-cased text whose letters and digits are all ASCII.
const ASCII_WORD_TOKEN = /[a-z]+(?:['-][a-z]+)*|[0-9]+(?:[.,][0-9]+)*|[%$]/g;

/**
 * Tokenises for word-vector lookup: {@link normalizeText}, then words that may contain inner hyphens or
 * apostrophes (`state-of-the-art`, `company's`), numbers and `% $`. Callers split hyphenated or clitic
 * forms themselves when the whole form is not in their vocabulary.
 * A text of ASCII and {@link PLAIN_SEPARATORS} takes a shorter path with the same tokens: NFKD and the removal of
 * marks change nothing in it, so it is only lower-cased and read with an ASCII pattern.
 */
export function wordTokens(text: string): string[] {
  if (PLAIN_TEXT.test(text)) return text.toLowerCase().replace(/’/g, "'").match(ASCII_WORD_TOKEN) ?? [];
  return Array.from(normalizeText(text).replace(/’/g, "'").matchAll(WORD_TOKEN), (match) => match[0]);
}
