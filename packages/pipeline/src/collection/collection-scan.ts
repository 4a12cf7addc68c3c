import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { docIdFromFilename, INGESTIBLE_FILE } from '@doctree/ingest';
import { DocTreeError, type CollectionChange, type CollectionManifest } from '@doctree/schema';
import { PAGEINDEX_FILE } from './pageindex.js';

/** A source file found in the input folder. */
export interface ScannedFile {
  /** Path relative to the input folder (`/`-separated). */
  path: string;
  absolute: string;
  kind: 'pdf' | 'mineru' | 'markdown' | 'pageindex';
  sha256: string;
  size: number;
  mtime: string;
}

/** One line of a collection's status. */
export interface PlannedChange {
  change: CollectionChange;
  doc_id: string;
  path: string;
  file?: ScannedFile;
}

function kindOf(name: string): ScannedFile['kind'] | undefined {
  if (PAGEINDEX_FILE.test(name)) return 'pageindex';
  if (!INGESTIBLE_FILE.test(name)) return undefined;
  if (/\.pdf$/i.test(name)) return 'pdf';
  if (/content_list\.json$/i.test(name)) return 'mineru';
  return 'markdown';
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The source files directly inside `inputDir` (PDF, Markdown, MinerU `*content_list.json`, PageIndex
 * `*_structure.json`; sub-folders are not entered, links are followed to files), sorted by name, each with its sha256.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` when the folder does not exist.
 */
export async function scanInputDir(inputDir: string): Promise<ScannedFile[]> {
  let entries;
  try {
    entries = await readdir(inputDir, { withFileTypes: true });
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'no such input folder', { file: inputDir, cause, hint: 'Pass the folder of PDF / Markdown files with --input-dir.' });
  }
  const out: ScannedFile[] = [];
  for (const entry of entries.filter((e) => e.isFile() || e.isSymbolicLink()).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const kind = kindOf(entry.name);
    if (!kind) continue;
    const absolute = join(inputDir, entry.name);
    // A link counts as the file it points to; a dangling link or a link to a folder is skipped.
    const info = await stat(absolute).catch(() => undefined);
    if (!info?.isFile()) continue;
    out.push({ path: entry.name, absolute, kind, sha256: await sha256Of(absolute), size: info.size, mtime: info.mtime.toISOString() });
  }
  return out;
}

/** A document id for a source file: from its name, with `-2`, `-3`… when another path already has it. */
export function docIdFor(path: string, taken: ReadonlyMap<string, string>): string {
  const base = docIdFromFilename(path.replace(/_structure\.json$/i, '.json'));
  let id = base;
  for (let n = 2; taken.has(id) && taken.get(id) !== path; n++) id = `${base}-${n}`;
  return id;
}

/**
 * What a sync would do: every scanned file as new, modified (its sha256 differs from the manifest's), failed (its
 * last build failed and it has not changed since) or unchanged, and every manifest row whose file is gone as deleted.
 * Rows imported from outside the input folder (absolute paths) are left alone.
 */
export function planChanges(manifest: CollectionManifest | undefined, files: readonly ScannedFile[]): PlannedChange[] {
  const rows = new Map((manifest?.documents ?? []).map((d) => [d.path, d]));
  const failures = new Map((manifest?.failures ?? []).map((f) => [f.path, f]));
  const taken = new Map((manifest?.documents ?? []).map((d) => [d.doc_id, d.path]));
  const out: PlannedChange[] = [];
  for (const file of files) {
    const row = rows.get(file.path);
    if (row) {
      out.push({ change: row.sha256 === file.sha256 ? 'unchanged' : 'modified', doc_id: row.doc_id, path: file.path, file });
      continue;
    }
    const docId = docIdFor(file.path, taken);
    taken.set(docId, file.path);
    out.push({ change: failures.get(file.path)?.sha256 === file.sha256 ? 'failed' : 'new', doc_id: docId, path: file.path, file });
  }
  const present = new Set(files.map((f) => f.path));
  for (const row of manifest?.documents ?? []) {
    if (!present.has(row.path) && !isAbsolute(row.path)) out.push({ change: 'deleted', doc_id: row.doc_id, path: row.path });
  }
  return out;
}
