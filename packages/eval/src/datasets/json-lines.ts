/** Line bookkeeping for dataset files, so that errors can name the line of a malformed record. */

/** 1-based line of a character offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * 1-based line on which each element of a top-level JSON array starts (`[]` when the text is not an array).
 * Assumes the text is valid JSON (parse it first).
 */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectingElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') {
        i++;
      } else if (c === '"') {
        inString = false;
      }
      continue;
    }
    if (/\s/.test(c)) continue;
    if (depth === 1 && expectingElement && c !== ']') {
      lines.push(line);
      expectingElement = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1 && c === '[') expectingElement = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectingElement = true;
  }
  return lines;
}

/** 1-based line from a `JSON.parse` error message (`… at position 42` / `(line 3 column 5)`), if it says. */
export function lineOfJsonError(text: string, error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const explicit = /line (\d+)/.exec(message);
  if (explicit) return Number(explicit[1]);
  const position = /position (\d+)/.exec(message);
  return position ? lineOfOffset(text, Number(position[1])) : undefined;
}
