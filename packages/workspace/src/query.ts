import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { loadSources, logChange, workspaceRetriever, type WorkspaceContext } from './context.js';
import { evidenceFromHits, returnedSources, sourceAccepted, type QueryFilters } from './evidence.js';
import { readJsonIfPresent, versionLabel, writeJsonAtomic, writeNewVersion } from './io.js';
import { questionForms } from './llm.js';
import { compactTimestamp, WORKSPACE_TOOL_VERSION } from './project.js';
import { QueryRunSchema, renderEvidencePack, renderPapersPack, type QueryRun } from './query-run.js';
import type { ChildHit } from './retrieval.js';

/** Options of {@link runQuery}. */
export interface QueryOptions {
  /** `evidence` (default): an evidence pack; `papers`: the same hits grouped by document. */
  mode?: 'evidence' | 'papers';
  filters?: QueryFilters;
  /** Children kept (default `rerank.top_n` of the configuration). */
  topK?: number;
}

/** What `workspace query` returns (`--json` prints `query_id`, `build_id` and the evidence fields). */
export interface QueryResult {
  run: QueryRun;
  /** The Markdown written. */
  output: string;
  /** Query-run file. */
  run_file: string;
  /** True when the hits came from an earlier run (papers mode). */
  reused: boolean;
}

function sameFilters(a: QueryFilters, b: QueryFilters): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The newest evidence run of the same question, filters and build (what papers mode groups). */
async function previousRun(ctx: WorkspaceContext, question: string, filters: QueryFilters, buildId: string): Promise<QueryRun | undefined> {
  let names: string[];
  try {
    names = (await readdir(ctx.paths.queryRuns)).filter((n) => n.endsWith('.json')).sort().reverse();
  } catch {
    return undefined;
  }
  for (const name of names) {
    const run = await readJsonIfPresent(join(ctx.paths.queryRuns, name), QueryRunSchema, 'query run').catch(() => undefined);
    if (run && run.mode === 'evidence' && run.question === question && run.build_id === buildId && sameFilters(run.filters, filters)) return run;
  }
  return undefined;
}

/**
 * `workspace query`: searches the citable sources (hybrid retrieval, rerank), groups child hits by parent, takes an
 * exact quote from each and writes `outputs/evidence_pack_vNNN.md` (or `papers_pack_vNNN.md`) and
 * `meta/query_runs/<query_id>.json`. Papers mode reuses the hits of the newest evidence run of the same question,
 * filters and build instead of retrieving again.
 *
 * @throws DocTreeError `SCHEMA_INVALID` when a hit lacks doc_uid/parent_id or comes from a non-citable source (nothing
 * is written then), `INDEX_MISSING` before `embed`.
 */
