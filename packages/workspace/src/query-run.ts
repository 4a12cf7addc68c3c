import { z } from 'zod';
import { EvidenceSchema, QueryFiltersSchema, type Evidence, type ReturnedSource } from './evidence.js';

/** `meta/query_runs/<query_id>.json`. */
export const QueryRunSchema = z.object({
  format: z.literal('doctree.workspace-query-run'),
  version: z.literal(1),
  query_id: z.string(),
  build_id: z.string(),
  created_at: z.string(),
  tool_version: z.string(),
  config_hash: z.string(),
  mode: z.enum(['evidence', 'papers']),
  question: z.string(),
  q_zh: z.string().nullable(),
  q_en: z.string().nullable(),
  /** `llm` when a Chinese question was rewritten to English by the chat model, else `none`. */
  rewrite: z.enum(['llm', 'none']),
  /** The queries searched. */
  queries: z.array(z.string()),
  filters: QueryFiltersSchema,
  top_k: z.number().int(),
  fusion: z.object({ method: z.literal('rrf'), k: z.number(), candidate_k: z.number(), lanes: z.array(z.string()) }),
  rerank: z.object({ enabled: z.boolean(), model: z.string().nullable(), top_n: z.number() }),
  models: z.record(z.string(), z.string().nullable()),
  /** Child hits in rank order (what `--mode papers` groups). */
  hits: z.array(z.object({ chunk_id: z.string(), parent_id: z.string(), doc_uid: z.string(), score: z.number(), dense: z.number(), lexical: z.number() })),
  returned_sources: z.array(z.object({ doc_uid: z.string(), citation_key: z.string(), citable: z.boolean(), hits: z.number(), best_score: z.number() })),
  evidence: z.array(EvidenceSchema),
  warnings: z.array(z.string()),
  /** Query run whose hits a papers view reused (no new retrieval). */
  reused_from: z.string().nullable(),
  /** The Markdown written, relative to the workspace. */
  output: z.string(),
});
/** A query run. */
export type QueryRun = z.infer<typeof QueryRunSchema>;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function locatorOf(e: Evidence): string {
  if (e.page !== null) return `p. ${e.page}`;
  return `chars ${e.char_start}–${e.char_end} ("${e.anchor_begin} … ${e.anchor_end}")${e.section_path.length ? ` in ${e.section_path.join(' › ')}` : ''}`;
}

function header(run: QueryRun, title: string): string[] {
  const lines = [
    `# ${title}`,
    '',
    `- build_id: \`${run.build_id}\``,
    `- query_id: \`${run.query_id}\``,
    `- question: ${cell(run.question)}`,
  ];
  if (run.q_zh !== null) lines.push(`- q_zh: ${cell(run.q_zh)}`);
  if (run.q_en !== null) lines.push(`- q_en: ${cell(run.q_en)}${run.rewrite === 'llm' ? ' (rewritten by the chat model)' : ''}`);
  lines.push(`- mode: ${run.mode}${run.reused_from ? ` (hits of query \`${run.reused_from}\`, not retrieved again)` : ''}`, `- created: ${run.created_at}`, '');
  const f = run.filters;
  lines.push('## Applied filters', '', '- citable=true (evidence mode always applies it)');
  if (f.year) lines.push(`- year: ${f.year.from === f.year.to ? f.year.from : `${f.year.from}–${f.year.to}`}`);
  for (const key of ['source_type', 'source_subtype', 'doc_uid'] as const) if (f[key]) lines.push(`- ${key}: ${f[key]!.join(', ')}`);
  lines.push('', '## Returned sources summary', '', '| doc_uid | citation_key | citable | hits | best score |', '| --- | --- | --- | ---: | ---: |');
  for (const r of run.returned_sources as ReturnedSource[]) lines.push(`| ${r.doc_uid} | ${r.citation_key} | ${r.citable} | ${r.hits} | ${r.best_score.toFixed(3)} |`);
  if (run.returned_sources.length === 0) lines.push('| (no hits) | | | | |');
  const pages = run.evidence.filter((e) => e.locator_quality === 'page').length;
  lines.push('', '## LOCATOR_QUALITY', '', `- page: ${pages}`, `- char_anchor: ${run.evidence.length - pages}`);
  if (run.warnings.length > 0) lines.push('', '## Warnings', '', ...run.warnings.map((w) => `- ${cell(w)}`));
  return lines;
}

function sourcesUsed(evidence: readonly Evidence[]): string[] {
  const uids = [...new Set(evidence.map((e) => e.doc_uid))];
  return ['', '## Sources used (doc_uid list)', '', ...(uids.length ? uids.map((u) => `- ${u}`) : ['- (none)']), ''];
}

/** `outputs/evidence_pack_vNNN.md`. */
export function renderEvidencePack(run: QueryRun): string {
  const lines = header(run, 'Evidence pack');
  lines.push('', '## Evidence', '');
  if (run.evidence.length === 0) lines.push('No evidence found in the citable sources for this question and these filters.');
  run.evidence.forEach((e, i) => {
    lines.push(
      `### E${i + 1} · ${e.citation_key} · ${locatorOf(e)}`,
      '',
      `- doc_uid: \`${e.doc_uid}\` · parent_id: \`${e.parent_id}\` · chunk_id: \`${e.chunk_id}\``,
      `- locator: ${e.locator_quality}${e.page !== null ? ` (page ${e.page})` : ''} · chars ${e.char_start}–${e.char_end}${e.section_path.length ? ` · section: ${cell(e.section_path.join(' › '))}` : ''}`,
      `- retrieval score: ${e.retrieval_score.toFixed(4)}`,
      '',
      `> ${e.exact_quote.replace(/\n+/g, ' ')}`,
      '',
    );
  });
  lines.push(...sourcesUsed(run.evidence));
  return `${lines.join('\n')}\n`;
}

/** `outputs/papers_pack_vNNN.md`: the same hits grouped by document. */
export function renderPapersPack(run: QueryRun): string {
  const lines = header(run, 'Papers');
  lines.push('', '## Documents', '');
  const byDoc = new Map<string, Evidence[]>();
  for (const e of run.evidence) byDoc.set(e.doc_uid, [...(byDoc.get(e.doc_uid) ?? []), e]);
  for (const [uid, items] of byDoc) {
    const pages = [...new Set(items.map((e) => (e.page !== null ? String(e.page) : 'n/a')))];
    lines.push(`### ${items[0]!.citation_key} (\`${uid}\`)`, '', `- evidence: ${items.length} · pages: ${pages.join(', ')} · best score: ${Math.max(...items.map((e) => e.retrieval_score)).toFixed(4)}`, '');
    for (const e of items) lines.push(`- ${locatorOf(e)}: “${e.exact_quote.replace(/\n+/g, ' ')}”`);
    lines.push('');
  }
  if (byDoc.size === 0) lines.push('No documents matched.');
  lines.push(...sourcesUsed(run.evidence));
  return `${lines.join('\n')}\n`;
}
