import { romanValue } from '@doctree/schema';

/**
 * Labelled parts of a document — `Figure 7`, `Table IV`, `Section 3.2`, `Appendix C`, `Chapter 5`, `Exhibit 10.1`,
 * `Algorithm 2`, `Note 12` — as a question names them and as a document writes them (captions, references, numbered
 * headings). A question about a figure the document never labels cannot be answered from it.
 */

/** The kinds of labelled parts. Slides and pages are pages (see `findPageReferences`), not parts. */
export type PartKind = 'figure' | 'table' | 'section' | 'appendix' | 'chapter' | 'exhibit' | 'algorithm' | 'note';

/** One labelled part a question names. */
export interface PartLabel {
  kind: PartKind;
  /** The label as written (`7`, `3.2`, `IV`, `C`). */
  label: string;
  /** `Figure 7`: the kind and the label, for people. */
  text: string;
}

/**
 * The nouns of each kind (regex source, read case-insensitively) and whether a numbered heading line (`3.2 Results`,
 * `IV. DISCUSSION`, `C Prompts`) also writes a part of the kind: sections, chapters, appendices and notes are headed,
 * figures, tables, exhibits and algorithms are captioned.
 */
const PART_NOUNS: ReadonlyArray<readonly [PartKind, string, boolean]> = [
  ['figure', 'figures?|figs?\\.?', false],
  ['table', 'tables?|tabs?\\.', false],
  ['section', 'sections?|secs?\\.|§+', true],
  ['appendix', 'appendix|appendices|annex(?:es)?', true],
  ['chapter', 'chapters?|chap\\.', true],
  ['exhibit', 'exhibits?', false],
  ['algorithm', 'algorithms?', false],
  ['note', 'notes?', true],
];

const NOUN_SOURCE = PART_NOUNS.map(([, source]) => source).join('|');
const NOUN_KINDS = PART_NOUNS.map(([kind, source]) => [kind, new RegExp(`^(?:${source})$`, 'i')] as const);
const HEADED = new Set(PART_NOUNS.filter(([, , headed]) => headed).map(([kind]) => kind));

/** A label: a number with dotted parts and a letter (`3`, `3.2`, `3a`, `A1`, `S4`), a Roman numeral or one letter. */
const LABEL = '[A-Z]?\\d{1,4}(?:\\.\\d{1,3}){0,3}[a-z]?|[IVXLC]{1,7}|[A-Z]';
const LIST_SEPARATOR = ',|and|&|or|to|through|-|–';
/** A noun, then one label or a list or range of them (`Figures 3 and 4`, `Tables 2–5`); the noun ends at a space or after `.` / `§`. */
const PART_MENTION = new RegExp(
  `(?:\\b|(?=§))(${NOUN_SOURCE})(?:\\s+|(?<=[.§])\\s*)((?:${LABEL})(?![\\p{L}\\p{N}])(?:\\s*(?:${LIST_SEPARATOR})\\s*(?:${LABEL})(?![\\p{L}\\p{N}]))*)`,
  'giu',
);
const LABEL_TOKEN = new RegExp(`(${LABEL})(?![\\p{L}\\p{N}])|(-|–|to|through)`, 'giu');
/** A numbered heading: a line opening with `3.2`, `3.2.`, `IV.`, `C` or `C.1`, then a capitalised word. */
const HEADING = /(?:^|\n)[ \t]*(\d{1,3}(?:\.\d{1,3}){0,3}\.?|[IVX]{1,5}\.|[A-Z](?:\.\d{1,3}){0,3}\.?)[ \t]+(?=\p{Lu})/gu;
/** Longest range a document's `Tables 2–9` expands to. */
const MAX_RANGE = 50;
/** Headed labels a document needs before a headed kind counts as labelled (one numbered line can be a list item). */
const MIN_HEADINGS = 3;

function kindOf(noun: string): PartKind | undefined {
  for (const [kind, re] of NOUN_KINDS) if (re.test(noun)) return kind;
  return undefined;
}

/**
 * The keys one label stands for (lower case): itself, its value when it is a Roman numeral (`iv` → `4`) or the Roman
 * numeral of a number, without a sub-figure letter (`3a` → `3`) and its dotted prefixes (`3.2.1` → `3.2`, `3`).
 */
function labelKeys(label: string, withPrefixes: boolean): string[] {
  const lower = label.toLowerCase();
  const keys = new Set([lower]);
  const roman = /^[ivxlc]+$/.test(lower) ? romanValue(lower) : undefined;
  if (roman !== undefined) keys.add(String(roman));
  const base = lower.replace(/(?<=\d)[a-z]$/, '');
  keys.add(base);
  if (/^\d+$/.test(base)) keys.add(toRoman(Number(base)));
  if (withPrefixes) {
    const parts = base.split('.');
    for (let i = 1; i < parts.length; i++) keys.add(parts.slice(0, i).join('.'));
  }
  return [...keys].filter(Boolean);
}