export async function runQuery(ctx: WorkspaceContext, question: string, options: QueryOptions = {}): Promise<QueryResult> {
  const q = question.trim();
  if (q === '') throw new DocTreeError('USAGE', 'the question is empty');
  const mode = options.mode ?? 'evidence';
  const filters = options.filters ?? {};
  const topK = options.topK ?? ctx.config.rerank.top_n;
  const [sourcesList, retriever] = await Promise.all([loadSources(ctx), workspaceRetriever(ctx)]);
  const sources = new Map(sourcesList.map((s) => [s.doc_uid, s] as const));
  const warnings: string[] = [];
  const warn = (w: string): void => {
    warnings.push(w);
    ctx.warn(w);
  };
  const now = ctx.now();
  const queryId = `q-${compactTimestamp(now)}-${randomBytes(3).toString('hex')}`;
  let reusedFrom: QueryRun | undefined;
  if (mode === 'papers') reusedFrom = await previousRun(ctx, q, filters, retriever.buildId);
  let forms: Pick<QueryRun, 'q_zh' | 'q_en' | 'rewrite' | 'queries'>;
  let hits: ChildHit[];
  if (reusedFrom) {
    forms = { q_zh: reusedFrom.q_zh, q_en: reusedFrom.q_en, rewrite: reusedFrom.rewrite, queries: reusedFrom.queries };
    hits = reusedFrom.hits.flatMap((h) => {
      const chunk = retriever.child(h.chunk_id);
      return chunk ? [{ chunk, score: h.score, dense: h.dense, lexical: h.lexical, coverage: 0 }] : [];
    });
  } else {
    forms = await questionForms(q, ctx.chat, warn);
    const accept = (chunk: { doc_uid: string }): boolean => sourceAccepted(sources.get(chunk.doc_uid), filters);
    const best = new Map<string, ChildHit>();
    for (const query of forms.queries) {
      for (const hit of await retriever.search(query, { k: topK, accept })) {
        const seen = best.get(hit.chunk.chunk_id);
        if (!seen || hit.score > seen.score) best.set(hit.chunk.chunk_id, hit);
      }
    }
    // A child that shares no term with the question and points away from it is no evidence.
    hits = [...best.values()].filter((h) => h.score > 0).sort((a, b) => b.score - a.score).slice(0, topK);
  }
  const { evidence, warnings: evidenceWarnings } = evidenceFromHits(hits, { question: q, queries: forms.queries, parents: { get: (id) => retriever.parent(id) }, sources, filters });
  for (const w of evidenceWarnings) warn(w);
  const stem = mode === 'papers' ? 'papers_pack' : 'evidence_pack';
  const runFile = join(ctx.paths.queryRuns, `${queryId}.json`);
  let run!: QueryRun;
  const base: Omit<QueryRun, 'output'> = {
    format: 'doctree.workspace-query-run',
    version: 1,
    query_id: queryId,
    build_id: retriever.buildId,
    created_at: now.toISOString(),
    tool_version: WORKSPACE_TOOL_VERSION,
    config_hash: ctx.configHash,
    mode,
    question: q,
    ...forms,
    filters,
    top_k: topK,
    fusion: { method: 'rrf', k: 60, candidate_k: ctx.config.rerank.candidate_k, lanes: retriever.models['bm25'] ? ['dense', 'bm25'] : ['dense'] },
    rerank: { enabled: ctx.config.rerank.enabled, model: retriever.models['reranker'] ?? null, top_n: topK },
    models: { ...retriever.models, chat: ctx.chat?.model ?? null },
    hits: hits.map((h) => ({ chunk_id: h.chunk.chunk_id, parent_id: h.chunk.parent_id, doc_uid: h.chunk.doc_uid, score: h.score, dense: h.dense, lexical: h.lexical })),
    returned_sources: returnedSources(
      hits.map((h) => ({ doc_uid: h.chunk.doc_uid, score: h.score })),
      sources,
    ),
    evidence,
    warnings,
    reused_from: reusedFrom?.query_id ?? null,
  };
  const written = await writeNewVersion(ctx.paths.outputs, stem, '.md', (version) => {
    run = { ...base, output: relative(ctx.paths.root, join(ctx.paths.outputs, `${stem}_${versionLabel(version)}.md`)) };
    return mode === 'papers' ? renderPapersPack(run) : renderEvidencePack(run);
  });
  await writeJsonAtomic(runFile, run);
  await logChange(ctx, 'query', written.path, written.previous ? versionLabel(written.previous) : null, versionLabel(written.version), `${mode} pack for query ${queryId}`);
  return { run, output: written.path, run_file: runFile, reused: reusedFrom !== undefined };
}

/** The `--json` shape of `workspace query`. */
export function queryJson(result: QueryResult): {
  query_id: string;
  build_id: string;
  evidence: Array<{ doc_uid: string; citation_key: string; page: number | null; char_start: number; char_end: number; exact_quote: string; score: number }>;
} {
  return {
    query_id: result.run.query_id,
    build_id: result.run.build_id,
    evidence: result.run.evidence.map((e) => ({
      doc_uid: e.doc_uid,
      citation_key: e.citation_key,
      page: e.page,
      char_start: e.char_start,
      char_end: e.char_end,
      exact_quote: e.exact_quote,
      score: e.retrieval_score,
    })),
  };
}
