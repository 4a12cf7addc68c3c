import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { DocTreeError, withoutYears } from '@doctree/schema';
import type { ChildRecord, ParentRecord } from './chunk-records.js';
import { loadSources, logChange, workspaceRetriever, workspaceRetrieverIfAny, type WorkspaceContext } from './context.js';
import { CLAIM_TYPES, claimTypes, draftSentences, draftStem, suggestedQuery, type ClaimType, type DraftSentence } from './draft.js';
import { sourceAccepted } from './evidence.js';
import { versionLabel, writeNewVersion } from './io.js';
import { llmClaimTypes, llmSupport } from './llm.js';
import { readLatestRun } from './runs.js';
import type { EvidenceRetriever } from './retrieval.js';
import type { SourceRecord } from './sources.js';
import { supportFeatures, supportScore, type SupportFeatures } from './support.js';

/** Verdict of one citation. */
export type CitationStatus = 'OK' | 'WEAK' | 'MISSING' | 'NOT_CITABLE';

/** One checked citation (a sentence citing one document). */
export interface CitationCheck {
  sentence_index: number;
  line: number;
  sentence: string;
  doc_uid: string;
  status: CitationStatus;
  support_score: number;
  /** `offline` (lexical/dense features, fitted model) or `llm` (the chat model's judgement). */
  scorer: 'offline' | 'llm';
  features: SupportFeatures | null;
  best_chunk: string | null;
  page: number | null;
  best_passage: string | null;
  reason: string;
  suggested_query: string | null;
}

/** Support features of a claim against each of the cited document's k best children (what the fitting script reads). */
export async function supportCandidates(retriever: EvidenceRetriever, claim: string, docUid: string, k: number): Promise<Array<{ chunk_id: string; features: SupportFeatures }>> {
  const hits = await retriever.search(claim, { k, accept: (c) => c.doc_uid === docUid });
  return hits.map((hit) => ({ chunk_id: hit.chunk.chunk_id, features: supportFeatures(claim, hit.chunk.text, hit.dense) }));
}

/** Scores one claim against one document's children (k best), as verify-citations does. */
export async function scoreClaimAgainstDoc(
  ctx: WorkspaceContext,
  retriever: EvidenceRetriever,
  claim: string,
  docUid: string,
  k: number,
): Promise<{ score: number; features: SupportFeatures | null; chunk: ChildRecord | null; scorer: 'offline' | 'llm' }> {
  const hits = await retriever.search(claim, { k, accept: (c) => c.doc_uid === docUid });
  let best: { score: number; features: SupportFeatures | null; chunk: ChildRecord | null; scorer: 'offline' | 'llm' } = { score: 0, features: null, chunk: null, scorer: 'offline' };
  const scored = hits.map((hit) => {
    const features = supportFeatures(claim, hit.chunk.text, hit.dense);
    return { hit, features, score: supportScore(features) };
  });
  scored.sort((a, b) => b.score - a.score);
  for (const s of scored) if (s.score > best.score || best.chunk === null) best = { score: s.score, features: s.features, chunk: s.hit.chunk, scorer: 'offline' };
  if (ctx.chat && scored.length > 0) {
    let judged: typeof best | undefined;
    for (const s of scored.slice(0, 3)) {
      const verdict = await llmSupport(ctx.chat, claim, s.hit.chunk.text);
      if (verdict && (!judged || verdict.support > judged.score)) judged = { score: verdict.support, features: s.features, chunk: s.hit.chunk, scorer: 'llm' };
    }
    if (judged) best = judged;
  }
  return best;
}

/** What `workspace verify-citations` did. */
export interface VerifyResult {
  output: string;
  k: number;
  threshold: number;
  checks: CitationCheck[];
  counts: Record<CitationStatus, number>;
  /** True when a cited source is not citable (the command fails). */
  failed: boolean;
}

async function readDraft(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'cannot read the draft', { file: path, cause: error });
  }
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/**
 * `workspace verify-citations`: for each sentence citing `{#doc_uid}`, searches only that document's children
 * (k = `verify_citations.k`), takes the best support score and compares it with T (`verify_citations.threshold`):
 * OK at or above T; MISSING when the document is unknown or no passage of it holds half of the claim's terms;
 * WEAK otherwise. A non-citable source is NOT_CITABLE and fails the command (the report is still written).
 */
