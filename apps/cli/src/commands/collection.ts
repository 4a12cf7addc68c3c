import { basename, join, resolve } from 'node:path';
import { writeFileAtomic } from '@doctree/index';
import { Collection, type CollectionProgress } from '@doctree/pipeline';
import { escapeControlChars, reportCommandFailure } from '@doctree/pipeline/command';
import {
  COLLECTION_METADATA_FIELDS,
  CollectionStatusReportSchema,
  CollectionSyncReportSchema,
  DOCTREE_ERROR_CODES,
  DocTreeError,
  PageIndexDocumentSchema,
  type CollectionManifest,
  type CollectionMetadataField,
  type CollectionStatusReport,
  type CollectionSyncReport,
  type DocTreeConfigInput,
} from '@doctree/schema';
import { parseCommandArgs } from '../cli-args.js';
import { loadCliConfig, type CliIo } from '../cli-context.js';
import { createProgress } from '../progress.js';
import { COLLECTION_USAGE } from '../usage.js';
import { enqueueCollectionJobs, formatEnqueue } from './collection-queue.js';
import { openCollectionTarget, storeUrlOf } from './collection-store.js';

/** Options every `doctree collection` subcommand reads. */
const COMMON = {
  json: { type: 'boolean' },
  config: { type: 'string' },
  'collection-dir': { type: 'string' },
  'input-dir': { type: 'string' },
  force: { type: 'boolean' },
  'no-recursive': { type: 'boolean' },
  jobs: { type: 'string' },
  wait: { type: 'string' },
  embedder: { type: 'string' },
  backend: { type: 'string' },
  doc: { type: 'string', multiple: true },
  out: { type: 'string' },
  store: { type: 'string' },
  collection: { type: 'string' },
  queue: { type: 'string' },
} as const;

const SUBCOMMANDS = new Set(['ingest', 'sync', 'status', 'meta', 'export-pageindex', 'import-pageindex']);

function parseJobs(value: string | undefined): number | 'auto' {
  if (value === undefined || value === 'auto') return 'auto';
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new DocTreeError('USAGE', `--jobs takes a whole number of at least 1 or "auto", not "${value}"`);
  return Number(value);
}

function parseWait(value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new DocTreeError('USAGE', `--wait takes seconds, not "${value}"`);
  return Math.round(Number(value) * 1000);
}

/** Configuration overrides of `--embedder` / `--backend`. */
export function collectionConfigOverrides(values: { embedder?: unknown; backend?: unknown }): DocTreeConfigInput {
  const embedder = values.embedder as string | undefined;
  const backend = values.backend as string | undefined;
  if (embedder !== undefined && !['hashing', 'sif', 'openai'].includes(embedder)) throw new DocTreeError('USAGE', `--embedder must be hashing, sif or openai, not "${embedder}"`);
  if (backend !== undefined && !['auto', 'faiss', 'exact'].includes(backend)) throw new DocTreeError('USAGE', `--backend must be auto, faiss or exact, not "${backend}"`);
  return {
    ...(embedder ? { embedder: { kind: embedder as 'hashing' | 'sif' | 'openai' } } : {}),
    ...(backend ? { index: { backend: backend as 'auto' | 'faiss' | 'exact' } } : {}),
  };
}

/** One progress line of a sync. */
function progressLine(event: CollectionProgress): string | undefined {
  switch (event.stage) {
    case 'scan':
      return `[collection] ${event.files} source file(s) found`;
    case 'build':
      return `[collection ${event.done}/${event.total}] ${event.doc_id}: ${event.event.stage === 'ingest' ? `page ${event.event.done}/${event.event.total}` : event.event.stage}`;
    case 'selection':
      return '[collection] selection index';
    default:
      return undefined;
  }
}

