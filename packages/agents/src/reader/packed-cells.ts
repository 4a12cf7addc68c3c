/**
 * Table cells that hold several values side by side. Result tables of papers often group settings under one
 * column ("Dataset A" over "5-shot 10-shot 20-shot"); when the PDF text merges the group, its sub-header row holds
 * the setting names in one cell and every body cell the values in the same order (`53.8(0.5) 54.0(1.4) 55.9(0.5)`).
 * These helpers split such a cell into one value per setting so a question naming both the row (a model) and the
 * setting (a dataset and a shot count) finds its cell.
 */

/** One value slot of a packed cell: a number (with its spread dropped) or a dash for a missing value. */
const SLOT_RE = /\s*(?:(?<num>[-−]?\d[\d,]*(?:\.\d+)?%?)(?:\s*(?:\([^()]*\)|±\s*\d+(?:\.\d+)?))?|(?<dash>[-−–—]))(?=\s|$)/y;

/**
 * The values of a cell written as two or more numbers side by side (each may carry a spread in parentheses or
 * after `±`; a lone dash is a missing value, `null`). `null` when the cell is not such a sequence.
 */
export function splitPackedValues(cell: string): (string | null)[] | null {
  const text = cell.trim();
  if (!text) return null;
  const out: (string | null)[] = [];
  SLOT_RE.lastIndex = 0;
  while (SLOT_RE.lastIndex < text.length) {
    const at = SLOT_RE.lastIndex;
    const m = SLOT_RE.exec(text);
    if (!m || SLOT_RE.lastIndex === at) return null;
    out.push(m.groups?.['num'] ?? null);
  }
  return out.length >= 2 && out.some((v) => v !== null) ? out : null;
}

/** Names of the settings a sub-header cell lists (`20-shot 50-shot 100-shot`): two or more words, none a bare number. */
function subHeaderNames(cell: string): string[] | null {
  const words = cell.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2 || words.some((w) => !/[A-Za-z]/.test(w))) return null;
  return words;
}

/**
 * Sub-headers of a table's packed columns: for a column, the setting names listed by a body row without a row label
 * among the first rows (that row names settings, not values). A map from column index to its setting names.
 */
export function packedSubHeaders(rows: readonly (readonly string[])[], scanRows = 2): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const row of rows.slice(0, scanRows)) {
    if ((row[0] ?? '').trim()) continue;
    row.forEach((cell, c) => {
      if (c === 0 || out.has(c)) return;
      const names = subHeaderNames(cell);
      if (names) out.set(c, names);
    });
  }
  return out;
}

/** One value of a packed cell with the header it stands under. */
export interface UnpackedCell {
  /** The value as written (without its spread). */
  value: string;
  /** The column header followed by the setting name. */
  header: string;
}

/**
 * The values of a packed cell, one per setting its column's sub-header names, each with its combined header;
 * `null` unless the cell holds exactly as many slots as the sub-header names (a misaligned cell is not guessed).
 */
export function unpackCell(cell: string, header: string, names: readonly string[] | undefined): UnpackedCell[] | null {
  if (!names) return null;
  const values = splitPackedValues(cell);
  if (!values || values.length !== names.length) return null;
  const out: UnpackedCell[] = [];
  values.forEach((value, i) => {
    if (value !== null) out.push({ value, header: `${header} ${names[i]}`.trim() });
  });
  return out;
}
