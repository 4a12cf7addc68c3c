/**
 * Signals read from a question without a model: figure / table labels and page references. The router of
 * `@doctree/agents` finds richer signals; these keep each lane usable on its own.
 */

const ROMAN: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** Value of a Roman numeral (`iv` → 4), or undefined when it is not one (up to 399). */
export function romanValue(text: string): number | undefined {
  const s = text.toLowerCase();
  if (!/^(c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/.test(s) || s.length === 0) return undefined;
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN[s[i]!]!;
    const next = ROMAN[s[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

const LABEL_RE = /\b(fig(?:ure)?s?|tab(?:le)?s?|eq(?:uation)?s?)\.?\s*((?:[0-9]+[a-z]?|[ivxl]+\b)(?:\s*(?:,|and|&|or)\s*(?:[0-9]+[a-z]?|[ivxl]+\b))*)/gi;

/**
 * Figure / table / equation labels a text names, normalised to `Figure 3`, `Table 2`, `Equation 1`:
 * `Fig. 3`, `figures 2 and 3`, `Table IV`, `tab 2`. Four-digit numbers are taken for years, not labels.
 *
 * @example
 * ```ts
 * findLabels('Compare Fig. 2 and 3 with Table IV'); // ['Figure 2', 'Figure 3', 'Table 4']
 * ```
 */
export function findLabels(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(LABEL_RE)) {
    const word = m[1]!.toLowerCase();
    const kind = word.startsWith('f') ? 'Figure' : word.startsWith('t') ? 'Table' : 'Equation';
    for (const raw of m[2]!.split(/\s*(?:,|and|&|or)\s*/i)) {
      const value = raw.trim();
      if (!value || /^[0-9]{4}$/.test(value)) continue;
      const n = /^[0-9]/.test(value) ? value : romanValue(value)?.toString();
      if (n === undefined) continue;
      const label = `${kind} ${n}`;
      if (!out.includes(label)) out.push(label);
    }
  }
  return out;
}

/** One page reference found in a question. */
export interface PageReference {
  /** How the page was named: a number, an ordinal (`the second page`), the last page, or a printed page label (`page iv`, `F-3`). */
  kind: 'number' | 'ordinal' | 'last' | 'label';
  /** 1-based page for `number` / `ordinal`; the page count is needed for `last`; absent for `label`. */
  page?: number;
  /** Printed label for `label` (and for numbers, which may also be printed labels). */
  label?: string;
  /** Text that named it. */
  text: string;
}

const ORDINALS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18,
  nineteenth: 19, twentieth: 20,
};

/**
 * Page references in a question: `page 5`, `p. 5`, `pages 3-5`, `pp. 3–4`, `pages 2 and 7`, `on the 5th page`,
 * `the second page`, `the last page`, `page iv`, `page F-3`. Ranges expand (at most 50 pages).
 */
export function findPageReferences(text: string): PageReference[] {
  const out: PageReference[] = [];
  const push = (ref: PageReference): void => {
    if (!out.some((o) => o.kind === ref.kind && o.page === ref.page && o.label === ref.label)) out.push(ref);
  };
  const listRe = /\b(?:pages?|pp?\.)\s*((?:[0-9]+\b|[ivxlc]+\b|[A-Z]{1,3}-[0-9]+\b)(?:\s*(?:-|–|—|to|through|,|and|&)\s*(?:[0-9]+\b|[ivxlc]+\b|[A-Z]{1,3}-[0-9]+\b))*)/gi;
  for (const m of text.matchAll(listRe)) {
    const body = m[1]!;
    const parts = body.split(/\s*(,|and|&)\s*/i).filter((p) => p && !/^(,|and|&)$/i.test(p));
    for (const part of parts) {
      const range = /^([0-9]+)\s*(?:-|–|—|to|through)\s*([0-9]+)$/i.exec(part);
      if (range) {
        const a = Number(range[1]);
        const b = Number(range[2]);
        if (b >= a && b - a <= 50) for (let p = a; p <= b; p++) push({ kind: 'number', page: p, label: String(p), text: m[0] });
        continue;
      }
      if (/^[0-9]+$/.test(part)) {
        const page = Number(part);
        if (page > 0) push({ kind: 'number', page, label: part, text: m[0] });
      } else if (romanValue(part) !== undefined || /^[A-Z]{1,3}-[0-9]+$/i.test(part)) {
        push({ kind: 'label', label: part, text: m[0] });
      }
    }
  }
  for (const m of text.matchAll(/\b([0-9]+)(?:st|nd|rd|th)\s+page\b/gi)) push({ kind: 'ordinal', page: Number(m[1]), text: m[0] });
  for (const m of text.matchAll(/\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth)\s+page\b/gi)) {
    push({ kind: 'ordinal', page: ORDINALS[m[1]!.toLowerCase()]!, text: m[0] });
  }
  for (const m of text.matchAll(/\b(?:last|final)\s+page\b/gi)) push({ kind: 'last', text: m[0] });
  return out;
}