/** Human-readable status (as PageIndex prints it, with DocTree's metadata). */
export function formatStatus(report: CollectionStatusReport, manifest: CollectionManifest | undefined): string {
  const out = [`Collection: ${report.collection_dir}`, `Input:      ${report.input_dir}`];
  if (report.created_at) out.push(`Created:    ${report.created_at}`, `Updated:    ${report.updated_at}`);
  out.push(`Documents:  ${report.documents}`);
  if (manifest && manifest.documents.length > 0) {
    out.push('', 'Indexed documents:');
    for (const d of manifest.documents) {
      const period = d.metadata.period_end ? `period ended ${d.metadata.period_end}` : undefined;
      const facts = [d.metadata.company, d.metadata.form, d.metadata.year, d.metadata.quarter, period].filter((x) => x !== undefined).join(' ');
      out.push(`  - ${d.doc_id}${facts ? `  (${facts})` : ''}  ${d.pages} page(s)`, `      Source:  ${d.path}`, `      Indexed: ${d.indexed_at}${d.ingest_warnings.length ? `  (${d.ingest_warnings.length} ingest warning(s))` : ''}`);
    }
  }
  const pending = report.entries.filter((e) => e.change !== 'unchanged');
  if (pending.length > 0) {
    out.push('', 'Pending changes (run `doctree collection sync` to apply):');
    const why = (e: (typeof pending)[number]): string => (e.reason !== 'settings' ? '' : e.change === 'new' ? '  - failed before; ingest settings changed, tried again' : '  - built with other settings (ingest, embedder or index)');
    for (const e of pending) out.push(`  [${e.change.toUpperCase()}] ${e.doc_id}  (${e.path})${why(e)}`);
  } else {
    out.push('', 'No pending changes.');
  }
  return `${escapeControlChars(out.join('\n'), { keepLayout: true })}\n`;
}

/** Human-readable summary of an ingest or sync. */
export function formatSync(report: CollectionSyncReport): string {
  const out = [
    `${report.mode === 'sync' ? 'Synced' : 'Ingested'} ${report.input_dir} -> ${report.collection_dir}`,
    `  added ${report.added.length}, updated ${report.updated.length}, removed ${report.removed.length}, unchanged ${report.unchanged.length}, failed ${report.failed.length}; ${report.documents} document(s) in the collection`,
    `  time: scan ${report.timings_ms.scan} ms, build ${report.timings_ms.build} ms (${report.workers} worker(s)), selection index ${report.timings_ms.selection} ms, total ${report.timings_ms.total} ms`,
  ];
  for (const f of report.failed) out.push(`  failed: ${f.path} [${f.code}] ${f.message}`);
  return `${escapeControlChars(out.join('\n'), { keepLayout: true })}\n`;
}

/** Parses `field=value` pairs of `meta set` (an empty value clears the field). */
export function parseMetadataPairs(pairs: readonly string[]): Partial<Record<CollectionMetadataField, string | number | undefined>> {
  const patch: Partial<Record<CollectionMetadataField, string | number | undefined>> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const field = (eq < 0 ? pair : pair.slice(0, eq)) as CollectionMetadataField;
    if (eq < 0 || !(COLLECTION_METADATA_FIELDS as readonly string[]).includes(field)) {
      throw new DocTreeError('USAGE', `expected field=value with a field of ${COLLECTION_METADATA_FIELDS.join(', ')}, not "${pair}"`);
    }
    const value = pair.slice(eq + 1).trim();
    if (value === '') patch[field] = undefined;
    else if (field === 'year') {
      if (!/^\d{4}$/.test(value)) throw new DocTreeError('USAGE', `year must be a four-digit year, not "${value}"`);
      patch.year = Number(value);
    } else patch[field] = value;
  }
  return patch;
}

/**
 * Runs `doctree collection <subcommand>`: ingest, sync, status, meta, export-pageindex, import-pageindex. Returns the
 * exit status (a sync with failed documents returns the first failure's status after the others landed). The
 * collection is the folder `--collection-dir` or, with `--store postgres://…` (or `DOCTREE_STORE`), the collection
 * `--collection NAME` of that PostgreSQL store; `ingest|sync --queue URL` enqueues document jobs for workers instead
 * of building here.
 */
