/**
 * Text patterns of the PDF adapter: list markers, heading numbering, page numbers and math.
 * Pure functions over one line or block of text.
 */

/** A list marker found at the start of a line. */
export interface ListMarker {
  kind: 'bullet' | 'ordered' | 'reference';
  /** The marker as written (`•`, `1.`, `(a)`). */
  marker: string;
  /** The text after the marker. */
  rest: string;
}

/** Bullet glyphs, including the private-use code points Symbol / Wingdings bullets map to. */
const GLYPH_BULLET = /^([•●▪■◦○‣⁃∙·➢➤►▶✓✔❖\uf06e\uf075\uf0a7\uf0b7\uf0d8\uf0fc\uf0a8\uf076])\s*(\S.*)$/u;
const ASCII_BULLET = /^([*\-–—])\s+(\S.*)$/u;
const REFERENCE = /^(\[\d{1,3}\])\s*(\S.*)$/u;
const ORDERED = [
  /^(\(\d{1,3}\)|\d{1,3}[.)])\s+(\S.*)$/u,
  /^(\([a-z]\)|[a-z][.)])\s+(\S.*)$/u,
  /^(\([ivx]{1,5}\)|[ivx]{1,5}[.)])\s+(\S.*)$/u,
];

/**
 * The list marker a line starts with: bullets (`•`, `-`, `–`, `*`, Wingdings), enumerators
 * (`1.`, `(a)`, `i.`) or reference numbers (`[12]`).
 */
export function listMarker(text: string): ListMarker | undefined {
  const trimmed = text.trim();
  const glyph = GLYPH_BULLET.exec(trimmed) ?? ASCII_BULLET.exec(trimmed);
  if (glyph) return { kind: 'bullet', marker: glyph[1]!, rest: glyph[2]! };
  const reference = REFERENCE.exec(trimmed);
  if (reference) return { kind: 'reference', marker: reference[1]!, rest: reference[2]! };
  for (const pattern of ORDERED) {
    const match = pattern.exec(trimmed);
    if (match) return { kind: 'ordered', marker: match[1]!, rest: match[2]! };
  }
  return undefined;
}

/** Kinds of heading numbering, from the outermost. */
export type NumberingKind = 'part' | 'chapter' | 'appendix' | 'item' | 'note' | 'section' | 'decimal' | 'roman' | 'letter';

/** Numbering found at the start of a heading. */
export interface HeadingNumbering {
  kind: NumberingKind;
  /** Normalised numbering: `2.3`, `Item 7A`, `PART II`, `Chapter 3`, `Appendix A`, `Note 12`. */
  text: string;
  /** Nesting depth for `decimal` / `section` (`2.3.1` → 3); 1 otherwise, 2 for `letter`. */
  depth: number;
}

