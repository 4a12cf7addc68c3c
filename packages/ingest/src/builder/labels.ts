/**
 * Figure / table / equation labels: parsing captions (`Figure 3: …`, `Fig. 3.`, `TABLE II`, `Table 2-1`) and
 * finding mentions in running text (`see Figure 3`, `Tables 2 and 3`, `Fig. 4(b)`).
 */

/** Kind of labelled object. */
export type LabelKind = 'figure' | 'table' | 'equation';

/** A parsed label: canonical text (`Figure 3`), kind and number (`3`, `2-1`, `II`, `A.1`). */
export interface ParsedLabel {
  kind: LabelKind;
  number: string;
  /** Canonical form, e.g. `Figure 3`, `Table 2`. */
  label: string;
}

const KIND_WORDS: Array<[RegExp, LabelKind]> = [
  [/^(?:figure|fig\.?|chart|exhibit)$/i, 'figure'],
  [/^(?:table|tab\.?)$/i, 'table'],
  [/^(?:equation|eq\.?)$/i, 'equation'],
];

const NUMBER = '([0-9]+(?:[.\\-][0-9]+)*[a-z]?|[A-Z](?:[.\\-]?[0-9]+)+|[IVXLC]+)';

/** Canonical label for a kind and number. */
export function canonicalLabel(kind: LabelKind, number: string): string {
  return `${kind === 'figure' ? 'Figure' : kind === 'table' ? 'Table' : 'Equation'} ${number}`;
}

function kindOf(word: string): LabelKind | undefined {
  return KIND_WORDS.find(([re]) => re.test(word))?.[1];
}

const CAPTION_RE = new RegExp(`^\\s*(figure|fig\\.?|table|tab\\.?|chart|exhibit)\\s*${NUMBER}\\s*(?:[:.\\-–—|]|$|\\s)`, 'i');

/**
 * Parses the label at the start of a caption (`Figure 3: Accuracy…` → Figure 3). Returns undefined when the
 * text does not start with a label.
 */
export function parseCaptionLabel(text: string): ParsedLabel | undefined {
  const m = CAPTION_RE.exec(text);
  if (!m) return undefined;
  const kind = kindOf(m[1]!);
  if (!kind) return undefined;
  const number = m[2]!.replace(/\.$/, '');
  return { kind, number, label: canonicalLabel(kind, number) };
}

/** A mention of a label inside running text, with its character span. */
export interface LabelMention extends ParsedLabel {
  start: number;
  end: number;
}

const MENTION_RE = new RegExp(`\\b(figures?|figs?\\.?|tables?|tabs?\\.|equations?|eqs?\\.)\\s*${NUMBER}((?:\\s*(?:,|and|&|–|-|to)\\s*${NUMBER})*)`, 'gi');
const LIST_NUMBER_RE = new RegExp(NUMBER, 'g');

/** Finds every figure/table/equation mention in text (`Tables 2 and 3` yields two mentions). */
export function findLabelMentions(text: string): LabelMention[] {
  const out: LabelMention[] = [];
  for (const m of text.matchAll(MENTION_RE)) {
    const word = m[1]!.toLowerCase().replace(/s?\.?$/, '').replace(/^fig$/, 'fig').replace(/^tab$/, 'tab');
    const kind = kindOf(word) ?? kindOf(`${word}.`);
    if (!kind) continue;
    const start = m.index;
    const numbers = [m[2]!];
    if (m[3]) for (const extra of m[3].matchAll(LIST_NUMBER_RE)) numbers.push(extra[0]);
    for (const number of numbers) {
      const clean = number.replace(/\.$/, '');
      out.push({ kind, number: clean, label: canonicalLabel(kind, clean), start, end: start + m[0].length });
    }
  }
  return out;
}