export async function collectionCli(io: CliIo, args: readonly string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || !SUBCOMMANDS.has(sub)) throw new DocTreeError('USAGE', sub === undefined ? 'collection needs a subcommand' : `unknown collection subcommand "${sub}"`, { hint: `Usage:\n${COLLECTION_USAGE}` });
  const { values, positionals } = parseCommandArgs(rest, COMMON, COLLECTION_USAGE);
  const config = loadCliConfig(io, values.config as string | undefined, collectionConfigOverrides(values));
  const storeUrl = storeUrlOf(io, values.store);
  const queueUrl = values.queue as string | undefined;
  if (queueUrl !== undefined && sub !== 'ingest' && sub !== 'sync') throw new DocTreeError('USAGE', `--queue is an option of collection ingest and sync, not of ${sub}`);
  if (queueUrl !== undefined && storeUrl === undefined) {
    throw new DocTreeError('USAGE', '--queue needs --store postgres://… (or DOCTREE_STORE): workers on other machines commit to the shared PostgreSQL store', { hint: `Usage:\n${COLLECTION_USAGE}` });
  }
  const collectionDir = values['collection-dir'] as string | undefined;
  const opened = await openCollectionTarget(io, config, { ...(collectionDir !== undefined ? { dir: resolve(io.cwd, collectionDir) } : {}), ...(storeUrl !== undefined ? { storeUrl } : {}), ...(values.collection !== undefined ? { name: values.collection as string } : {}) }, COLLECTION_USAGE);
  try {
    return await runSubcommand(io, sub, values, positionals, opened.collection, { location: opened.location, queueUrl, postgres: opened.postgres });
  } finally {
    await opened.close();
  }
}

/** Where the subcommand's collection is, and the queue of `--queue`. */
interface SubcommandTarget {
  location: string;
  queueUrl: string | undefined;
  postgres: Awaited<ReturnType<typeof openCollectionTarget>>['postgres'];
}

