import { SPARSE_FIELDS, SparseDocSchema } from '@doctree/schema';
import type { IndexFilters, SparseDoc, SparseField } from '@doctree/schema';
import { z } from 'zod';

/** Value of `format` in every persisted sparse index. */
export const SPARSE_INDEX_FORMAT = 'doctree.sparse';

/** Version of the persisted sparse index written by this package. */
export const SPARSE_INDEX_FORMAT_VERSION = 1;

/** MiniSearch serialisation version this package writes and reads (`serializationVersion` of `MiniSearch#toJSON`). */
export const MINISEARCH_SERIALIZATION_VERSION = 2;

/** What the index keeps per document for `filter` predicates: always role and filters, the text fields when stored. */
export type SparseStoredDoc = Pick<SparseDoc, 'role'> & { filters?: IndexFilters } & Partial<Record<SparseField, string>>;

/**
 * MiniSearch's JSON form of an index (`MiniSearch#toJSON`, serialisation version 2): short document ids (`"0"`,
 * `"1"` …) map to doc ids; `index` lists every term with its postings, field id → short doc id → term frequency.
 */
export interface SparseMiniSearchJson {
  documentCount: number;
  nextId: number;
  documentIds: Record<string, string>;
  fieldIds: Record<string, number>;
  fieldLength: Record<string, (number | null)[]>;
  averageFieldLength: (number | null)[];
  storedFields: Record<string, SparseStoredDoc>;
  dirtCount?: number;
  index: [string, Record<string, Record<string, number>>][];
  serializationVersion: number;
}

const ROLES = new Set<string>(SparseDocSchema.shape.role.options);
const SHORT_ID = /^(0|[1-9][0-9]*)$/;

interface Problem {
  path: (string | number)[];
  message: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isLength(value: unknown): boolean {
  return value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0);
}

/**
 * Structural check of the MiniSearch part, written as plain loops: zod would copy and check the hundreds of
 * thousands of postings of a large index one by one, which takes seconds; this takes a few milliseconds.
 * It checks every document (id, stored role and filters, field lengths) and every term entry down to its
 * per-field posting objects, but not each term frequency inside them: enumerating 100k+ postings alone would
 * double the load time. A bad frequency surfaces at search time instead (a non-finite score is `INDEX_CORRUPT`).
 * Returns the first problem found, or undefined.
 */