export async function verifyCitations(ctx: WorkspaceContext, draftPath: string): Promise<VerifyResult> {
  const draft = await readDraft(draftPath);
  const { k, threshold } = ctx.config.verify_citations;
  const [sourcesList, retriever] = await Promise.all([loadSources(ctx), workspaceRetriever(ctx)]);
  const sources = new Map(sourcesList.map((s) => [s.doc_uid, s] as const));
  const parentById = { get: (id: string) => retriever.parent(id) };
  const chunked = retriever.documents();
  const checks: CitationCheck[] = [];
  for (const sentence of draftSentences(draft)) {
    for (const uid of sentence.cites) checks.push(await checkOne(ctx, retriever, sentence, uid, sources.get(uid), chunked.has(uid), parentById, k, threshold));
  }
  const counts: Record<CitationStatus, number> = { OK: 0, WEAK: 0, MISSING: 0, NOT_CITABLE: 0 };
  for (const c of checks) counts[c.status]++;
  const stem = draftStem(basename(draftPath));
  const written = await writeNewVersion(ctx.paths.audits, `${stem}_citations`, '.md', () => renderVerify(ctx, basename(draftPath), checks, counts, k, threshold));
  await logChange(ctx, 'verify-citations', written.path, written.previous ? versionLabel(written.previous) : null, versionLabel(written.version), `${checks.length} citations: ${counts.OK} OK, ${counts.WEAK} WEAK, ${counts.MISSING} MISSING, ${counts.NOT_CITABLE} NOT_CITABLE`);
  return { output: written.path, k, threshold, checks, counts, failed: counts.NOT_CITABLE > 0 };
}

async function checkOne(
  ctx: WorkspaceContext,
  retriever: EvidenceRetriever,
  sentence: DraftSentence,
  uid: string,
  source: SourceRecord | undefined,
  chunked: boolean,
  parents: Pick<ReadonlyMap<string, ParentRecord>, 'get'>,
  k: number,
  threshold: number,
): Promise<CitationCheck> {
  const base = { sentence_index: sentence.index, line: sentence.line, sentence: sentence.text, doc_uid: uid, scorer: 'offline' as const, features: null, best_chunk: null, page: null, best_passage: null };
  const query = suggestedQuery(sentence.text);
  if (!source) return { ...base, status: 'MISSING', support_score: 0, reason: 'no source with this doc_uid', suggested_query: query };
  if (!source.citable || source.source_type !== 'evidence') {
    return { ...base, status: 'NOT_CITABLE', support_score: 0, reason: `${source.raw_path} is not citable (${source.source_type}/${source.source_subtype})`, suggested_query: query };
  }
  if (!chunked) return { ...base, status: 'MISSING', support_score: 0, reason: 'the document is not chunked and embedded yet', suggested_query: query };
  const best = await scoreClaimAgainstDoc(ctx, retriever, sentence.text, uid, k);
  // WEAK: the document talks about the claim (half its terms in one passage) without supporting it; MISSING: it does not.
  const related = best.features !== null && best.features.recall >= 0.5;
  const status: CitationStatus = best.score >= threshold ? 'OK' : related ? 'WEAK' : 'MISSING';
  const parent = best.chunk ? parents.get(best.chunk.parent_id) : undefined;
  return {
    ...base,
    status,
    support_score: Number(best.score.toFixed(4)),
    scorer: best.scorer,
    features: best.features,
    best_chunk: best.chunk?.chunk_id ?? null,
    page: parent?.page_start ?? null,
    best_passage: best.chunk ? best.chunk.text.slice(0, 300) : null,
    reason: status === 'OK' ? `support ${best.score.toFixed(2)} ≥ T` : related ? `support ${best.score.toFixed(2)} < T` : 'no passage of the document holds half of the claim\'s terms',
    suggested_query: status === 'OK' ? null : query,
  };
}

function renderVerify(ctx: WorkspaceContext, draftName: string, checks: readonly CitationCheck[], counts: Record<CitationStatus, number>, k: number, threshold: number): string {
  const lines = [
    `# Citation check: ${draftName}`,
    '',
    `- generated: ${ctx.now().toISOString()}`,
    `- k = ${k}, T = ${threshold} (support = best score among the cited document's ${k} best chunks)`,
    `- scorer: ${ctx.chat ? `chat model ${ctx.chat.model} (offline score where it fails)` : 'offline (lexical + dense features, fitted model)'}`,
    `- OK ${counts.OK} · WEAK ${counts.WEAK} · MISSING ${counts.MISSING} · NOT_CITABLE ${counts.NOT_CITABLE}`,
    '',
    '| # | line | sentence | doc_uid | status | support | page | suggested query |',
    '| ---: | ---: | --- | --- | --- | ---: | ---: | --- |',
  ];
  checks.forEach((c, i) => lines.push(`| ${i + 1} | ${c.line} | ${cell(c.sentence)} | ${c.doc_uid} | ${c.status} | ${c.support_score.toFixed(2)} | ${c.page ?? '–'} | ${c.suggested_query ? cell(c.suggested_query) : ''} |`));
  if (checks.length === 0) lines.push('| – | – | No sentence cites a source with {#doc_uid}. | | | | | |');
  lines.push('', '## Sources used (doc_uid list)', '', ...([...new Set(checks.map((c) => c.doc_uid))].map((u) => `- ${u}`) || []), '');
  return `${lines.join('\n')}\n`;
}

