/**
 * Right-to-left scripts in logical order. pdf.js gives each text item in logical order (it runs the bidi algorithm on
 * it), but a line is assembled from its items left to right as they sit on the page, so the words of a Hebrew or
 * Arabic line come out in visual order (last word first); Arabic set as presentation forms (U+FB50–U+FDFF,
 * U+FE70–U+FEFF: the shaped glyphs many producers map to) does not match the letters people type. These functions
 * turn such text into the order and letters a search needs.
 */

/** Characters of right-to-left scripts: Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic and their presentation forms. */
const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/u;
const RTL_CHARS = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/gu;
/** Hebrew and Arabic presentation forms, which NFKC maps to the base letters. */
const PRESENTATION_FORMS = /[\uFB1D-\uFDFF\uFE70-\uFEFC]+/gu;
/** Letters of left-to-right scripts (any letter that is not right-to-left). */
const LTR_LETTERS = /(?![\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC])\p{L}/gu;

/** True when the text holds a character of a right-to-left script. */
export function hasRtl(text: string): boolean {
  return RTL_CHAR.test(text);
}

/**
 * Hebrew and Arabic presentation forms replaced by the letters they show (NFKC of those characters only: `ﻣﺮﺣﺒﺎ` →
 * `مرحبا`, the lam-alef ligature `ﻻ` → `لا`); other text is left as it is.
 */
export function normalizePresentationForms(text: string): string {
  return text.replace(PRESENTATION_FORMS, (run) => run.normalize('NFKC'));
}

const LETTER = /\p{L}/u;

/**
 * The reading order of the pieces of one line given left to right as they sit on the page (pdf.js text items: each
 * piece is already in logical order inside, pdf.js runs the bidi algorithm on it), as indexes into `pieces`. A line
 * with more right-to-left letters than others reads right to left: the pieces go in reverse, except that consecutive
 * pieces without right-to-left letters (numbers, Latin names) keep their order. In a left-to-right line each run of
 * right-to-left pieces (with the spaces and numbers between them) is reversed. Without right-to-left letters the order
 * is unchanged. Linear in the total length.
 */
export function logicalOrder(pieces: readonly string[]): number[] {
  const order = pieces.map((_, i) => i);
  const rtl = pieces.map((piece) => RTL_CHAR.test(piece));
  if (!rtl.includes(true)) return order;
  let rtlLetters = 0;
  let ltrLetters = 0;
  for (const piece of pieces) {
    rtlLetters += piece.match(RTL_CHARS)?.length ?? 0;
    ltrLetters += piece.match(LTR_LETTERS)?.length ?? 0;
  }
  const out: number[] = [];
  if (rtlLetters > ltrLetters) {
    // Groups: each right-to-left piece alone, each run of other pieces together; the groups read right to left.
    const groups: number[][] = [];
    for (let i = 0; i < pieces.length; i++) {
      if (rtl[i] || groups.length === 0 || rtl[i - 1]) groups.push([i]);
      else groups[groups.length - 1]!.push(i);
    }
    for (let g = groups.length - 1; g >= 0; g--) out.push(...groups[g]!);
    return out;
  }
  for (let i = 0; i < pieces.length; ) {
    if (!rtl[i]) {
      out.push(i++);
      continue;
    }
    // A run: right-to-left pieces and the pieces without letters between them, ending on a right-to-left piece.
    let end = i + 1;
    let last = i;
    while (end < pieces.length && (rtl[end] || !LETTER.test(pieces[end]!))) {
      if (rtl[end]) last = end;
      end++;
    }
    for (let j = last; j >= i; j--) out.push(j);
    i = last + 1;
  }
  return out;
}

/**
 * A line of words in visual order (as {@link logicalOrder} takes pieces, one word per piece) in logical order:
 * `visualToLogicalLine('עולם שלום')` → `שלום עולם`.
 */
export function visualToLogicalLine(line: string): string {
  if (!RTL_CHAR.test(line)) return line;
  const words = line.split(' ');
  return logicalOrder(words)
    .map((i) => words[i]!)
    .join(' ');
}

/** {@link normalizePresentationForms} then {@link visualToLogicalLine}: a line of words in visual order as it is searched. */
export function logicalRtlText(line: string): string {
  if (!RTL_CHAR.test(line)) return line;
  return visualToLogicalLine(normalizePresentationForms(line));
}
