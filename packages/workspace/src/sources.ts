import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { DocTreeError, yearMentions } from '@doctree/schema';
import { docIdFromFilename } from '@doctree/ingest';
import { INSTRUCTION_KINDS, type WorkspacePaths } from './layout.js';
import { isCalendarDate, isPartialDate } from './project.js';

/** Version of `meta/sources.json`. */
export const SOURCES_FORMAT_VERSION = 1 as const;

/** Where a source came from: `raw/evidence` (citable by default) or `raw/instruction/**` (never citable). */
export const SourceTypeSchema = z.enum(['evidence', 'instruction']);
/** Source type. */
export type SourceType = z.infer<typeof SourceTypeSchema>;

const calendarDate = z.string().refine(isCalendarDate, 'expected a calendar date YYYY-MM-DD');
const partialDate = z.string().refine(isPartialDate, 'expected YYYY, YYYY-MM or YYYY-MM-DD');

/** One document of the workspace: document-level fields of every evidence entry. */
export const SourceRecordSchema = z
  .object({
    /** Unique id, from the file name (a suffix `-2`, `-3`… when two files give the same one). */
    doc_uid: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/),
    /** Path under the workspace root (forward slashes). The file is never moved or renamed. */
    raw_path: z.string().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    bytes: z.number().int().nonnegative(),
    source_type: SourceTypeSchema,
    /** `document` / `references` for evidence, the instruction kind (`guidance`, `feedback`, `slides`, `exemplars`) otherwise. */
    source_subtype: z.string().min(1),
    citable: z.boolean(),
    citation_key: z.string().regex(/^[A-Za-z][A-Za-z0-9_:-]*$/),
    title: z.string().nullable(),
    authors: z.array(z.string()),
    publisher: z.string().nullable(),
    url: z.string().nullable(),
    /** When the file was first registered (ISO timestamp). */
    captured_at: z.string().min(1),
    accessed_at: calendarDate.nullable(),
    published_date: partialDate.nullable(),
    /** False when the file has gone from `raw/` (the record is kept, the document is no longer searched). */
    present: z.boolean(),
    /** Increases with every change of the record. */
    revision: z.number().int().min(1),
    /**
     * The document id in the workspace's DocTree collection when the source is a collection document (then `raw_path`
     * is the file the collection was built from, and the collection, not `raw/`, holds its pages).
     */
    collection_doc_id: z.string().min(1).optional(),
  })
  .strict();
/** One document of the registry. */
export type SourceRecord = z.infer<typeof SourceRecordSchema>;

/** `meta/sources.json`: the typed sources registry. */
export const SourcesFileSchema = z.object({
  format: z.literal('doctree.workspace-sources'),
  version: z.literal(SOURCES_FORMAT_VERSION),
  sources: z.array(SourceRecordSchema),
});
/** `meta/sources.json`. */
export type SourcesFile = z.infer<typeof SourcesFileSchema>;

/** Files a workspace reads (others under `raw/` are listed as skipped). */
export const SOURCE_EXTENSIONS = ['.pdf', '.md', '.markdown'] as const;

/** What a registry scan changed. */
export interface SourceScan {
  sources: SourceRecord[];
  added: string[];
  changed: string[];
  missing: string[];
  /** Files under `raw/` that were not registered, with the reason. */
  skipped: Array<{ path: string; reason: string }>;
}