/** One claim of an audit. */
export interface AuditClaim {
  claim_id: string;
  line: number;
  text: string;
  types: ClaimType[];
  cites: string[];
  linked_evidence: Array<{ doc_uid: string; page: number | null; score: number; via: 'citation' | 'evidence_pack' }>;
  status: 'SUPPORTED' | 'WEAK' | 'EVIDENCE_NEEDED' | 'CONTESTED';
  suggested_queries: string[];
  counterevidence: Array<{ doc_uid: string; page: number | null; passage: string }>;
}

/** What `workspace audit` did. */
export interface AuditResult {
  output: string;
  claims: AuditClaim[];
  evidence_run: string | null;
  classifier: 'rules' | 'llm';
}

const NUMBERS = /[0-9]+(?:[.,][0-9]+)*/g;

/**
 * `workspace audit`: finds strong claims (causal, comparative, quantitative, generalising, recommendation,
 * superlative) in a draft, links each to the documents it cites and to the evidence of the newest evidence pack
 * (support ≥ T), marks the rest EVIDENCE_NEEDED with suggested queries, and writes `outputs/audits/<draft>_claims_vNNN.md`.
 * `counterevidence_mode` `soft` lists passages of other sources that share the claim's terms but not its numbers;
 * `strict` also marks such claims CONTESTED.
 */
export async function auditDraft(ctx: WorkspaceContext, draftPath: string): Promise<AuditResult> {
  const draft = await readDraft(draftPath);
  const sentences = draftSentences(draft);
  const threshold = ctx.config.verify_citations.threshold;
  const [sourcesList, retriever] = await Promise.all([loadSources(ctx), workspaceRetrieverIfAny(ctx)]);
  const sources = new Map(sourcesList.map((s) => [s.doc_uid, s] as const));
  const parentById = { get: (id: string) => retriever?.parent(id) };
  const run = await readLatestRun(ctx, 'evidence');
  let classifier: AuditResult['classifier'] = 'rules';
  let llmTypes: Map<number, string[]> | null = null;
  if (ctx.chat) {
    llmTypes = await llmClaimTypes(ctx.chat, sentences.map((s) => s.text));
    if (llmTypes) classifier = 'llm';
    else ctx.warn('the chat model could not list the claims; the rules did');
  }
  const claims: AuditClaim[] = [];
  for (const sentence of sentences) {
    const types = llmTypes ? ((llmTypes.get(sentence.index) ?? []).filter((t): t is ClaimType => (CLAIM_TYPES as readonly string[]).includes(t))) : claimTypes(sentence.text);
    if (types.length === 0) continue;
    const linked: AuditClaim['linked_evidence'] = [];
    for (const uid of sentence.cites) {
      const source = sources.get(uid);
      if (!source || !source.citable || !retriever) {
        linked.push({ doc_uid: uid, page: null, score: 0, via: 'citation' });
        continue;
      }
      const best = await scoreClaimAgainstDoc(ctx, retriever, sentence.text, uid, ctx.config.verify_citations.k);
      linked.push({ doc_uid: uid, page: best.chunk ? (parentById.get(best.chunk.parent_id)?.page_start ?? null) : null, score: Number(best.score.toFixed(4)), via: 'citation' });
    }
    for (const e of run?.evidence ?? []) {
      if (sentence.cites.includes(e.doc_uid)) continue;
      const score = Math.max(supportScore(supportFeatures(sentence.text, e.exact_quote)), supportScore(supportFeatures(sentence.text, e.snippet)));
      if (score >= threshold) linked.push({ doc_uid: e.doc_uid, page: e.page, score: Number(score.toFixed(4)), via: 'evidence_pack' });
    }
    const bestScore = Math.max(0, ...linked.map((l) => l.score));
    let status: AuditClaim['status'] = bestScore >= threshold ? 'SUPPORTED' : sentence.cites.length > 0 ? 'WEAK' : 'EVIDENCE_NEEDED';
    const counter: AuditClaim['counterevidence'] = [];
    if (ctx.config.counterevidence_mode !== 'off' && retriever) {
      const claimNumbers = new Set(withoutYears(sentence.text, '').match(NUMBERS) ?? []);
      const hits = await retriever.search(sentence.text, { k: 5, accept: (c) => sourceAccepted(sources.get(c.doc_uid), {}) });
      for (const hit of hits) {
        const features = supportFeatures(sentence.text, hit.chunk.text, hit.dense);
        const hitNumbers = hit.chunk.text.match(NUMBERS) ?? [];
        if (claimNumbers.size > 0 && features.recall >= 0.5 && features.numbers < 1 && hitNumbers.length > 0) {
          counter.push({ doc_uid: hit.chunk.doc_uid, page: parentById.get(hit.chunk.parent_id)?.page_start ?? null, passage: hit.chunk.text.slice(0, 200) });
        }
      }
      if (ctx.config.counterevidence_mode === 'strict' && counter.length > 0) status = 'CONTESTED';
    }
    const query = suggestedQuery(sentence.text);
    claims.push({
      claim_id: `C${String(claims.length + 1).padStart(3, '0')}`,
      line: sentence.line,
      text: sentence.text,
      types,
      cites: sentence.cites,
      linked_evidence: linked,
      status,
      suggested_queries: status === 'SUPPORTED' ? [] : [query, ...(types.includes('quantitative') ? [`${query} figures`] : [])],
      counterevidence: counter,
    });
  }
  const stem = draftStem(basename(draftPath));
  const written = await writeNewVersion(ctx.paths.audits, `${stem}_claims`, '.md', () => renderAudit(ctx, basename(draftPath), claims, run?.query_id ?? null, classifier));
  await logChange(ctx, 'audit', written.path, written.previous ? versionLabel(written.previous) : null, versionLabel(written.version), `${claims.length} claims, ${claims.filter((c) => c.status === 'EVIDENCE_NEEDED').length} need evidence`);
  return { output: written.path, claims, evidence_run: run?.query_id ?? null, classifier };
}

