/**
 * Heading-level compaction: levels say how headings nest, not how many styles a document uses, so a level
 * no heading uses is removed and the levels below it move up. Pure functions over lists of levels (1 = top).
 */

/** Deepest heading level a content list carries. */
export const MAX_HEADING_LEVEL = 9;

/**
 * Removes empty levels: the shallowest level used becomes 1, the next one used 2, and so on
 * (`[2, 4, 4, 7]` → `[1, 2, 2, 3]`); order between levels never changes. Levels are capped at 9.
 */
export function compactLevels(levels: readonly number[]): number[] {
  const used = [...new Set(levels)].sort((a, b) => a - b);
  const rank = new Map(used.map((level, i) => [level, Math.min(MAX_HEADING_LEVEL, i + 1)]));
  return levels.map((level) => rank.get(level)!);
}

/**
 * Levels of a run of headings that must open at the top (a new part of the document: the body after a cover page,
 * documents appended after the signatures): the first heading is raised to level 1, so it closes every section
 * opened before the run, the others keep their order, and empty levels are removed (`[3, 2, 4, 5]` → `[1, 2, 3, 4]`).
 * An empty list stays empty.
 */
export function openAtTop(levels: readonly number[]): number[] {
  return compactLevels(levels.map((level, i) => (i === 0 ? 1 : level)));
}
