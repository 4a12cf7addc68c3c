import { join } from 'node:path';
import { z } from 'zod';
import { ContentListSchema, DocTreeError, type ContentList } from '@doctree/schema';
import { DOC_FILES, ingestFile, type IngestLimitOptions, type IngestOcrOptions } from '@doctree/ingest';
import { readJsonIfPresent, writeJsonAtomic } from './io.js';
import type { WorkspacePaths } from './layout.js';
import type { SourceRecord } from './sources.js';

/** Quality facts of one parsed document (`parsed/<doc_uid>/parse_summary.json`). */
export const ParseSummarySchema = z.object({
  format: z.literal('doctree.workspace-parse'),
  version: z.literal(1),
  doc_uid: z.string(),
  sha256: z.string(),
  kind: z.enum(['pdf', 'mineru', 'markdown']),
  pages: z.number().int().nonnegative(),
  pages_with_text: z.number().int().nonnegative(),
  /** Pages with text / pages (1 for Markdown). */
  text_coverage: z.number().min(0).max(1),
  ocr_pages: z.number().int().nonnegative(),
  tables: z.number().int().nonnegative(),
  /** Blocks left out of the text: headers, footers, page numbers, running titles, repeated lines. */
  furniture_removed: z.number().int().nonnegative(),
  /** Blocks marked as a reference list (the document's `References`). */
  reference_blocks: z.number().int().nonnegative(),
  warnings: z.array(z.string()),
});
/** Quality facts of one parsed document. */
export type ParseSummary = z.infer<typeof ParseSummarySchema>;

const FURNITURE_TYPES = new Set(['header', 'footer', 'page_number', 'page_footnote', 'aside_text']);
const FURNITURE_FLAGS = new Set(['repeated_header', 'repeated_footer', 'running_title']);

/** True for blocks that are page furniture (kept out of parents, children and quotes). */
export function isFurniture(block: ContentList['blocks'][number]): boolean {
  return FURNITURE_TYPES.has(block.type) || (block.flags ?? []).some((f) => FURNITURE_FLAGS.has(f));
}

/** Computes the quality facts of a parsed document. */
export function summarizeParse(source: SourceRecord, enhanced: ContentList, treeWarnings: readonly string[]): ParseSummary {
  const withText = new Set<number>();
  let furniture = 0;
  let tables = 0;
  let references = 0;
  for (const block of enhanced.blocks) {
    if (isFurniture(block)) {
      furniture++;
      continue;
    }
    if (block.type === 'table') tables++;
    if ((block.flags ?? []).includes('reference_list') || (block.type === 'list' && block.sub_type === 'reference')) references++;
    const text = 'text' in block ? block.text : block.type === 'list' ? block.list_items.join(' ') : block.type === 'table' ? (block.markdown ?? '') : '';
    if (text.trim().length > 0) withText.add(block.page_idx);
  }
  const pages = enhanced.pages.length;
  const kind = enhanced.source.kind;
  return {
    format: 'doctree.workspace-parse',
    version: 1,
    doc_uid: source.doc_uid,
    sha256: source.sha256,
    kind,
    pages,
    pages_with_text: withText.size,
    text_coverage: kind === 'markdown' ? 1 : pages === 0 ? 0 : withText.size / pages,
    ocr_pages: enhanced.pages.filter((p) => p.ocr).length,
    tables,
    furniture_removed: furniture,
    reference_blocks: references,
    warnings: [...enhanced.warnings.map((w) => `${w.code}${w.page_idx !== undefined ? ` (page ${w.page_idx + 1})` : ''}: ${w.message}`), ...treeWarnings],
  };
}

/** Folder of a parsed document. */
export function parsedDir(paths: WorkspacePaths, docUid: string): string {
  return join(paths.parsed, docUid);
}