function renderAudit(ctx: WorkspaceContext, draftName: string, claims: readonly AuditClaim[], runId: string | null, classifier: string): string {
  const lines = [
    `# Claim audit: ${draftName}`,
    '',
    `- generated: ${ctx.now().toISOString()}`,
    `- claims found by: ${classifier === 'llm' ? `chat model ${ctx.chat?.model ?? ''}` : 'rules'}`,
    `- evidence pack linked: ${runId ? `query \`${runId}\`` : 'none (run `doctree workspace query` first to link pack evidence)'}`,
    `- T = ${ctx.config.verify_citations.threshold} · counterevidence: ${ctx.config.counterevidence_mode}`,
    '',
    '| claim_id | claim_text | claim_type | linked_evidence | status | suggested_queries |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const c of claims) {
    const linked = c.linked_evidence.map((l) => `${l.doc_uid}${l.page !== null ? ` p.${l.page}` : ''} (${l.score.toFixed(2)}, ${l.via})`).join('; ') || '–';
    const status = c.status === 'EVIDENCE_NEEDED' ? '**EVIDENCE_NEEDED**' : c.status;
    lines.push(`| ${c.claim_id} | ${cell(c.text)} | ${c.types.join(', ')} | ${cell(linked)} | ${status} | ${cell(c.suggested_queries.map((q) => `\`${q}\``).join('; '))} |`);
  }
  if (claims.length === 0) lines.push('| – | No strong claims found. | | | | |');
  const countered = claims.filter((c) => c.counterevidence.length > 0);
  if (countered.length > 0) {
    lines.push('', '## Possible counterevidence', '');
    for (const c of countered) for (const x of c.counterevidence) lines.push(`- ${c.claim_id}: ${x.doc_uid}${x.page !== null ? ` p.${x.page}` : ''}: “${cell(x.passage)}”`);
  }
  const used = [...new Set(claims.flatMap((c) => c.linked_evidence.map((l) => l.doc_uid)))];
  lines.push('', '## Sources used (doc_uid list)', '', ...(used.length ? used.map((u) => `- ${u}`) : ['- (none)']), '');
  return `${lines.join('\n')}\n`;
}
