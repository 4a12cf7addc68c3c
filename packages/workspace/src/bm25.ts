import { z } from 'zod';
import { analyzeText, SPARSE_ANALYZER_VERSION } from '@doctree/index';
import type { ChildRecord } from './chunk-records.js';

/** `index/bm25.json`: term frequencies of every child, analysed with DocTree's sparse analyzer. */
export const Bm25FileSchema = z.object({
  format: z.literal('doctree.workspace-bm25'),
  version: z.literal(1),
  build_id: z.string(),
  analyzer: z.string(),
  k1: z.number(),
  b: z.number(),
  docs: z.array(z.object({ chunk_id: z.string(), hash: z.string(), length: z.number().int().nonnegative(), terms: z.array(z.tuple([z.string(), z.number().int().positive()])) })),
});
/** `index/bm25.json`. */
export type Bm25File = z.infer<typeof Bm25FileSchema>;

/** Term frequencies of a text (DocTree's sparse analyzer: stemmed English, CJK bigrams, numbers). */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of analyzeText(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** Builds the BM25 file for `children`, reusing the entries of `previous` whose child hash is unchanged. */
export function buildBm25(children: readonly ChildRecord[], buildId: string, previous?: Bm25File): { file: Bm25File; reused: number } {
  const old = new Map<string, Bm25File['docs'][number]>();
  if (previous && previous.analyzer === String(SPARSE_ANALYZER_VERSION)) for (const doc of previous.docs) old.set(doc.hash, doc);
  let reused = 0;
  const docs = children.map((child) => {
    const hit = old.get(child.hash);
    if (hit) {
      reused++;
      return { ...hit, chunk_id: child.chunk_id };
    }
    const counts = termCounts(child.text);
    let length = 0;
    for (const n of counts.values()) length += n;
    return { chunk_id: child.chunk_id, hash: child.hash, length, terms: [...counts] as Array<[string, number]> };
  });
  return { file: { format: 'doctree.workspace-bm25', version: 1, build_id: buildId, analyzer: String(SPARSE_ANALYZER_VERSION), k1: 1.2, b: 0.75, docs }, reused };
}

/** A loaded BM25 index. */
export class Bm25Index {
  readonly #docs: Map<string, { length: number; terms: Map<string, number> }>;
  readonly #df = new Map<string, number>();
  readonly #avg: number;
  readonly #k1: number;
  readonly #b: number;
  /** Build that wrote the file. */
  readonly buildId: string;

  constructor(file: Bm25File) {
    this.buildId = file.build_id;
    this.#k1 = file.k1;
    this.#b = file.b;
    this.#docs = new Map(file.docs.map((d) => [d.chunk_id, { length: d.length, terms: new Map(d.terms) }] as const));
    let total = 0;
    for (const doc of this.#docs.values()) {
      total += doc.length;
      for (const term of doc.terms.keys()) this.#df.set(term, (this.#df.get(term) ?? 0) + 1);
    }
    this.#avg = this.#docs.size === 0 ? 1 : Math.max(1, total / this.#docs.size);
  }

  /** BM25 score of one child for the query terms (0 for an unknown child). */
  score(chunkId: string, queryTerms: readonly string[]): number {
    const doc = this.#docs.get(chunkId);
    if (!doc) return 0;
    const n = this.#docs.size;
    let score = 0;
    for (const term of new Set(queryTerms)) {
      const tf = doc.terms.get(term);
      if (!tf) continue;
      const df = this.#df.get(term) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (this.#k1 + 1)) / (tf + this.#k1 * (1 - this.#b + (this.#b * doc.length) / this.#avg));
    }
    return score;
  }
}
