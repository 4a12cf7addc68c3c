import { DocTreeError } from '@doctree/schema';
import type { Prediction, Question } from '@doctree/schema';
import { z } from 'zod';

import { markdownTableLines } from '../report/markdown-report.js';

/**
 * Collection evaluation: every question is asked of a whole collection without naming its document, and scored on
 * whether document selection found the question's own (gold) document, on evidence-page recall counted only when the
 * pages come from that document, and against the same questions asked of their own document alone.
 */

/** Files a collection evaluation adds to a run folder. */
export const COLLECTION_EVAL_FILES = {
  /** One line per asked question: the selection ranking, the asked documents and the answering document. */
  selections: 'selection.jsonl',
  /** The summary and per-question rows ({@link CollectionEvalReportSchema}). */
  report: 'collection.json',
  markdown: 'collection.md',
} as const;

/** `format` of `collection.json`. */
export const COLLECTION_EVAL_FORMAT = 'doctree.eval-collection';

/** One question's selection step as the collection system recorded it (a line of `selection.jsonl`). */
export const SelectionRecordSchema = z.object({
  system: z.string().min(1),
  id: z.string().min(1),
  /** The collection document of the question's own file (matched by content hash). */
  gold_doc: z.string().min(1),
  /** Candidate documents, best first (the first few). */
  ranked: z.array(z.string()),
  /** Documents asked. */
  selected: z.array(z.string()),
  /** Document whose answer was kept; null when the ask failed. */
  answered_doc: z.string().nullable(),
});
/** A line of `selection.jsonl`. */
export type SelectionRecord = z.infer<typeof SelectionRecordSchema>;

/** A filter on a top-level field of the question records: `field=value` (equal) or `field~text` (contains, any case). */
export interface QuestionFilter {
  field: string;
  op: 'equals' | 'contains';
  value: string;
}

const FILTER_FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Parses `field=value` or `field~text`. Throws `USAGE` for anything else.
 *
 * @example
 * ```ts
 * parseQuestionFilter('source_benchmark~bench'); // { field: 'source_benchmark', op: 'contains', value: 'bench' }
 * ```
 */
export function parseQuestionFilter(text: string): QuestionFilter {
  const match = /^([^=~]+)([=~])(.*)$/s.exec(text);
  const field = match?.[1]?.trim() ?? '';
  const value = match?.[3] ?? '';
  if (!match || !FILTER_FIELD.test(field) || value === '') {
    throw new DocTreeError('USAGE', `a question filter is field=value or field~text, not ${JSON.stringify(text)}`, { hint: 'e.g. --filter answerable=true or --filter source_benchmark~Bench (contains, any case).' });
  }
  return { field, op: match[2] === '=' ? 'equals' : 'contains', value };
}

/** The filter as it was written (`field=value`, `field~text`). */
export function formatQuestionFilter(filter: QuestionFilter): string {
  return `${filter.field}${filter.op === 'equals' ? '=' : '~'}${filter.value}`;
}