/** Reads the enhanced content list of a parsed document. */
export async function readParsedContent(paths: WorkspacePaths, docUid: string): Promise<ContentList> {
  const file = join(parsedDir(paths, docUid), DOC_FILES.enhanced);
  const list = await readJsonIfPresent(file, ContentListSchema, 'parsed content list');
  if (!list) throw new DocTreeError('INDEX_MISSING', `${docUid} has not been parsed`, { file, hint: 'Run `doctree workspace parse` first.' });
  return list;
}

/** Options of {@link parseSource}. */
export interface ParseSourceOptions extends IngestLimitOptions, IngestOcrOptions {
  /** Page worker threads of a PDF (`'auto'`, the default of `ingestFile`, or a count; 0: this thread). */
  pdfWorkers?: number | 'auto';
  /** Parse again even when the parsed copy matches the file's hash. Default false. */
  force?: boolean;
  signal?: AbortSignal;
}

/** Parses one source into `parsed/<doc_uid>/` (skipped when its hash is unchanged) and returns its summary. */
export async function parseSource(paths: WorkspacePaths, source: SourceRecord, options: ParseSourceOptions = {}): Promise<{ summary: ParseSummary; reused: boolean }> {
  const summaryFile = join(parsedDir(paths, source.doc_uid), 'parse_summary.json');
  if (!options.force) {
    const previous = await readJsonIfPresent(summaryFile, ParseSummarySchema, 'parse summary').catch(() => undefined);
    if (previous && previous.sha256 === source.sha256) return { summary: previous, reused: true };
  }
  const { force: _force, signal, ...limits } = options;
  void _force;
  const result = await ingestFile(join(paths.root, source.raw_path), {
    ...limits,
    outDir: paths.parsed,
    docId: source.doc_uid,
    copySource: false,
    ...(signal ? { signal } : {}),
  });
  const summary = summarizeParse(source, result.enhanced, result.tree.warnings.map((w) => `${w.code}: ${w.message}`));
  await writeJsonAtomic(summaryFile, summary);
  return { summary, reused: false };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)} %`;
}

/** `meta/parse_quality_report.md`: one row per document and its warnings. */
export function renderParseReport(rows: ReadonlyArray<{ source: SourceRecord; summary: ParseSummary | null; error?: string }>, header: { generated_at: string; build_id: string }): string {
  const lines = [
    '# Parse quality report',
    '',
    `Generated: ${header.generated_at} · build_id: \`${header.build_id}\``,
    '',
    '| doc_uid | type | citable | pages | text coverage | OCR pages | tables | furniture removed | warnings |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { source, summary, error } of rows) {
    if (!summary) {
      lines.push(`| ${source.doc_uid} | ${source.source_type}/${source.source_subtype} | ${source.citable} | – | – | – | – | – | FAILED |`);
      continue;
    }
    lines.push(
      `| ${source.doc_uid} | ${source.source_type}/${source.source_subtype} | ${source.citable} | ${summary.pages} | ${pct(summary.text_coverage)} | ${summary.ocr_pages} | ${summary.tables} | ${summary.furniture_removed} | ${summary.warnings.length + (error ? 1 : 0)} |`,
    );
  }
  const notes = rows.filter((r) => r.error || (r.summary && (r.summary.warnings.length > 0 || r.summary.text_coverage < 1)));
  if (notes.length > 0) {
    lines.push('', '## Warnings', '');
    for (const { source, summary, error } of notes) {
      lines.push(`### ${source.doc_uid}`, '');
      if (error) lines.push(`- parse failed: ${error}`);
      if (summary && summary.text_coverage < 1) lines.push(`- ${summary.pages - summary.pages_with_text} of ${summary.pages} pages have no text (scanned pages need OCR: \`doctree doctor\`)`);
      for (const w of summary?.warnings.slice(0, 20) ?? []) lines.push(`- ${w.replace(/\s+/g, ' ')}`);
      if (summary && summary.warnings.length > 20) lines.push(`- … ${summary.warnings.length - 20} more`);
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}
