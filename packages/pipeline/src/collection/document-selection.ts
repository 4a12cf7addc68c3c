import { analyzeText } from '@doctree/index';
import type { CollectionDocument, CollectionMetadataField, SelectionNodeHit } from '@doctree/schema';
import type { LlmSelectionRecord } from './llm-selection.js';

/**
 * Document selection over a collection: which documents a question is about. Three kinds of evidence, after the
 * strategies PageIndex describes for collections:
 *
 * - metadata: the company, year and form the question names (and explicit filters, which remove documents);
 * - description match: BM25 and dense similarity of the question to each document's profile (description, metadata,
 *   top-level section titles);
 * - node hits: the question's nearest sections over the whole collection (the selection index), scored per document
 *   as DocScore = 1/√(N+1) · Σ node scores over its N hits.
 *
 * Documents are ordered by how much of the metadata the question names they match (company before period before
 * form), then by reciprocal-rank fusion of the three rankings (no weights to tune). The question's periods are those of
 * its one analysis (years in any written form — `FY21`, `fiscal 2021`, `Q2 2023` — and the quarter); a document's
 * periods are its metadata year, quarter and the year its period ends in.
 */

/** Reciprocal-rank fusion constant (the usual 60). */
export const SELECTION_RRF_K = 60;
/** Node hits taken from the selection index per question. */
export const SELECTION_NODE_HITS = 50;

/** Metadata filters: only documents matching every given field are candidates. */
export interface CollectionFilters {
  company?: string;
  year?: number;
  form?: string;
  /** `Q1`…`Q4`: only quarterly documents of that quarter. */
  quarter?: string;
}

/** The periods a question names: the years and quarter of its analysis (`analyzeQuestion`). */
export interface QuestionPeriods {
  years: readonly number[];
  /** `Q1`…`Q4`. */
  quarter?: string | undefined;
}

/** What selection knows of one candidate. */
export interface SelectionCandidate {
  row: CollectionDocument;
  profile: string;
  profileVector: Float32Array;
}

/** Scores of one document in a selection. */
export interface SelectionScore {
  doc_id: string;
  /** Metadata fields of the document the question names. */
  metadata: CollectionMetadataField[];
  /**
   * How well the document's period fits the question's ({@link periodFit}): 3 year and quarter, 2 year, 1 year of
   * another quarter, below 1 a later document of a company the question names (it reports earlier periods as
   * comparatives; nearer is higher), 0 none.
   */
  period: number;
  /** Company ×100 + period ×10 + form ×1: the first sort key. */
  tier: number;
  /** BM25 of the question over the document profile. */
  lexical: number;
  /** Cosine of the question and the profile vectors. */
  dense: number;
  /** DocScore over node hits, and how many hits. */
  nodes: { score: number; hits: number; best?: { node_id: string; score: number } };
  /** Reciprocal-rank fusion of lexical, dense and node rankings: the second sort key. */
  fused: number;
}

/** The selection step of a collection question (shown in traces). */
export interface DocumentSelection {
  mode: 'select' | 'all' | 'doc';
  /** Every candidate, best first. */
  ranked: SelectionScore[];
  /** Documents asked, best first. */
  selected: string[];
  /** Documents removed by filters. */
  filtered_out: number;
  /** The chat model's choice among the first candidates, when a model is configured (`selected` follows it). */
  llm?: LlmSelectionRecord;
}

/** Letters and digits only, lower case: `Northwind Foods`, `NORTHWINDFOODS` and `northwind-foods` compare equal. */
export function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** Whole words of a text, squashed. */
function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean));
}

/** The years that name a document's period: its metadata year and the year its period ends in (`period_end`). */
export function documentYears(row: CollectionDocument): number[] {
  const years = new Set<number>();
  if (row.metadata.year !== undefined) years.add(row.metadata.year);
  if (row.metadata.period_end !== undefined) years.add(Number(row.metadata.period_end.slice(0, 4)));
  return [...years].sort((a, b) => a - b);
}

/**
 * How well a document's period fits the periods a question names: 3 when a year and the quarter match, 2 when a year
 * matches (no quarter on one side), 1 when a year matches with another quarter (or the quarter alone, the question
 * naming no year); for a document whose every year is after the years asked, 1/(1 + gap) halved (a report compares
 * with earlier periods: the nearest later one holds them most likely); else 0.
 */
export function periodFit(periods: QuestionPeriods, row: CollectionDocument): number {
  const docYears = documentYears(row);
  const quarter = row.metadata.quarter;
  if (periods.years.length === 0) return periods.quarter !== undefined && quarter === periods.quarter ? 1 : 0;
  if (docYears.length === 0) return 0;
  if (docYears.some((y) => periods.years.includes(y))) {
    if (periods.quarter === undefined || quarter === undefined) return 2;
    return quarter === periods.quarter ? 3 : 1;
  }
  const gap = Math.min(...docYears) - Math.max(...periods.years);
  return gap > 0 ? 0.5 / (1 + gap) : 0;
}

/**
 * Metadata fields of `row` the question names: company and form from its words, `year` (and `quarter`) when a period
 * of the question is the document's (`periods`, default none: pass the question analysis's years and quarter).
 */