async function runSubcommand(io: CliIo, sub: string, values: Record<string, unknown>, positionals: readonly string[], collection: Collection, target: SubcommandTarget): Promise<number> {
  const json = Boolean(values.json);
  const inputDir = values['input-dir'] !== undefined ? resolve(io.cwd, values['input-dir'] as string) : undefined;
  const recursive = values['no-recursive'] ? { recursive: false } : {};
  // A collection in PostgreSQL is reported by its (redacted) store location, not by the working folder.
  const located = <T extends { collection_dir: string }>(report: T): T => (target.postgres ? { ...report, collection_dir: target.location } : report);
  switch (sub) {
    case 'status': {
      const report = CollectionStatusReportSchema.parse(located(await collection.status(inputDir, recursive)));
      io.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report, await collection.manifest()));
      return 0;
    }
    case 'ingest':
    case 'sync': {
      if (sub === 'ingest' && inputDir === undefined) throw new DocTreeError('USAGE', 'collection ingest needs --input-dir DIR');
      if (target.queueUrl !== undefined && target.postgres) {
        const report = await enqueueCollectionJobs({ mode: sub, queueUrl: target.queueUrl, store: target.postgres.collection, name: target.postgres.name, force: Boolean(values.force), ...recursive, ...(inputDir !== undefined ? { inputDir } : {}) });
        io.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : formatEnqueue(report, target.postgres.name));
        return 0;
      }
      const progress = createProgress(io);
      let status = 0;
      let report: CollectionSyncReport;
      try {
        const options = {
          ...(inputDir !== undefined ? { inputDir } : {}),
          force: Boolean(values.force),
          ...recursive,
          workers: parseJobs(values.jobs as string | undefined),
          waitMs: parseWait(values.wait as string | undefined),
          onProgress: (event: CollectionProgress) => {
            if (event.stage === 'lock-wait') {
              progress.done();
              io.stderr(`doctree: waiting for the collection lock held by ${escapeControlChars(event.holder)}\n`);
              return;
            }
            if (event.stage === 'landed' && !event.ok && event.error) {
              progress.done();
              const exit = reportCommandFailure(event.error, { ...io, stdout: () => undefined }, { program: 'doctree', json: false });
              if (status === 0) status = exit;
              return;
            }
            const line = progressLine(event);
            if (line) progress.update(line);
          },
        };
        report = sub === 'sync' ? await collection.sync(options) : await collection.ingest(options);
      } finally {
        progress.done();
      }
      const checked = CollectionSyncReportSchema.parse(located(report));
      io.stdout(json ? `${JSON.stringify(checked, null, 2)}\n` : formatSync(checked));
      return status;
    }
    case 'meta': {
      const [action, docId, ...pairs] = positionals;
      if (action === 'set' && docId !== undefined && pairs.length > 0) {
        const row = await collection.setMetadata(docId, parseMetadataPairs(pairs), { waitMs: parseWait(values.wait as string | undefined) });
        io.stdout(json ? `${JSON.stringify(row, null, 2)}\n` : `${escapeControlChars(`${row.doc_id}: ${JSON.stringify(row.metadata)}\n  ${row.description}`)}\n`);
        return 0;
      }
      if (action === 'show') {
        const manifest = await collection.manifest();
        const rows = (manifest?.documents ?? []).filter((d) => docId === undefined || d.doc_id === docId);
        if (docId !== undefined && rows.length === 0) throw new DocTreeError('INPUT_NOT_FOUND', `no document ${JSON.stringify(docId)} in this collection`, { file: collection.dir });
        io.stdout(json ? `${JSON.stringify(rows.map((r) => ({ doc_id: r.doc_id, metadata: r.metadata, description: r.description })), null, 2)}\n` : `${escapeControlChars(rows.map((r) => `${r.doc_id}: ${JSON.stringify(r.metadata)}\n  ${r.description}`).join('\n'), { keepLayout: true })}\n`);
        return 0;
      }
      throw new DocTreeError('USAGE', 'expected `collection meta set <doc_id> field=value...` or `collection meta show [doc_id]`', { hint: `Usage:\n${COLLECTION_USAGE}` });
    }
    case 'export-pageindex': {
      const manifest = await collection.manifest();
      const docs = (values.doc as string[] | undefined) ?? (manifest?.documents ?? []).map((d) => d.doc_id);
      const out = values.out as string | undefined;
      if (docs.length > 1 && out === undefined) throw new DocTreeError('USAGE', 'export-pageindex of several documents needs --out DIR', { hint: 'Or pick one with --doc ID (printed on stdout).' });
      const written: string[] = [];
      for (const docId of docs) {
        const tree = PageIndexDocumentSchema.parse(await collection.exportPageIndex(docId));
        const text = `${JSON.stringify(tree, null, 2)}\n`;
        if (out === undefined) {
          io.stdout(text);
          continue;
        }
        const target = docs.length === 1 && out.endsWith('.json') ? resolve(io.cwd, out) : join(resolve(io.cwd, out), `${docId}_structure.json`);
        await writeFileAtomic(target, text);
        written.push(target);
      }
      if (out !== undefined) io.stdout(json ? `${JSON.stringify(written, null, 2)}\n` : `${escapeControlChars(written.map((w) => `wrote ${w}`).join('\n'), { keepLayout: true })}\n`);
      return 0;
    }
    case 'import-pageindex': {
      if (positionals.length === 0) throw new DocTreeError('USAGE', 'import-pageindex needs one or more PageIndex tree files (*_structure.json)');
      const report = CollectionSyncReportSchema.parse(located(await collection.importPageIndex(positionals.map((p) => resolve(io.cwd, p)), { waitMs: parseWait(values.wait as string | undefined) })));
      io.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : formatSync(report));
      for (const f of report.failed) io.stderr(`doctree: ${escapeControlChars(basename(f.path))}: [${f.code}] ${escapeControlChars(f.message)}\n`);
      const code = report.failed[0]?.code;
      return code === undefined ? 0 : Object.hasOwn(DOCTREE_ERROR_CODES, code) ? DOCTREE_ERROR_CODES[code as keyof typeof DOCTREE_ERROR_CODES].exitStatus : 1;
    }
    default:
      return 2;
  }
}
