import { DocTreeError } from '@doctree/schema';
import type { ContentBlock, IngestWarning } from '@doctree/schema';
import { parseCaptionLabel } from '../builder/labels.js';

/**
 * Small pieces shared by the MinerU and Markdown adapters: block ids, counted warnings, caption labels and
 * title numbering.
 */

/** Generator name written into content lists made by the MinerU and Markdown adapters. */
export const ADAPTER_GENERATOR = '@doctree/ingest@0.1.0';

/** `Omit` over each member of a union (plain `Omit` keeps only the keys every member shares). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The type-specific fields of a block: what an adapter decides before ids, order and geometry are added. */
export type AdaptedBlockFields = DistributiveOmit<ContentBlock, 'block_id' | 'read_order' | 'page_idx' | 'bbox' | 'page_size' | 'origin'>;

/** Block id of the n-th kept block: `b_000000`, `b_000001`, … */
export function blockId(n: number): string {
  return `b_${String(n).padStart(6, '0')}`;
}

/** Rounds a coordinate to 1/100 pt, so boxes read `61.2`, not `61.199999999999996`. */
export function roundPt(value: number): number {
  return Math.round(value * 100) / 100;
}

/** How many block indices a counted warning lists before `…`. */
const SAMPLE_INDICES = 5;

/**
 * Collects warnings that repeat per block (skipped blocks, repaired boxes) and reports each kind once
 * with a count and the first few block indices, so a large file does not produce thousands of warnings.
 */
export class WarningTally {
  private readonly counts = new Map<string, { code: string; what: string; indices: number[]; count: number }>();

  /** Counts one occurrence of `what` (e.g. `discarded block(s) skipped`) under `code` for block `index`. */
  add(code: string, what: string, index: number): void {
    const key = `${code}\u0000${what}`;
    const entry = this.counts.get(key) ?? { code, what, indices: [], count: 0 };
    entry.count++;
    if (entry.indices.length < SAMPLE_INDICES) entry.indices.push(index);
    this.counts.set(key, entry);
  }

  /** One warning per kind, in first-seen order: `3 discarded block(s) skipped (blocks 4, 9, 12).` */
  warnings(): IngestWarning[] {
    return [...this.counts.values()].map((e) => {
      const more = e.count > e.indices.length ? ', …' : '';
      return { code: e.code, message: `${e.count} ${e.what} (block${e.count === 1 ? '' : 's'} ${e.indices.join(', ')}${more}).` };
    });
  }
}

/**
 * The `Figure 3` / `Table 2` label of the first caption that starts with one (equation labels are not
 * taken from figure or table captions).
 */
export function captionLabel(captions: readonly string[]): string | undefined {
  for (const caption of captions) {
    const parsed = parseCaptionLabel(caption);
    if (parsed && parsed.kind !== 'equation') return parsed.label;
  }
  return undefined;
}

const NUMBERING_RES: readonly RegExp[] = [
  /^((?:part|chapter|section|appendix|item|article|annex)\s+(?:[0-9]+[A-Z]?|[IVXLC]+|[A-Z])(?:\.[0-9]+)*)\b\.?/i,
  /^([0-9]+(?:\.[0-9]+)*)(?:\.|\s|$)/,
  /^([A-Z](?:\.[0-9]+)+)(?:\.|\s|$)/,
  /^([IVXLC]+)\.\s/,
];

/** Numbering at the start of a heading: `2.3`, `Item 7A`, `PART II`, `A.1`, `IV`; undefined when none. */
export function titleNumbering(text: string): string | undefined {
  const trimmed = text.trim();
  for (const re of NUMBERING_RES) {
    const m = re.exec(trimmed);
    if (m?.[1] && m[1].length < trimmed.length) return m[1];
  }
  return undefined;
}

/** Checks the identity options every adapter needs and returns the lowercase sha256. */
export function checkSourceOptions(adapter: string, options: { docId: string; filename: string; sha256: string; bytes: number }): string {
  const { docId, filename, sha256, bytes } = options;
  if (!filename) throw new DocTreeError('USAGE', `${adapter} needs a filename`);
  if (!docId) throw new DocTreeError('USAGE', `${adapter} needs a docId`, { file: filename });
  const digest = sha256.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(digest)) {
    throw new DocTreeError('USAGE', `${adapter} needs the hex sha256 of ${filename}, got "${sha256}"`, { file: filename });
  }
  if (!Number.isInteger(bytes) || bytes < 0) {
    throw new DocTreeError('USAGE', `${adapter} needs the byte size of ${filename} as a non-negative integer, got ${bytes}`, { file: filename });
  }
  return digest;
}
