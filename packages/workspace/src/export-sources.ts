import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { loadSources, logChange, type WorkspaceContext } from './context.js';
import { existingVersions, versionLabel, writeExclusive, writeNewVersion } from './io.js';
import { readRun } from './runs.js';
import type { SourceRecord } from './sources.js';

/** What `workspace export-used-sources` wrote. */
export interface ExportResult {
  pack: string;
  doc_uids: string[];
  markdown: string;
  bibtex: string;
  csl_json: string;
}

function bibEscape(text: string): string {
  return text.replace(/[\\{}]/g, (c) => `\\${c}`).replace(/[%&$#_]/g, (c) => `\\${c}`);
}

/** A BibTeX entry of a source (`@misc`, with `urldate` from accessed_at). */
export function bibtexEntry(source: SourceRecord): string {
  const fields: Array<[string, string]> = [['title', source.title ?? source.doc_uid]];
  if (source.authors.length > 0) fields.push(['author', source.authors.join(' and ')]);
  if (source.publisher) fields.push(['publisher', source.publisher]);
  if (source.published_date) {
    fields.push(['year', source.published_date.slice(0, 4)]);
    if (source.published_date.length >= 7) fields.push(['month', String(Number(source.published_date.slice(5, 7)))]);
  }
  if (source.url) fields.push(['url', source.url]);
  if (source.accessed_at) fields.push(['urldate', source.accessed_at]);
  fields.push(['note', `doc_uid: ${source.doc_uid}`]);
  return `@misc{${source.citation_key},\n${fields.map(([k, v]) => `  ${k} = {${k === 'url' ? v : bibEscape(v)}}`).join(',\n')}\n}\n`;
}

function dateParts(date: string): { 'date-parts': number[][] } {
  return { 'date-parts': [date.split('-').map(Number)] };
}

/** A CSL-JSON item of a source (what Zotero, Mendeley and pandoc import). */
export function cslItem(source: SourceRecord): Record<string, unknown> {
  return {
    id: source.citation_key,
    type: 'document',
    title: source.title ?? source.doc_uid,
    ...(source.authors.length ? { author: source.authors.map((literal) => ({ literal })) } : {}),
    ...(source.publisher ? { publisher: source.publisher } : {}),
    ...(source.published_date ? { issued: dateParts(source.published_date) } : {}),
    ...(source.url ? { URL: source.url } : {}),
    ...(source.accessed_at ? { accessed: dateParts(source.accessed_at) } : {}),
    note: `doc_uid: ${source.doc_uid}`,
  };
}

async function latestPack(ctx: WorkspaceContext): Promise<string> {
  const versions = await existingVersions(ctx.paths.outputs, 'evidence_pack', '.md');
  const last = versions[versions.length - 1];
  if (last === undefined) throw new DocTreeError('INPUT_NOT_FOUND', 'no evidence pack in outputs/ yet', { file: ctx.paths.outputs, hint: 'Run `doctree workspace query "<question>"` first, or name a pack.' });
  return join(ctx.paths.outputs, `evidence_pack_${versionLabel(last)}.md`);
}

/**
 * `workspace export-used-sources [pack]`: the sources an evidence pack (default the newest) cites, as
 * `outputs/used_sources_vNNN.md` with `used_sources_vNNN.bib` (BibTeX) and `used_sources_vNNN.csl.json` (CSL-JSON).
 */
export async function exportUsedSources(ctx: WorkspaceContext, packPath?: string): Promise<ExportResult> {
  const pack = packPath ? resolve(ctx.paths.root, packPath) : await latestPack(ctx);
  let text: string;
  try {
    text = await readFile(pack, 'utf8');
  } catch (error) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'cannot read the evidence pack', { file: pack, cause: error });
  }
  const queryId = /query_id: `([^`]+)`/.exec(text)?.[1];
  const run = queryId ? await readRun(ctx, queryId) : undefined;
  const uids = run ? [...new Set(run.evidence.map((e) => e.doc_uid))] : [...new Set([...text.matchAll(/doc_uid: `([^`]+)`/g)].map((m) => m[1]!))];
  const sources = new Map((await loadSources(ctx)).map((s) => [s.doc_uid, s] as const));
  const used = uids.map((u) => sources.get(u)).filter((s): s is SourceRecord => s !== undefined);
  const unknown = uids.filter((u) => !sources.has(u));
  const pages = new Map<string, number[]>();
  for (const e of run?.evidence ?? []) if (e.page !== null) pages.set(e.doc_uid, [...new Set([...(pages.get(e.doc_uid) ?? []), e.page])].sort((a, b) => a - b));
  const written = await writeNewVersion(ctx.paths.outputs, 'used_sources', '.md', (version) => {
    const label = versionLabel(version);
    const lines = [
      '# Used sources',
      '',
      `- from: \`${pack.slice(ctx.paths.root.length + 1) || pack}\`${queryId ? ` (query \`${queryId}\`)` : ''}`,
      `- BibTeX: \`used_sources_${label}.bib\` · CSL-JSON: \`used_sources_${label}.csl.json\` (Zotero: File › Import)`,
      '',
      '| citation_key | doc_uid | title | authors | publisher | published | url | accessed | pages cited |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...used.map((s) => `| ${s.citation_key} | ${s.doc_uid} | ${s.title ?? ''} | ${s.authors.join('; ')} | ${s.publisher ?? ''} | ${s.published_date ?? ''} | ${s.url ?? ''} | ${s.accessed_at ?? '**missing**'} | ${(pages.get(s.doc_uid) ?? []).join(', ')} |`),
      '',
      ...(unknown.length ? [`Not in the registry: ${unknown.join(', ')}`, ''] : []),
      '## Sources used (doc_uid list)',
      '',
      ...(used.length ? used.map((s) => `- ${s.doc_uid}`) : ['- (none)']),
      '',
    ];
    return `${lines.join('\n')}\n`;
  });
  const label = versionLabel(written.version);
  const bibtex = join(ctx.paths.outputs, `used_sources_${label}.bib`);
  const csl = join(ctx.paths.outputs, `used_sources_${label}.csl.json`);
  await writeExclusive(bibtex, used.map(bibtexEntry).join('\n'));
  await writeExclusive(csl, `${JSON.stringify(used.map(cslItem), null, 2)}\n`);
  await logChange(ctx, 'export-used-sources', written.path, written.previous ? versionLabel(written.previous) : null, label, `${used.length} sources from ${pack.slice(ctx.paths.root.length + 1) || pack}`);
  return { pack, doc_uids: used.map((s) => s.doc_uid), markdown: written.path, bibtex, csl_json: csl };
}

/** Lists files of outputs/ (for tests and the CLI). */
export async function listOutputs(ctx: WorkspaceContext): Promise<string[]> {
  return (await readdir(ctx.paths.outputs)).sort();
}
