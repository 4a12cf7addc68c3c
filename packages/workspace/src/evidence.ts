import { z } from 'zod';
import { cellYear, DocTreeError } from '@doctree/schema';
import type { ParentRecord } from './chunk-records.js';
import { anchorsOf, isVerbatimQuote, selectQuote, UNMAPPED_GLYPH } from './quotes.js';
import type { ChildHit } from './retrieval.js';
import { sourceYear, type SourceRecord } from './sources.js';

/** Filters of `workspace query --filter`. */
export const QueryFiltersSchema = z.object({
  /** Publication years, inclusive. */
  year: z.object({ from: z.number().int(), to: z.number().int() }).optional(),
  source_type: z.array(z.string()).optional(),
  source_subtype: z.array(z.string()).optional(),
  doc_uid: z.array(z.string()).optional(),
});
/** Query filters. */
export type QueryFilters = z.infer<typeof QueryFiltersSchema>;

/** Keys `--filter` accepts. */
export const FILTER_KEYS = ['year', 'source_type', 'source_subtype', 'doc_uid'] as const;

/**
 * Parses `year=2020,source_type=evidence` (also `year=2019-2021`, `doc_uid=a|b`): several values of one key are
 * separated by `|`.
 *
 * @throws DocTreeError `USAGE` for an unknown key or a bad year.
 */
export function parseFilters(spec: string | undefined): QueryFilters {
  const filters: QueryFilters = {};
  if (spec === undefined || spec.trim() === '') return filters;
  for (const part of spec.split(',')) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (!(FILTER_KEYS as readonly string[]).includes(key)) throw new DocTreeError('USAGE', `unknown filter "${key}" (expected ${FILTER_KEYS.join(', ')})`);
    if (value === '') throw new DocTreeError('USAGE', `filter ${key} needs a value (${key}=…)`);
    if (key === 'year') {
      const [first = '', second, ...rest] = value.split('-');
      const from = cellYear(first);
      const to = second === undefined ? from : cellYear(second);
      if (from === undefined || to === undefined || rest.length > 0) throw new DocTreeError('USAGE', `year filter must be YYYY or YYYY-YYYY, not "${value}"`);
      if (to < from) throw new DocTreeError('USAGE', `year range ${value} ends before it starts`);
      filters.year = { from, to };
    } else {
      filters[key as 'source_type' | 'source_subtype' | 'doc_uid'] = value.split('|').map((v) => v.trim()).filter(Boolean);
    }
  }
  return filters;
}

/** `year=2020, source_type=evidence` (or `none`). */
export function describeFilters(filters: QueryFilters, forced = true): string {
  const parts: string[] = forced ? ['citable=true (always, evidence mode)'] : [];
  if (filters.year) parts.push(`year=${filters.year.from === filters.year.to ? filters.year.from : `${filters.year.from}-${filters.year.to}`}`);
  for (const key of ['source_type', 'source_subtype', 'doc_uid'] as const) if (filters[key]) parts.push(`${key}=${filters[key]!.join('|')}`);
  return parts.join(', ') || 'none';
}

/** True when a source passes the filters (and is citable, present evidence). */
export function sourceAccepted(source: SourceRecord | undefined, filters: QueryFilters): boolean {
  if (!source || !source.present || !source.citable || source.source_type !== 'evidence') return false;
  if (filters.year) {
    const year = sourceYear(source);
    if (year === null || year < filters.year.from || year > filters.year.to) return false;
  }
  if (filters.source_type && !filters.source_type.includes(source.source_type)) return false;
  if (filters.source_subtype && !filters.source_subtype.includes(source.source_subtype)) return false;
  if (filters.doc_uid && !filters.doc_uid.includes(source.doc_uid)) return false;
  return true;
}

/** One evidence entry of a pack. */
export const EvidenceSchema = z.object({
  doc_uid: z.string().min(1),
  citation_key: z.string(),
  source_type: z.string(),
  citable: z.boolean(),
  parent_id: z.string().min(1),
  chunk_id: z.string(),
  retrieval_score: z.number(),
  /** 1-based page; null for a source without pages (then the char anchor locates it). */
  page: z.number().int().positive().nullable(),
  page_index: z.number().int().nonnegative().nullable(),
  page_start: z.number().int().positive().nullable(),
  page_end: z.number().int().positive().nullable(),
  /** `[char_start, char_end)` of the exact quote in the parent's text (the page's text). */
  char_start: z.number().int().nonnegative(),
  char_end: z.number().int().nonnegative(),
  anchor_begin: z.string(),
  anchor_end: z.string(),
  section_path: z.array(z.string()),
  locator_quality: z.enum(['page', 'char_anchor']),
  snippet: z.string(),
  exact_quote: z.string(),
});
/** One evidence entry. */
export type Evidence = z.infer<typeof EvidenceSchema>;

/** A row of the returned-sources summary. */
export interface ReturnedSource {
  doc_uid: string;
  citation_key: string;
  citable: boolean;
  hits: number;
  best_score: number;
}

/** Returned-sources summary of hits (by best score). */
export function returnedSources(hits: ReadonlyArray<{ doc_uid: string; score: number }>, sources: ReadonlyMap<string, SourceRecord>): ReturnedSource[] {
  const rows = new Map<string, ReturnedSource>();
  for (const hit of hits) {
    const row = rows.get(hit.doc_uid);
    const source = sources.get(hit.doc_uid);
    if (row) {
      row.hits++;
      row.best_score = Math.max(row.best_score, hit.score);
    } else rows.set(hit.doc_uid, { doc_uid: hit.doc_uid, citation_key: source?.citation_key ?? '(unknown)', citable: source?.citable ?? false, hits: 1, best_score: hit.score });
  }
  return [...rows.values()].sort((a, b) => b.best_score - a.best_score);
}

