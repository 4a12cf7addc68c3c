import { romanValue } from '@doctree/schema';

/**
 * Signals read from a question without a model: figure / table labels (page references: `findPageReferences` of
 * `@doctree/schema`). The router of `@doctree/agents` finds richer signals; these keep each lane usable on its own.
 */

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