function fieldText(question: Question, field: string): string | undefined {
  if (!Object.hasOwn(question, field)) return undefined;
  const value: unknown = (question as Record<string, unknown>)[field];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * The questions that pass every filter (a question without the field, or whose field is not a string, number or
 * boolean, does not pass).
 */
export function filterQuestions(questions: readonly Question[], filters: readonly QuestionFilter[]): Question[] {
  return questions.filter((q) =>
    filters.every((f) => {
      const text = fieldText(q, f.field);
      if (text === undefined) return false;
      return f.op === 'equals' ? text === f.value : text.toLowerCase().includes(f.value.toLowerCase());
    }),
  );
}

const ratio = z.number().min(0).max(1);

/** One question of a collection evaluation. */
export const CollectionEvalQuestionSchema = z.object({
  id: z.string(),
  doc_file: z.string(),
  gold_doc: z.string(),
  /** Documents asked (best first). */
  selected: z.array(z.string()),
  /** The first three candidates of the selection. */
  top3: z.array(z.string()),
  /** 1-based rank of the gold document in the selection; null when it was not ranked (filtered out, failure). */
  gold_rank: z.number().int().positive().nullable(),
  /** The gold document was the first choice. */
  gold_first: z.boolean(),
  /** Document whose answer was kept. */
  answered_doc: z.string().nullable(),
  /** Evidence-page recall@k over the collection (pages of another document count as misses); null without gold pages. */
  recall_collection: ratio.nullable(),
  /** The same over the question's own document alone; null without gold pages or without a single-document answer. */
  recall_single: ratio.nullable(),
  accuracy_collection: ratio,
  accuracy_single: ratio.nullable(),
  error: z.string().optional(),
});
/** A row of {@link CollectionEvalReport.questions}. */
export type CollectionEvalQuestion = z.infer<typeof CollectionEvalQuestionSchema>;

/** Mean of a collection-vs-single measure over the questions where both exist. */
const PairedSchema = z.object({
  /** Questions the mean is over. */
  n: z.number().int().nonnegative(),
  collection: ratio,
  /** Null when no single-document answers were given. */
  single: ratio.nullable(),
  /** (collection − single) × 100, in percentage points. */
  diff_pp: z.number().nullable(),
});

/** `collection.json`: a collection evaluation's summary and per-question rows. */
export const CollectionEvalReportSchema = z.object({
  format: z.literal(COLLECTION_EVAL_FORMAT),
  version: z.literal(1),
  dataset: z.string(),
  collection: z.object({ dir: z.string(), documents: z.number().int().nonnegative(), manifest_sha256: z.string() }),
  systems: z.object({ collection: z.string(), single: z.string().nullable(), single_run: z.string().optional() }),
  filters: z.array(z.string()),
  /** k of the evidence-page recall. */
  k: z.number().int().positive(),
  /** Questions left out, with why (their document is not in the collection). */
  skipped: z.array(z.object({ id: z.string(), doc_file: z.string(), reason: z.string() })),
  selection: z.object({ n: z.number().int().nonnegative(), accuracy_at_1: ratio, accuracy_at_3: ratio }),
  recall: PairedSchema,
  accuracy: PairedSchema,
  questions: z.array(CollectionEvalQuestionSchema),
});
/** A collection evaluation report (`collection.json`). */
export type CollectionEvalReport = z.infer<typeof CollectionEvalReportSchema>;

/** Input of {@link summarizeCollectionEval}. */
export interface CollectionEvalInput {
  dataset: string;
  collection: CollectionEvalReport['collection'];
  /** Id of the system that asked the collection. */
  collectionSystem: string;
  /** Id of the system that asked each question of its own document (in `predictions` or `singlePredictions`). */
  singleSystem?: string;
  /** Where the single-document predictions came from when not from this run. */
  singleRun?: string;
  /** Predictions of the run (the collection system's, and the single-document system's when it ran in this run). */
  predictions: readonly Prediction[];
  /** Single-document predictions of another run, matched by question id. Default: from `predictions`. */
  singlePredictions?: readonly Prediction[];
  /** Selection records; for a question recorded twice the last one wins. */
  selections: readonly SelectionRecord[];
  filters?: readonly QuestionFilter[];
  skipped?: CollectionEvalReport['skipped'];
  /** k of the evidence-page recall. Default 5. */
  k?: number;
}

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
const round = (value: number, digits = 4): number => Number(value.toFixed(digits));

function paired(rows: ReadonlyArray<{ collection: number | null; single: number | null }>, withSingle: boolean): z.infer<typeof PairedSchema> {
  const usable = rows.filter((r) => r.collection !== null && (!withSingle || r.single !== null));
  const collection = mean(usable.map((r) => r.collection!));
  const single = withSingle ? mean(usable.map((r) => r.single!)) : null;
  return { n: usable.length, collection: round(collection), single: single === null ? null : round(single), diff_pp: single === null ? null : round((collection - single) * 100, 2) };
}

/**
 * Summarises a collection evaluation: per question, the documents selected and whether the gold document came first
 * (accuracy@1) or among the first three (accuracy@3); evidence-page recall@k of the collection answers (already 0 for
 * pages of another document) next to the single-document answers of the same questions, and answer accuracy likewise,
 * each with the difference in percentage points over the questions both answered.
 *
 * @throws DocTreeError `USAGE` when `k` is not a positive integer.
 */
export function summarizeCollectionEval(input: CollectionEvalInput): CollectionEvalReport {
  const k = input.k ?? 5;
  if (!Number.isInteger(k) || k < 1) throw new DocTreeError('USAGE', `k must be a positive integer, got ${String(k)}`);
  const selections = new Map<string, SelectionRecord>();
  for (const s of input.selections) if (s.system === input.collectionSystem) selections.set(s.id, s);
  const singles = new Map<string, Prediction>();
  if (input.singleSystem !== undefined) for (const p of input.singlePredictions ?? input.predictions) if (p.system === input.singleSystem) singles.set(p.id, p);
  const withSingle = input.singleSystem !== undefined;
  const recallOf = (p: Prediction | undefined): number | null => {
    if (p === undefined || (p.gold?.evidence_pages.length ?? 0) === 0) return null;
    return p.score?.recall_at[String(k)] ?? 0;
  };
  const questions: CollectionEvalQuestion[] = input.predictions
    .filter((p) => p.system === input.collectionSystem)
    .map((p) => {
      const s = selections.get(p.id);
      const single = singles.get(p.id);
      const rank = s ? s.ranked.indexOf(s.gold_doc) : -1;
      return {
        id: p.id,
        doc_file: p.doc_file,
        gold_doc: s?.gold_doc ?? '',
        selected: s?.selected ?? [],
        top3: s?.ranked.slice(0, 3) ?? [],
        gold_rank: rank >= 0 ? rank + 1 : null,
        gold_first: rank === 0,
        answered_doc: s?.answered_doc ?? null,
        recall_collection: recallOf(p),
        recall_single: withSingle ? recallOf(single) : null,
        accuracy_collection: p.score?.accuracy ?? 0,
        accuracy_single: single?.score?.accuracy ?? null,
        ...(p.error !== undefined ? { error: `${p.error.code}: ${p.error.message}` } : {}),
      };
    });
  // A question without a selection record (its ask failed before selecting) counts as a miss.
  const selected = questions;
  const report: CollectionEvalReport = {
    format: COLLECTION_EVAL_FORMAT,
    version: 1,
    dataset: input.dataset,
    collection: input.collection,
    systems: { collection: input.collectionSystem, single: input.singleSystem ?? null, ...(input.singleRun !== undefined ? { single_run: input.singleRun } : {}) },
    filters: (input.filters ?? []).map(formatQuestionFilter),
    k,
    skipped: [...(input.skipped ?? [])],
    selection: {
      n: selected.length,
      accuracy_at_1: round(mean(selected.map((q) => (q.gold_first ? 1 : 0)))),
      accuracy_at_3: round(mean(selected.map((q) => (q.gold_rank !== null && q.gold_rank <= 3 ? 1 : 0)))),
    },
    recall: paired(questions.map((q) => ({ collection: q.recall_collection, single: q.recall_single })), withSingle),
    accuracy: paired(questions.map((q) => ({ collection: q.accuracy_collection, single: q.accuracy_single })), withSingle),
    questions,
  };
  return CollectionEvalReportSchema.parse(report);
}

const pct = (value: number | null): string => (value === null ? '–' : `${(100 * value).toFixed(1)} %`);
const pp = (value: number | null): string => (value === null ? '–' : `${value > 0 ? '+' : ''}${value.toFixed(1)} pp`);

/** `collection.md`: the summary table and one row per question. Cells are escaped (document ids and file names are data). */
export function renderCollectionEvalMarkdown(report: CollectionEvalReport): string {
  const single = report.systems.single === null ? 'not asked' : `${report.systems.single}${report.systems.single_run ? ` (run ${report.systems.single_run})` : ''}`;
  const lines = [
    `# Collection evaluation — ${report.dataset}`,
    '',
    `Every question asked of the whole collection (${report.collection.documents} documents, \`${report.collection.dir}\`, manifest sha256 \`${report.collection.manifest_sha256.slice(0, 12)}\`) without naming its document; single-document: ${single}.`,
    ...(report.filters.length > 0 ? ['', `Questions filtered by ${report.filters.map((f) => `\`${f}\``).join(', ')}.`] : []),
    ...(report.skipped.length > 0 ? ['', `${report.skipped.length} question(s) left out: their document is not in the collection.`] : []),
    '',
    ...markdownTableLines({
      id: 'collection-summary',
      title: 'Summary',
      headers: ['measure', 'questions', 'collection', 'single document', 'difference'],
      rows: [
        ['document selection accuracy@1', String(report.selection.n), pct(report.selection.accuracy_at_1), '', ''],
        ['document selection accuracy@3', String(report.selection.n), pct(report.selection.accuracy_at_3), '', ''],
        [`evidence-page recall@${report.k} (gold document's pages only)`, String(report.recall.n), pct(report.recall.collection), pct(report.recall.single), pp(report.recall.diff_pp)],
        ['answer accuracy', String(report.accuracy.n), pct(report.accuracy.collection), pct(report.accuracy.single), pp(report.accuracy.diff_pp)],
      ],
    }),
    ...markdownTableLines({
      id: 'collection-questions',
      title: 'Questions',
      headers: ['id', 'gold document', 'selected', 'gold rank', `recall@${report.k} collection`, 'single', 'accuracy collection', 'single'],
      rows: report.questions.map((q) => [
        q.id,
        q.gold_doc,
        q.selected.join(', ') || (q.error ? `error: ${q.error.slice(0, 80)}` : '–'),
        q.gold_rank === null ? '–' : `${q.gold_rank}${q.gold_first ? ' ✓' : ''}`,
        pct(q.recall_collection),
        pct(q.recall_single),
        pct(q.accuracy_collection),
        pct(q.accuracy_single),
      ]),
    }),
  ];
  return lines.join('\n');
}