/** Finds heading numbering at the start of a title candidate. */
export function headingNumbering(text: string): HeadingNumbering | undefined {
  const t = text.trim();
  let m = /^(part)\s+([ivx]{1,5})\b/i.exec(t);
  if (m) return { kind: 'part', text: `PART ${m[2]!.toUpperCase()}`, depth: 1 };
  m = /^(chapter)\s+(\d{1,3}|[ivxlc]{1,6})\b/i.exec(t);
  if (m) return { kind: 'chapter', text: `Chapter ${/\d/.test(m[2]!) ? m[2]! : m[2]!.toUpperCase()}`, depth: 1 };
  m = /^(appendix)(?:\s+([a-z]|\d{1,2}|[ivx]{1,4})\b)?/i.exec(t);
  if (m) return { kind: 'appendix', text: m[2] ? `Appendix ${m[2].toUpperCase()}` : 'Appendix', depth: 1 };
  m = /^(item)\s+(\d{1,2})([a-z])?\b/i.exec(t);
  if (m) return { kind: 'item', text: `Item ${m[2]!}${(m[3] ?? '').toUpperCase()}`, depth: 1 };
  // Numbered notes to financial statements: `NOTE 1. Significant Accounting Policies`, `Note 12 - Debt`, `Note 3: Revenue`.
  m = /^(Note|NOTE)\s+(\d{1,2})([A-Za-z])?(?:\s*[.:\-–—]\s*|\s+)(?=[A-Z(“"'])/.exec(t);
  if (m) return { kind: 'note', text: `Note ${m[2]!}${(m[3] ?? '').toUpperCase()}`, depth: 1 };
  m = /^(section)\s+(\d{1,2}(?:\.\d{1,2}){0,4})\b/i.exec(t);
  if (m) return { kind: 'section', text: `Section ${m[2]!}`, depth: m[2]!.split('.').length };
  m = /^(\d{1,2}(?:\.\d{1,2}){0,5})\.?\s+(?=[A-Za-z(“"'])/.exec(t);
  if (m) return { kind: 'decimal', text: m[1]!, depth: m[1]!.split('.').length };
  m = /^([IVX]{1,5})\.\s+(?=[A-Z])/.exec(t);
  if (m) return { kind: 'roman', text: m[1]!, depth: 1 };
  m = /^([A-H])\.\s+(?=[A-Z][a-z])/.exec(t);
  if (m) return { kind: 'letter', text: m[1]!, depth: 2 };
  return undefined;
}

const PAGE_NUMBER_PATTERNS = [
  /^(?:page\s+)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?$/i,
  /^[-–—]\s*\d{1,4}\s*[-–—]$/,
  /^(?:page\s+)?[ivxlcdm]{1,7}$/i,
  /^[A-Z]{1,2}\s?-\s?\d{1,3}$/,
  /^\|\s*\d{1,4}$|^\d{1,4}\s*\|$/,
];

/** True for page-number text: `12`, `Page 12 of 40`, `- 12 -`, `xii`, `F-3`; or the page's own label. */
export function isPageNumberText(text: string, label?: string): boolean {
  const t = text.trim();
  if (!t || t.length > 24) return false;
  if (label !== undefined && t === label) return true;
  return PAGE_NUMBER_PATTERNS.some((p) => p.test(t));
}

const MATH_SYMBOLS = /[=+−×÷·∑∏∫∮√∞≤≥≠≈≡∼≃∝∈∉⊂⊆⊃∪∩∀∃∂∇±∓→←↦⇒⇔⟨⟩‖^<>]/gu;
const GREEK_OR_MATH_ALNUM = /[\u0391-\u03c9\u03d1\u03d5\u03f5\u{1d400}-\u{1d7ff}]/gu;
const MATH_WORDS = new Set(['sin', 'cos', 'tan', 'log', 'exp', 'max', 'min', 'argmax', 'argmin', 'softmax', 'lim', 'sup', 'inf', 'where', 'subject']);

/**
 * Conservative display-math test: short, has `=` or several math symbols, at most one ordinary
 * word of four or more letters, and symbols / digits / Greek make up a good share of the text.
 */
export function looksLikeEquation(text: string): boolean {
  const t = text.trim();
  if (t.length < 3 || t.length > 200 || !/[\p{L}\d]/u.test(t) || /\w_\w/.test(t)) return false;
  const symbols = (t.match(MATH_SYMBOLS) ?? []).length;
  const greek = (t.match(GREEK_OR_MATH_ALNUM) ?? []).length;
  const hasEquals = /[=≤≥≈≠≡]/.test(t);
  if (!hasEquals && symbols + greek < 3) return false;
  const words = t.split(/\s+/).filter((w) => /^[A-Za-z]{4,}[,.;:]?$/.test(w) && !MATH_WORDS.has(w.replace(/[,.;:]$/, '').toLowerCase()));
  if (words.length > 1) return false;
  const dense = t.replace(/\s+/g, '');
  const digits = (dense.match(/\d/g) ?? []).length;
  const short = t
    .split(/\s+/)
    .filter((w) => /^[A-Za-z]{1,3}$/.test(w))
    .reduce((n, w) => n + w.length, 0);
  return (symbols + greek + digits + short) / dense.length >= 0.2;
}