async function walk(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new DocTreeError('INPUT_UNREADABLE', 'cannot list the folder', { file: dir, cause: error });
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** `northwind-annual-report-2023` → `northwindAnnualReport2023` (BibTeX-safe). */
export function citationKeyFor(docUid: string): string {
  const parts = docUid.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const key = parts.map((p, i) => (i === 0 ? p.toLowerCase() : p.charAt(0).toUpperCase() + p.slice(1).toLowerCase())).join('');
  return /^[A-Za-z]/.test(key) ? key : `doc${key.charAt(0).toUpperCase()}${key.slice(1)}`;
}

/** A four-digit year (1900–2099) in a file name, as a first guess of the publication date. */
function yearOf(name: string): string | null {
  return yearMentions(name, { boundary: 'digits' })[0]?.text ?? null;
}

function classify(rel: string): { type: SourceType; subtype: string } | { skip: string } {
  const parts = rel.split('/');
  if (parts[0] !== 'raw') return { skip: 'outside raw/' };
  if (parts[1] === 'evidence') return { type: 'evidence', subtype: 'document' };
  if (parts[1] === 'instruction') {
    const kind = parts[2];
    if (kind !== undefined && (INSTRUCTION_KINDS as readonly string[]).includes(kind) && parts.length > 3) return { type: 'instruction', subtype: kind };
    return { skip: `instruction files go under raw/instruction/{${INSTRUCTION_KINDS.join(',')}}/` };
  }
  return { skip: 'put evidence under raw/evidence/ and instruction material under raw/instruction/<kind>/' };
}

/**
 * Scans `raw/` and updates the registry: new files are added (evidence citable, instruction never), files whose
 * content changed get their hash updated (revision + 1), files that are gone are marked `present: false`. Records are
 * matched by path; user-set fields (citation key, dates, publisher…) are kept.
 */
export async function scanSources(paths: WorkspacePaths, previous: readonly SourceRecord[], now: Date): Promise<SourceScan> {
  const files = await walk(paths.raw);
  const byPath = new Map(previous.filter((s) => s.collection_doc_id === undefined).map((s) => [s.raw_path, s] as const));
  const usedUids = new Set(previous.map((s) => s.doc_uid));
  const usedKeys = new Set(previous.map((s) => s.citation_key));
  const seen = new Set<string>();
  const result: SourceScan = { sources: [], added: [], changed: [], missing: [], skipped: [] };
  const updated = new Map<string, SourceRecord>();
  for (const file of files) {
    const rel = relative(paths.root, file).split(sep).join('/');
    const ext = extname(file).toLowerCase();
    if (!(SOURCE_EXTENSIONS as readonly string[]).includes(ext)) {
      result.skipped.push({ path: rel, reason: `not a PDF or Markdown file (${ext || 'no extension'})` });
      continue;
    }
    const kind = classify(rel);
    if ('skip' in kind) {
      result.skipped.push({ path: rel, reason: kind.skip });
      continue;
    }
    const info = await stat(file);
    const sha256 = createHash('sha256').update(await readFile(file)).digest('hex');
    seen.add(rel);
    const old = byPath.get(rel);
    if (old) {
      if (old.sha256 !== sha256 || !old.present) {
        updated.set(rel, { ...old, sha256, bytes: info.size, present: true, revision: old.revision + 1 });
        result.changed.push(old.doc_uid);
      }
      continue;
    }
    const base = docIdFromFilename(file);
    let uid = base;
    for (let n = 2; usedUids.has(uid); n++) uid = `${base}-${n}`;
    usedUids.add(uid);
    let key = citationKeyFor(uid);
    const baseKey = key;
    for (let n = 2; usedKeys.has(key); n++) key = `${baseKey}${n}`;
    usedKeys.add(key);
    const record: SourceRecord = {
      doc_uid: uid,
      raw_path: rel,
      sha256,
      bytes: info.size,
      source_type: kind.type,
      source_subtype: kind.subtype,
      citable: kind.type === 'evidence',
      citation_key: key,
      title: null,
      authors: [],
      publisher: null,
      url: null,
      captured_at: now.toISOString(),
      accessed_at: null,
      published_date: yearOf(file.slice(file.lastIndexOf(sep) + 1)),
      present: true,
      revision: 1,
    };
    updated.set(rel, record);
    result.added.push(uid);
  }
  for (const old of previous) {
    if (old.collection_doc_id !== undefined) {
      // A collection document: kept in step by syncCollectionSources, not by the files under raw/.
      result.sources.push(old);
      continue;
    }
    const next = updated.get(old.raw_path);
    if (next) {
      result.sources.push(next);
      updated.delete(old.raw_path);
    } else if (!seen.has(old.raw_path) && old.present) {
      result.sources.push({ ...old, present: false, revision: old.revision + 1 });
      result.missing.push(old.doc_uid);
    } else result.sources.push(old);
  }
  result.sources.push(...updated.values());
  return result;
}

/** Fields `workspace meta set` changes. */
export interface SourceMetaUpdate {
  accessed_at?: string;
  published_date?: string;
  citation_key?: string;
  title?: string;
  publisher?: string;
  url?: string;
  authors?: string[];
  citable?: boolean;
  source_subtype?: string;
}

/**
 * Applies `update` to one record after checking it: real calendar dates (an access date not after `today`), a
 * unique citation key, `citable: true` only for evidence.
 *
 * @throws DocTreeError `USAGE` naming the field.
 */
export function applySourceMeta(sources: readonly SourceRecord[], docUid: string, update: SourceMetaUpdate, today: Date): SourceRecord {
  const record = sources.find((s) => s.doc_uid === docUid);
  if (!record) {
    throw new DocTreeError('USAGE', `no source with doc_uid "${docUid}"`, {
      hint: `Known doc_uids: ${sources.map((s) => s.doc_uid).join(', ') || '(none: run workspace parse after putting files under raw/)'}`,
    });
  }
  if (update.accessed_at !== undefined) {
    if (!isCalendarDate(update.accessed_at)) throw new DocTreeError('USAGE', `--accessed-at must be a calendar date YYYY-MM-DD, not "${update.accessed_at}"`);
    if (update.accessed_at > today.toISOString().slice(0, 10)) throw new DocTreeError('USAGE', `--accessed-at ${update.accessed_at} is in the future`);
  }
  if (update.published_date !== undefined && !isPartialDate(update.published_date)) {
    throw new DocTreeError('USAGE', `--published-date must be YYYY, YYYY-MM or YYYY-MM-DD, not "${update.published_date}"`);
  }
  if (update.citation_key !== undefined) {
    if (!/^[A-Za-z][A-Za-z0-9_:-]*$/.test(update.citation_key)) throw new DocTreeError('USAGE', `--citation-key must start with a letter and use letters, digits, _ : -`);
    const clash = sources.find((s) => s.citation_key === update.citation_key && s.doc_uid !== docUid);
    if (clash) throw new DocTreeError('USAGE', `citation key "${update.citation_key}" is already used by ${clash.doc_uid}`);
  }
  if (update.citable === true && record.source_type !== 'evidence') {
    throw new DocTreeError('USAGE', `${docUid} is instruction material (${record.raw_path}) and can never be cited`, { hint: 'Only files under raw/evidence/ are citable.' });
  }
  if (update.url !== undefined && update.url !== '' && !/^https?:\/\/\S+$/.test(update.url)) throw new DocTreeError('USAGE', `--url must be an http(s) address`);
  const next: SourceRecord = { ...record, revision: record.revision + 1 };
  if (update.accessed_at !== undefined) next.accessed_at = update.accessed_at;
  if (update.published_date !== undefined) next.published_date = update.published_date;
  if (update.citation_key !== undefined) next.citation_key = update.citation_key;
  if (update.title !== undefined) next.title = update.title || null;
  if (update.publisher !== undefined) next.publisher = update.publisher || null;
  if (update.url !== undefined) next.url = update.url || null;
  if (update.authors !== undefined) next.authors = update.authors;
  if (update.citable !== undefined) next.citable = update.citable;
  if (update.source_subtype !== undefined) next.source_subtype = update.source_subtype;
  return SourceRecordSchema.parse(next);
}

/** One document of a DocTree collection, as {@link syncCollectionSources} registers it. */
export interface CollectionSourceDocument {
  /** The collection's document id. */
  doc_id: string;
  /** The file the collection built it from. */
  path: string;
  sha256: string;
  bytes: number;
  /** Title from the collection's metadata. */
  title?: string | null;
  /** Publication year from the collection's metadata. */
  year?: number | null;
}

/**
 * The doc_uid of a collection document: its collection id when that is a valid doc_uid not used by another source,
 * else a slug of it with `-2`, `-3`… (the mapping is kept in the record's `collection_doc_id`).
 */
export function collectionDocUid(docId: string, used: ReadonlySet<string>): string {
  const base = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(docId) ? docId : docIdFromFilename(docId).slice(0, 120);
  let uid = base;
  for (let n = 2; used.has(uid); n++) uid = `${base}-${n}`;
  return uid;
}

/**
 * Keeps the collection documents of the registry in step with a collection: new documents are added (evidence,
 * `source_subtype` `collection`, citable), a document whose file changed gets its hash updated (revision + 1), a
 * document gone from the collection is marked `present: false`. Records are matched by `collection_doc_id`; fields the
 * user set (citable, citation key, dates…) are kept. Other records are returned unchanged.
 */
export function syncCollectionSources(previous: readonly SourceRecord[], docs: readonly CollectionSourceDocument[], now: Date): SourceScan {
  const byDocId = new Map(previous.filter((s) => s.collection_doc_id !== undefined).map((s) => [s.collection_doc_id!, s] as const));
  const usedUids = new Set(previous.map((s) => s.doc_uid));
  const usedKeys = new Set(previous.map((s) => s.citation_key));
  const current = new Map(docs.map((d) => [d.doc_id, d] as const));
  const result: SourceScan = { sources: [], added: [], changed: [], missing: [], skipped: [] };
  for (const old of previous) {
    if (old.collection_doc_id === undefined) {
      result.sources.push(old);
      continue;
    }
    const doc = current.get(old.collection_doc_id);
    if (!doc) {
      result.sources.push(old.present ? { ...old, present: false, revision: old.revision + 1 } : old);
      if (old.present) result.missing.push(old.doc_uid);
    } else if (doc.sha256 !== old.sha256 || !old.present) {
      result.sources.push({ ...old, sha256: doc.sha256, bytes: doc.bytes, raw_path: doc.path, present: true, revision: old.revision + 1 });
      result.changed.push(old.doc_uid);
    } else result.sources.push(old);
  }
  for (const doc of docs) {
    if (byDocId.has(doc.doc_id)) continue;
    const uid = collectionDocUid(doc.doc_id, usedUids);
    usedUids.add(uid);
    let key = citationKeyFor(uid);
    const baseKey = key;
    for (let n = 2; usedKeys.has(key); n++) key = `${baseKey}${n}`;
    usedKeys.add(key);
    result.sources.push(
      SourceRecordSchema.parse({
        doc_uid: uid,
        raw_path: doc.path,
        sha256: doc.sha256,
        bytes: doc.bytes,
        source_type: 'evidence',
        source_subtype: 'collection',
        citable: true,
        citation_key: key,
        title: doc.title ?? null,
        authors: [],
        publisher: null,
        url: null,
        captured_at: now.toISOString(),
        accessed_at: null,
        published_date: doc.year !== undefined && doc.year !== null && doc.year >= 1000 && doc.year <= 9999 ? String(doc.year) : null,
        present: true,
        revision: 1,
        collection_doc_id: doc.doc_id,
      } satisfies SourceRecord),
    );
    result.added.push(uid);
  }
  return result;
}

/** The year of a source's publication date, when known. */
export function sourceYear(source: SourceRecord): number | null {
  return source.published_date ? Number(source.published_date.slice(0, 4)) : null;
}
