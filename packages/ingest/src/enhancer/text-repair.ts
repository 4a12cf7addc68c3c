import type { ContentBlock } from '@doctree/schema';
import { withFlag, type EnhancerRule } from './enhancer-rule.js';

const LIGATURES: Array<[RegExp, string]> = [
  [/\ufb00/g, 'ff'],
  [/\ufb01/g, 'fi'],
  [/\ufb02/g, 'fl'],
  [/\ufb03/g, 'ffi'],
  [/\ufb04/g, 'ffl'],
  [/\u00ad/g, ''],
  [/[\u00a0\u2007\u202f]/g, ' '],
  [/\u200b|\u200c|\u200d|\ufeff/g, ''],
];

/** Spacing accents TeX-made PDFs draw as glyphs of their own before the letter, with the combining mark each stands for. */
const SPACING_ACCENTS: Record<string, string> = {
  '\u00a8': '\u0308', // ¨ diaeresis
  '\u00b4': '\u0301', // ´ acute
  '\u02c6': '\u0302', // ˆ circumflex
  '\u02dc': '\u0303', // ˜ tilde
  '\u02c7': '\u030c', // ˇ caron
  '\u02da': '\u030a', // ˚ ring
  '\u00b8': '\u0327', // ¸ cedilla
};
const ACCENT_BEFORE_LETTER = /(\p{L}?)([\u00a8\u00b4\u02c6\u02dc\u02c7\u02da\u00b8])( ?)(\p{L})/gu;

/**
 * Composes a spacing accent drawn before its letter into the accented letter: `Aky¨urek` → `Akyürek`,
 * `Gonz´alez` → `González`; across a space only inside a word (`Bartolom´ e`).
 */
export function composeAccents(text: string): string {
  if (!/[\u00a8\u00b4\u02c6\u02dc\u02c7\u02da\u00b8]/.test(text)) return text;
  return text.replace(ACCENT_BEFORE_LETTER, (m, before: string, accent: string, space: string, letter: string) =>
    space && !before ? m : `${before}${letter}${SPACING_ACCENTS[accent] ?? ''}`.normalize('NFC'),
  );
}

/**
 * Normalises whitespace and typographic artefacts of PDF text: ligatures, soft hyphens, odd spaces, runs of
 * blanks, and spacing accents set before their letter.
 */
export function repairWhitespace(text: string): string {
  let out = composeAccents(text);
  for (const [re, to] of LIGATURES) out = out.replace(re, to);
  return out
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/([a-z])- \n?([a-z])/g, (m, a: string, b: string) => (m.includes('\n') ? `${a}${b}` : m))
    .trim();
}

/**
 * Hyphenation and whitespace repair: cleans every text-bearing block, and joins a paragraph that ends in a
 * hyphenated word with the next text block (same type, next in reading order, starting lowercase), as happens
 * at column and page breaks: `infor-` + `mation retrieval` → `information retrieval`.
 */
export function textRepairRule(): EnhancerRule {
  return {
    name: 'text-repair',
    apply(blocks: ContentBlock[]) {
      let changed = 0;
      const out: ContentBlock[] = [];
      for (const original of blocks) {
        let b = original;
        if ('text' in b && typeof b.text === 'string') {
          const text = repairWhitespace(b.text);
          if (text !== b.text) {
            changed++;
            b = { ...b, text } as ContentBlock;
          }
        } else if (b.type === 'list') {
          const before = b.list_items;
          const items = before.map(repairWhitespace);
          if (items.some((item, i) => item !== before[i])) {
            changed++;
            b = { ...b, list_items: items };
          }
        }
        const prev = out[out.length - 1];
        if (prev?.type === 'text' && b.type === 'text' && /[a-z]-$/.test(prev.text) && /^[a-z]/.test(b.text) && !(prev.flags ?? []).includes('caption')) {
          out[out.length - 1] = withFlag({ ...prev, text: `${prev.text.slice(0, -1)}${b.text}` }, 'hyphenation_repaired');
          changed++;
          continue;
        }
        out.push(b);
      }
      return { blocks: out, outcome: { changed } };
    },
  };
}
