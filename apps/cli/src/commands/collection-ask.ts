import { resolve } from 'node:path';
import { writeFileAtomic } from '@doctree/index';
import { collectionCitations, describeLlmChoice, formatCrossDocument, type Collection, type CollectionAnswer, type CollectionFilters, type DocumentSelection } from '@doctree/pipeline';
import { assertOutputTarget, escapeControlChars, explainCacheFailure } from '@doctree/pipeline/command';
import { AnswerSchema, DocTreeError, formatIssues, type DocTreeConfigInput } from '@doctree/schema';
import { parseCommandArgs } from '../cli-args.js';
import { loadCliConfig, type CliConfig, type CliIo } from '../cli-context.js';
import { createProgress } from '../progress.js';
import { COLLECTION_ASK_USAGE } from '../usage.js';
import { formatAskReport } from './ask.js';
import { openCollectionTarget, storeUrlOf } from './collection-store.js';

/** The selection step as lines: every candidate with its scores, the asked ones marked. */
export function formatSelection(selection: DocumentSelection, shown = 8): string[] {
  if (selection.mode === 'doc') return [`Selection: documents named with --doc: ${selection.selected.join(', ')}`];
  const out = [`Selection (${selection.mode}${selection.filtered_out ? `, ${selection.filtered_out} filtered out` : ''}): metadata named → fused rank of description BM25, description dense, node DocScore`];
  const asked = new Set(selection.selected);
  const chosen = selection.llm?.chosen ?? [];
  selection.ranked.slice(0, shown).forEach((s, i) => {
    const meta = s.metadata.length > 0 ? s.metadata.join('+') : '-';
    const llm = chosen.includes(s.doc_id) ? `  llm #${chosen.indexOf(s.doc_id) + 1}` : '';
    out.push(`  ${asked.has(s.doc_id) ? '*' : ' '}${String(i + 1).padStart(2)}. ${s.doc_id}  metadata ${meta}  fused ${s.fused.toFixed(4)}  bm25 ${s.lexical.toFixed(2)}  dense ${s.dense.toFixed(3)}  nodes ${s.nodes.score.toFixed(3)} (${s.nodes.hits} hit(s))${llm}`);
  });
  if (selection.ranked.length > shown) out.push(`  … ${selection.ranked.length - shown} more (see --json)`);
  if (selection.llm) out.push(`  ${describeLlmChoice(selection.llm)}`);
  return out;
}

/** `--where field=value` filters. */
export function parseFilters(pairs: readonly string[]): CollectionFilters {
  const filters: CollectionFilters = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const field = pair.slice(0, Math.max(0, eq));
    const value = pair.slice(eq + 1).trim();
    if (eq < 0 || value === '') throw new DocTreeError('USAGE', `--where takes field=value, not "${pair}"`);
    if (field === 'company') filters.company = value;
    else if (field === 'form') filters.form = value;
    else if (field === 'quarter') {
      if (!/^q[1-4]$/i.test(value)) throw new DocTreeError('USAGE', `quarter must be Q1, Q2, Q3 or Q4, not "${value}"`);
      filters.quarter = value.toUpperCase();
    }
    else if (field === 'year') {
      if (!/^\d{4}$/.test(value)) throw new DocTreeError('USAGE', `year must be a four-digit year, not "${value}"`);
      filters.year = Number(value);
    } else throw new DocTreeError('USAGE', `--where filters on company, year, quarter or form, not "${field}"`);
  }
  return filters;
}

/** JSON of a collection answer: the selection, the chosen answer and each asked document's answer. */
export function collectionAnswerJson(answer: CollectionAnswer, redact: <T>(value: T) => T): unknown {
  const check = (value: unknown) => {
    const parsed = AnswerSchema.safeParse(redact(value));
    if (!parsed.success) throw new DocTreeError('INTERNAL', `the answer does not match its schema: ${formatIssues(parsed.error)}`);
    return parsed.data;
  };
  return {
    question: answer.question,
    doc_id: answer.doc_id,
    answer: check(answer.answer),
    selection: answer.selection,
    citations: collectionCitations(answer),
    ...(answer.cross ? { cross: answer.cross } : {}),
    documents: answer.documents.map((d) => ({ doc_id: d.doc_id, answer: check(d.run.answer) })),
  };
}

/**
 * Runs `doctree ask --collection-dir DIR "<question>"`: selects documents (or takes `--doc`), asks each, prints the
 * selection step with its scores and the chosen answer (or all of it as JSON). `--trace` writes the selection and
 * every asked document's trace.
 */