/** Text block of the returned sources, for error messages. */
export function describeReturnedSources(rows: readonly ReturnedSource[]): string {
  return rows.map((r) => `${r.doc_uid} (citable=${r.citable}, hits=${r.hits}, best=${r.best_score.toFixed(3)})`).join('; ') || '(none)';
}

/**
 * Turns child hits into evidence: hits are grouped by parent (the best child of each parent stands for it), each
 * parent gives one entry with an exact quote from that child, verified to occur verbatim in the parent's text.
 *
 * @throws DocTreeError `SCHEMA_INVALID` (hard failure) when a hit has no doc_uid or parent_id, or names a parent
 * that does not exist; `SCHEMA_INVALID` when a hit comes from a non-citable source (with the filters and the
 * returned sources in the message).
 */
export function evidenceFromHits(
  hits: readonly ChildHit[],
  context: { question: string; queries: readonly string[]; parents: Pick<ReadonlyMap<string, ParentRecord>, 'get'>; sources: ReadonlyMap<string, SourceRecord>; filters: QueryFilters },
): { evidence: Evidence[]; warnings: string[] } {
  const warnings: string[] = [];
  const summary = returnedSources(
    hits.map((h) => ({ doc_uid: h.chunk.doc_uid, score: h.score })),
    context.sources,
  );
  for (const hit of hits) {
    if (!hit.chunk.doc_uid || !hit.chunk.parent_id) {
      throw new DocTreeError('SCHEMA_INVALID', `evidence ${hit.chunk.chunk_id || '(no id)'} has no ${!hit.chunk.doc_uid ? 'doc_uid' : 'parent_id'}: it cannot be cited`, {
        hint: 'Rebuild the chunks (`doctree workspace chunk`) and the index (`doctree workspace embed`).',
      });
    }
    const source = context.sources.get(hit.chunk.doc_uid);
    if (!source || !source.citable || source.source_type !== 'evidence') {
      throw new DocTreeError('SCHEMA_INVALID', `evidence from a non-citable source (${hit.chunk.doc_uid}) reached the evidence pack; nothing was written`, {
        hint: `Applied filters: ${describeFilters(context.filters)}. Returned sources: ${describeReturnedSources(summary)}.`,
        details: { filters: context.filters, returned_sources: summary },
      });
    }
  }
  const bestByParent = new Map<string, ChildHit>();
  for (const hit of hits) {
    const seen = bestByParent.get(hit.chunk.parent_id);
    if (!seen || hit.score > seen.score) bestByParent.set(hit.chunk.parent_id, hit);
  }
  const evidence: Evidence[] = [];
  for (const hit of [...bestByParent.values()].sort((a, b) => b.score - a.score)) {
    const parent = context.parents.get(hit.chunk.parent_id);
    if (!parent) {
      throw new DocTreeError('SCHEMA_INVALID', `evidence ${hit.chunk.chunk_id} names parent ${hit.chunk.parent_id}, which is not in chunks/parents.jsonl`, {
        hint: 'The chunks and the index are out of step: run `doctree workspace chunk` and `doctree workspace embed`.',
      });
    }
    const source = context.sources.get(hit.chunk.doc_uid)!;
    // Composed spans of the parent, relative to the child.
    const avoid = parent.unquotable.map(([a, b]) => [a - hit.chunk.char_start, b - hit.chunk.char_start] as const).filter(([a, b]) => b > 0 && a < hit.chunk.text.length);
    const quote = selectQuote(hit.chunk.text, context.queries.join(' '), undefined, avoid);
    if (!quote) {
      warnings.push(`${hit.chunk.chunk_id}: no sentence of it can be quoted as written on the page (only a composed table header); left out`);
      continue;
    }
    const start = hit.chunk.char_start + quote.start;
    const end = hit.chunk.char_start + quote.end;
    if (parent.parent_text.slice(start, end) !== quote.text || !isVerbatimQuote(quote.text, parent.parent_text)) {
      warnings.push(`${hit.chunk.chunk_id}: the quote does not match its source text and was left out`);
      continue;
    }
    if (UNMAPPED_GLYPH.test(quote.text)) warnings.push(`WARN ${parent.parent_id}: the quote holds characters the PDF's text layer could not map (control or private-use characters); check it against the page`);
    const locator = parent.page_index !== null ? 'page' : 'char_anchor';
    if (locator === 'char_anchor') warnings.push(`WARN ${parent.parent_id}: no page number (source without pages); located by char anchor and section path`);
    evidence.push({
      doc_uid: source.doc_uid,
      citation_key: source.citation_key,
      source_type: source.source_type,
      citable: source.citable,
      parent_id: parent.parent_id,
      chunk_id: hit.chunk.chunk_id,
      retrieval_score: Number(hit.score.toFixed(4)),
      page: parent.page_start,
      page_index: parent.page_index,
      page_start: parent.page_start,
      page_end: parent.page_end,
      char_start: start,
      char_end: end,
      ...anchorsOf(quote.text),
      section_path: parent.section_path,
      locator_quality: locator,
      snippet: hit.chunk.text.length > 400 ? `${hit.chunk.text.slice(0, 400)}…` : hit.chunk.text,
      exact_quote: quote.text,
    });
  }
  return { evidence, warnings };
}
