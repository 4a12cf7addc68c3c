/**
 * Control characters (`\p{Cc}`: C0, DEL, C1) and the Unicode format characters that reorder or hide text on a terminal
 * (bidi embeddings, overrides and isolates, LRM/RLM/ALM).
 */
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** Options of {@link escapeControlChars}. */
export interface EscapeControlCharsOptions {
  /** Keep `\n` and `\t` as they are (for a report whose own lines are already built). Default false. */
  keepLayout?: boolean;
}

const escapeOne = (char: string): string => {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * Makes untrusted text (file names, document ids, document text) safe to print on a terminal: control characters
 * (`\x00`–`\x1f`, `\x7f`, C1 `\x80`–`\x9f`) and bidi / direction marks become visible escapes (`\x1b`, `\u202e`),
 * so they cannot move the cursor, recolour, clear the screen or reorder what follows. Meant for human-readable
 * output only; `--json` output stays exact.
 */
export function escapeControlChars(text: string, options: EscapeControlCharsOptions = {}): string {
  return text.replace(UNSAFE, options.keepLayout ? (char) => (char === '\n' || char === '\t' ? char : escapeOne(char)) : escapeOne);
}