export async function collectionAskCli(io: CliIo, args: readonly string[]): Promise<CollectionAnswer> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      json: { type: 'boolean' },
      config: { type: 'string' },
      'collection-dir': { type: 'string' },
      mode: { type: 'string' },
      doc: { type: 'string', multiple: true },
      where: { type: 'string', multiple: true },
      'max-docs': { type: 'string' },
      trace: { type: 'string' },
      llm: { type: 'string' },
      store: { type: 'string' },
      collection: { type: 'string' },
      'no-cross': { type: 'boolean' },
    },
    COLLECTION_ASK_USAGE,
  );
  if (positionals.length !== 1) throw new DocTreeError('USAGE', `ask --collection-dir takes one question (got ${positionals.length} arguments)`, { hint: 'e.g. doctree ask --collection-dir data/reports "What was revenue in 2023?" (quote the question)' });
  const mode = (values.mode as string | undefined) ?? 'select';
  if (mode !== 'select' && mode !== 'all') throw new DocTreeError('USAGE', `--mode must be select or all, not "${mode}"`);
  const maxDocsText = values['max-docs'] as string | undefined;
  if (maxDocsText !== undefined && !/^[1-9]\d*$/.test(maxDocsText)) throw new DocTreeError('USAGE', `--max-docs takes a whole number of at least 1, not "${maxDocsText}"`);
  const llm = values.llm as string | undefined;
  if (llm !== undefined && !['none', 'openai'].includes(llm)) throw new DocTreeError('USAGE', `--llm must be none or openai, not "${llm}"`);
  const overrides: DocTreeConfigInput = llm ? { llm: { provider: llm as 'none' | 'openai' } } : {};
  const config = loadCliConfig(io, values.config as string | undefined, overrides);
  const storeUrl = storeUrlOf(io, values.store);
  const collectionDir = values['collection-dir'] as string | undefined;
  if (values.collection !== undefined && storeUrl === undefined) throw new DocTreeError('USAGE', 'ask --collection NAME needs --store postgres://… (or DOCTREE_STORE); a collection folder is --collection-dir DIR');
  const opened = await openCollectionTarget(io, config, { ...(collectionDir !== undefined ? { dir: resolve(io.cwd, collectionDir) } : {}), ...(storeUrl !== undefined ? { storeUrl } : {}), ...(values.collection !== undefined ? { name: values.collection as string } : {}) }, COLLECTION_ASK_USAGE);
  try {
    return await askOpened(io, config, opened.collection, positionals[0]!, values, mode);
  } finally {
    await opened.close();
  }
}

async function askOpened(io: CliIo, config: CliConfig, collection: Collection, question: string, values: Record<string, unknown>, mode: 'select' | 'all'): Promise<CollectionAnswer> {
  const maxDocsText = values['max-docs'] as string | undefined;
  const trace = values.trace !== undefined ? resolve(io.cwd, values.trace as string) : undefined;
  if (trace) assertOutputTarget({ option: '--trace', target: trace, inputs: [collection.dir], example: '--trace trace.json' });
  const progress = createProgress(io);
  let answer: CollectionAnswer;
  const cacheDir = resolve(io.cwd, config.config.data_dir, '.cache');
  try {
    answer = await collection.ask(question, {
      mode,
      ...(values.doc ? { docs: values.doc as string[] } : {}),
      filters: parseFilters((values.where as string[] | undefined) ?? []),
      ...(maxDocsText !== undefined ? { maxDocs: Number(maxDocsText) } : {}),
      ...(values['no-cross'] ? { crossDocument: false } : {}),
      onDocument: (docId) => progress.update(`[ask] ${docId}`),
    });
  } catch (error) {
    throw explainCacheFailure(error, cacheDir);
  } finally {
    progress.done();
  }
  const json = collectionAnswerJson(answer, config.redact);
  if (trace) {
    const traces = answer.documents.map((d) => ({ doc_id: d.doc_id, trace: config.redact(d.run.answer.trace) }));
    await writeFileAtomic(trace, `${JSON.stringify({ format: 'doctree.collection-trace', version: 1, question: answer.question, selection: answer.selection, ...(answer.cross ? { cross: answer.cross, combined: config.redact(answer.answer.trace) } : {}), documents: traces }, null, 2)}\n`);
  }
  if (values.json) {
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    return answer;
  }
  const chosen = answer.documents.find((d) => d.doc_id === answer.doc_id)!;
  const lines = [...formatSelection(answer.selection), ''];
  if (answer.cross) {
    lines.push(...formatCrossDocument(answer.cross, config.redact(answer.answer)));
    io.stdout(`${escapeControlChars(lines.join('\n'), { keepLayout: true })}\n`);
    return answer;
  }
  if (answer.documents.length > 1) {
    lines.push('Answers by document:');
    for (const d of answer.documents) {
      const value = Array.isArray(d.run.answer.answer) ? d.run.answer.answer.join('; ') : String(d.run.answer.answer);
      lines.push(`  ${d.doc_id === answer.doc_id ? '*' : ' '} ${d.doc_id}: ${value.slice(0, 120)}  (confidence ${d.run.answer.confidence.toFixed(2)}, pages ${d.run.answer.pages.join(', ') || 'none'})`);
    }
    lines.push('');
  }
  lines.push(`Document: ${answer.doc_id}`);
  io.stdout(`${escapeControlChars(lines.join('\n'), { keepLayout: true })}\n`);
  io.stdout(formatAskReport({ ...chosen.run, answer: config.redact(chosen.run.answer) }));
  return answer;
}