function toRoman(n: number): string {
  if (n < 1 || n > 399) return '';
  let out = '';
  let rest = n;
  for (const [value, numeral] of [
    [100, 'c'],
    [90, 'xc'],
    [50, 'l'],
    [40, 'xl'],
    [10, 'x'],
    [9, 'ix'],
    [5, 'v'],
    [4, 'iv'],
    [1, 'i'],
  ] as const) {
    while (rest >= value) {
      out += numeral;
      rest -= value;
    }
  }
  return out;
}

/**
 * The labelled parts a question names (`in Figure 7`, `Fig. 3a`, `Tables 2 and 4`, `Section 3.2`, `Appendix C`), each
 * once. A letter or Roman label counts only in capitals (`table a` is no label).
 *
 * @example
 * ```ts
 * partsIn('Compare Fig. 3 with Tables II and 4.').map((p) => p.text); // ['Figure 3', 'Table II', 'Table 4']
 * ```
 */
export function partsIn(question: string): PartLabel[] {
  const out: PartLabel[] = [];
  for (const m of question.matchAll(PART_MENTION)) {
    const kind = kindOf(m[1]!);
    if (!kind) continue;
    for (const t of m[2]!.matchAll(LABEL_TOKEN)) {
      const label = t[1];
      if (label === undefined || /^[a-z]/.test(label)) continue;
      // One letter labels appendices, sections, chapters, notes and exhibits; of other kinds only a Roman numeral (`Table V`).
      if (/^[A-Z]$/.test(label) && !/^[IVXLC]$/.test(label) && !HEADED.has(kind) && kind !== 'exhibit') continue;
      const text = `${kind[0]!.toUpperCase()}${kind.slice(1)} ${label}`;
      if (!out.some((p) => p.text === text) && out.length < 16) out.push({ kind, label, text });
    }
  }
  return out;
}

/**
 * The labelled parts a document writes, read slice by slice (see `DocumentWords`): captions and references (`Figure
 * 7:`, `see Tables 2–4`, `Fig. 3(a)`, `§ 4.1`) and numbered heading lines (`3.2 Results`, `IV. RESULTS`, `C Prompts`).
 */
export class DocumentParts {
  readonly #keys = new Set<string>();
  readonly #labelled = new Set<PartKind>();
  readonly #headings = new Set<string>();

  /** Adds the labels of one slice of the document's text (slices may overlap: a label read twice is one label). */
  add(text: string): void {
    for (const m of text.matchAll(PART_MENTION)) {
      const kind = kindOf(m[1]!);
      if (!kind) continue;
      let previous: number | undefined;
      let range = false;
      for (const t of m[2]!.matchAll(LABEL_TOKEN)) {
        if (t[2] !== undefined) {
          range = previous !== undefined;
          continue;
        }
        const label = t[1]!;
        // `table a`, `figure i`: words after a noun, not labels (the nouns are read in any case, labels only in capitals).
        if (/^[a-z]/.test(label)) {
          previous = undefined;
          continue;
        }
        this.#labelled.add(kind);
        const n = /^\d+$/.test(label) ? Number(label) : /^[IVXLC]+$/.test(label) ? romanValue(label) : undefined;
        if (range && previous !== undefined && n !== undefined && n > previous && n - previous <= MAX_RANGE) for (let k = previous + 1; k < n; k++) this.#addKey(kind, String(k));
        this.#addKey(kind, label);
        previous = n;
        range = false;
      }
    }
    for (const m of text.matchAll(HEADING)) {
      const label = m[1]!.replace(/\.$/, '');
      if (this.#headings.has(label)) continue;
      this.#headings.add(label);
      for (const kind of HEADED) this.#addKey(kind, label);
    }
    if (this.#headings.size >= MIN_HEADINGS) for (const kind of HEADED) this.#labelled.add(kind);
  }

  /** True when the document labels any part of this kind (so a label it never writes is absent, not unreadable). */
  labels(kind: PartKind): boolean {
    return this.#labelled.has(kind);
  }

  /** True when the document writes this part's label (any of its forms: `Fig. 7` for `Figure 7`, `Table IV` for `Table 4`). */
  has(part: Pick<PartLabel, 'kind' | 'label'>): boolean {
    return labelKeys(part.label, false).some((key) => this.#keys.has(`${part.kind} ${key}`));
  }

  #addKey(kind: PartKind, label: string): void {
    for (const key of labelKeys(label, true)) this.#keys.add(`${kind} ${key}`);
  }
}

/** The text without its part mentions (`Figure 7`, `Tables 2 and 4`): their numbers are labels, not values. */
export function withoutPartMentions(text: string): string {
  return text.replace(PART_MENTION, ' ');
}