export function namedMetadata(question: string, row: CollectionDocument, periods: QuestionPeriods = { years: [] }): CollectionMetadataField[] {
  const out: CollectionMetadataField[] = [];
  const q = squash(question);
  const qWords = words(question);
  const { company, form } = row.metadata;
  if (company) {
    const c = squash(company);
    // Short names must be a whole word ("7K"); longer ones may be written with or without spaces.
    if (c.length >= 4 ? q.includes(c) : qWords.has(c)) out.push('company');
  }
  const fit = periodFit(periods, row);
  if (fit >= 1 && periods.years.length > 0) out.push('year');
  if (fit === 3 || (fit === 1 && periods.years.length === 0)) out.push('quarter');
  if (form) {
    // A form is matched as a word, with or without its hyphen or a space ("10-K", "10K", "10 K").
    const parts = form.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
    if (parts.length > 0 && new RegExp(`(^|[^a-z0-9])${parts.join('[-\\s]?')}([^a-z0-9]|$)`, 'i').test(question)) out.push('form');
  }
  return out;
}

/** True when the row matches every filter (company and form compared squashed, year exactly). */
export function matchesFilters(row: CollectionDocument, filters: CollectionFilters): boolean {
  if (filters.company !== undefined && squash(row.metadata.company ?? '') !== squash(filters.company)) return false;
  if (filters.year !== undefined && row.metadata.year !== filters.year) return false;
  if (filters.form !== undefined && squash(row.metadata.form ?? '') !== squash(filters.form)) return false;
  if (filters.quarter !== undefined && (row.metadata.quarter ?? '') !== filters.quarter.toUpperCase()) return false;
  return true;
}


/** BM25 (k1 1.2, b 0.75) of the question's terms over each text. */
export function bm25Scores(question: string, texts: readonly string[]): number[] {
  const docs = texts.map((t) => analyzeText(t));
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const term of new Set(d)) df.set(term, (df.get(term) ?? 0) + 1);
  const terms = [...new Set(analyzeText(question))];
  return docs.map((d) => {
    const tf = new Map<string, number>();
    for (const term of d) tf.set(term, (tf.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of terms) {
      const f = tf.get(term);
      if (!f) continue;
      const n = df.get(term) ?? 0;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / Math.max(1, avg)));
    }
    return score;
  });
}

/** DocScore = 1/√(N+1) · Σ scores of a document's N node hits (negative similarities count as 0). */
export function nodeDocScores(hits: readonly SelectionNodeHit[]): Map<string, { score: number; hits: number; best?: { node_id: string; score: number } }> {
  const out = new Map<string, { sum: number; hits: number; best?: { node_id: string; score: number } }>();
  for (const hit of hits) {
    const entry = out.get(hit.doc_id) ?? { sum: 0, hits: 0 };
    entry.sum += Math.max(0, hit.score);
    entry.hits++;
    if (!entry.best || hit.score > entry.best.score) entry.best = { node_id: hit.node_id, score: hit.score };
    out.set(hit.doc_id, entry);
  }
  return new Map([...out].map(([id, e]) => [id, { score: e.sum / Math.sqrt(e.hits + 1), hits: e.hits, ...(e.best ? { best: e.best } : {}) }]));
}

/** Inner product (cosine for the normalised vectors embedders return); 0 for vectors of different sizes. */
function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function ranks(values: ReadonlyMap<string, number>): Map<string, number> {
  const sorted = [...values].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return new Map(sorted.map(([id], i) => [id, i + 1]));
}

/**
 * Scores and orders the candidates of a question (see the module comment).
 *
 * @param question - The question as asked.
 * @param candidates - Documents left after filters, with their profiles.
 * @param queryVector - The question embedded with the collection's embedder.
 * @param nodeHits - Nearest nodes of the selection index.
 * @param periods - The years and quarter the question names (its analysis); default none.
 */
export function rankDocuments(question: string, candidates: readonly SelectionCandidate[], queryVector: Float32Array, nodeHits: readonly SelectionNodeHit[], periods: QuestionPeriods = { years: [] }): SelectionScore[] {
  const lexical = bm25Scores(question, candidates.map((c) => c.profile));
  const nodes = nodeDocScores(nodeHits);
  const lexicalMap = new Map(candidates.map((c, i) => [c.row.doc_id, lexical[i]!]));
  const denseMap = new Map(candidates.map((c) => [c.row.doc_id, dot(queryVector, c.profileVector)]));
  const nodeMap = new Map(candidates.map((c) => [c.row.doc_id, nodes.get(c.row.doc_id)?.score ?? 0]));
  const rankings = [ranks(lexicalMap), ranks(denseMap), ranks(nodeMap)];
  const scores = candidates.map((c): SelectionScore => {
    const id = c.row.doc_id;
    const metadata = namedMetadata(question, c.row, periods);
    // A later report holds the asked period only as its own company's comparatives: that counts for a company named.
    const fit = periodFit(periods, c.row);
    const period = fit < 1 && !metadata.includes('company') ? 0 : fit;
    const fused = rankings.reduce((sum, r) => sum + (r.has(id) ? 1 / (SELECTION_RRF_K + r.get(id)!) : 0), 0);
    return {
      doc_id: id,
      metadata,
      period,
      tier: (metadata.includes('company') ? 100 : 0) + 10 * period + (metadata.includes('form') ? 1 : 0),
      lexical: lexicalMap.get(id)!,
      dense: denseMap.get(id)!,
      nodes: nodes.get(id) ?? { score: 0, hits: 0 },
      fused,
    };
  });
  return scores.sort((a, b) => b.tier - a.tier || b.fused - a.fused || (a.doc_id < b.doc_id ? -1 : 1));
}