function miniSearchJsonProblem(value: unknown): Problem | undefined {
  if (!isPlainObject(value)) return { path: [], message: 'expected the MiniSearch index object' };
  const v = value;
  if (v['serializationVersion'] !== MINISEARCH_SERIALIZATION_VERSION) {
    return { path: ['serializationVersion'], message: `expected MiniSearch serialisation version ${MINISEARCH_SERIALIZATION_VERSION}, got ${JSON.stringify(v['serializationVersion'])}` };
  }
  for (const key of ['documentCount', 'nextId'] as const) {
    if (!isCount(v[key])) return { path: [key], message: 'expected an integer >= 0' };
  }
  if (v['dirtCount'] !== undefined && !isCount(v['dirtCount'])) return { path: ['dirtCount'], message: 'expected an integer >= 0' };

  const fieldIds = v['fieldIds'];
  if (!isPlainObject(fieldIds)) return { path: ['fieldIds'], message: 'expected an object' };
  const names = Object.keys(fieldIds).sort();
  if (names.join(',') !== [...SPARSE_FIELDS].sort().join(',') || !Object.values(fieldIds).every(isCount)) {
    return { path: ['fieldIds'], message: `expected the field ids of exactly ${SPARSE_FIELDS.join(', ')}` };
  }
  const fieldCount = Math.max(...(Object.values(fieldIds) as number[])) + 1;

  const averages = v['averageFieldLength'];
  if (!Array.isArray(averages) || averages.length > fieldCount || !averages.every(isLength)) {
    return { path: ['averageFieldLength'], message: 'expected one length >= 0 (or null) per field' };
  }

  const documentIds = v['documentIds'];
  if (!isPlainObject(documentIds)) return { path: ['documentIds'], message: 'expected an object' };
  const storedFields = v['storedFields'];
  if (!isPlainObject(storedFields)) return { path: ['storedFields'], message: 'expected an object' };
  const fieldLength = v['fieldLength'];
  if (!isPlainObject(fieldLength)) return { path: ['fieldLength'], message: 'expected an object' };
  const seen = new Set<string>();
  for (const [shortId, id] of Object.entries(documentIds)) {
    if (!SHORT_ID.test(shortId)) return { path: ['documentIds', shortId], message: 'expected a numeric short id' };
    if (typeof id !== 'string' || id.length === 0) return { path: ['documentIds', shortId], message: 'expected a non-empty doc id' };
    if (seen.has(id)) return { path: ['documentIds', shortId], message: `duplicate doc id ${JSON.stringify(id)}` };
    seen.add(id);
    const stored = storedFields[shortId];
    if (!isPlainObject(stored) || typeof stored['role'] !== 'string' || !ROLES.has(stored['role'])) {
      return { path: ['storedFields', shortId], message: `expected the stored role of ${JSON.stringify(id)}` };
    }
    if (stored['filters'] !== undefined && !isPlainObject(stored['filters'])) {
      return { path: ['storedFields', shortId, 'filters'], message: 'expected an object' };
    }
    for (const field of SPARSE_FIELDS) {
      if (stored[field] !== undefined && typeof stored[field] !== 'string') return { path: ['storedFields', shortId, field], message: 'expected a string' };
    }
    const lengths = fieldLength[shortId];
    if (lengths !== undefined && (!Array.isArray(lengths) || lengths.length > fieldCount || !lengths.every(isLength))) {
      return { path: ['fieldLength', shortId], message: 'expected one length >= 0 (or null) per field' };
    }
  }
  if (seen.size !== v['documentCount']) {
    return { path: ['documentIds'], message: `${seen.size} document ids for documentCount ${String(v['documentCount'])}` };
  }

  const index = v['index'];
  if (!Array.isArray(index)) return { path: ['index'], message: 'expected an array of [term, postings]' };
  const fieldIdSet = new Set(Object.values(fieldIds).map(String));
  for (let i = 0; i < index.length; i++) {
    const entry: unknown = index[i];
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || !isPlainObject(entry[1])) {
      return { path: ['index', i], message: 'expected [term, postings]' };
    }
    const byField = entry[1];
    for (const fieldId in byField) {
      const postings = byField[fieldId];
      if (!fieldIdSet.has(fieldId) || !isPlainObject(postings)) return { path: ['index', i, 1, fieldId], message: 'expected the postings of a known field' };
    }
  }
  return undefined;
}

const boostSchema = z.number().finite().nonnegative();

/** zod schema of a persisted sparse index (`doctree.sparse` version 1). */
export const sparseIndexFileSchema = z.object({
  format: z.literal(SPARSE_INDEX_FORMAT),
  version: z.literal(SPARSE_INDEX_FORMAT_VERSION),
  /** `SPARSE_ANALYZER_VERSION` of the analyser that produced the indexed terms. */
  analyzer_version: z.number().int().positive(),
  /** Default per-field boosts of the index: every sparse field, a finite number >= 0. */
  boosts: z.object(Object.fromEntries(SPARSE_FIELDS.map((field) => [field, boostSchema])) as Record<SparseField, typeof boostSchema>).strict(),
  params: z
    .object({
      /** MiniSearch BM25+ parameters. */
      bm25: z.object({ k: z.number().finite().positive(), b: z.number().finite().min(0).max(1), d: z.number().finite().nonnegative() }).strict(),
      /** Default combination of query terms. */
      combine_with: z.enum(['or', 'and']),
      /** Whether scores are multiplied by the fraction of query terms matched. */
      coordination: z.boolean(),
      /** Whether the text fields are stored with each document (seen by `filter`). */
      store_text: z.boolean(),
    })
    .strict(),
  /** The MiniSearch index itself, checked structurally (see {@link SparseMiniSearchJson}). */
  index: z.custom<SparseMiniSearchJson>().superRefine((value, ctx) => {
    const problem = miniSearchJsonProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }),
});

/** A persisted sparse index: `{ format: 'doctree.sparse', version: 1, analyzer_version, boosts, params, index }`. */
export type SparseIndexFile = z.infer<typeof sparseIndexFileSchema>;
