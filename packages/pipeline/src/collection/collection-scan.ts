import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import { docIdFromFilename, INGESTIBLE_FILE } from '@doctree/ingest';
import { DocTreeError, type CollectionChange, type CollectionManifest, type IngestConfig } from '@doctree/schema';
import { buildSettingsChanged } from './build-settings.js';
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
  /** Why a `modified` file is rebuilt or a failed one is tried again (`new`): its content, or the settings it was built with. */
  reason?: 'content' | 'settings';
}

/** Options of {@link planChanges}. */
export interface PlanChangesOptions {
  /**
   * The ingest settings builds would use now: a document built with other settings (see `buildSettingsChanged`) is
   * `modified` (reason `settings`), a failed file is tried again. Without it only content changes count.
   */
  ingest?: IngestConfig;
  /**
   * Id of the embedder builds would use now: when the manifest's embedder (that of its documents' vectors) is another,
   * every document is `modified` (reason `settings`) — their indexes cannot be queried with this one.
   */
  embedderId?: string;
  /** `config_hash` of the document index builds would make now (with `ingest`: a document indexed otherwise is `modified`). */
  indexConfig?: string;
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

/** Options of {@link scanInputDir}. */
export interface ScanInputDirOptions {
  /**
   * Enter sub-folders (a file's `path` is then relative to the input folder, `/`-separated). Hidden folders (`.name`)
   * are skipped, and so is a folder reached twice (a symlink loop, or a link to a folder already scanned). Default true.
   */
  recursive?: boolean;
  /** Folders never entered (the collection folder, when it lies inside the input folder). Default none. */
  exclude?: readonly string[];
}

/** Defaults of {@link ScanInputDirOptions}. */
export const SCAN_INPUT_DIR_DEFAULTS = { recursive: true, exclude: [] } as const satisfies ScanInputDirOptions;

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The real path of a folder, or undefined when it cannot be resolved (a dangling link). */
async function realFolder(path: string): Promise<string | undefined> {
  return realpath(path).catch(() => undefined);
}

/** True when `path` is `folder` or inside it (both real paths). */
function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

/**
 * The source files of `inputDir` (PDF, Markdown, MinerU `*content_list.json`, PageIndex `*_structure.json`), with its
 * sub-folders unless `recursive` is false (see {@link ScanInputDirOptions}); links are followed to files and to
 * folders outside the input folder. Sorted by path, each with its sha256.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` when the folder does not exist.
 */
export async function scanInputDir(inputDir: string, options: ScanInputDirOptions = {}): Promise<ScannedFile[]> {
  const { recursive, exclude } = { ...SCAN_INPUT_DIR_DEFAULTS, ...options };
  const root = await realFolder(inputDir);
  const excluded = (await Promise.all(exclude.map(realFolder))).filter((p): p is string => p !== undefined && p !== root);
  const visited = new Set<string>(root ? [root] : []);
  const out: ScannedFile[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (cause) {
      if (prefix !== '') return; // a sub-folder that cannot be read is skipped, as a dangling link is
      throw new DocTreeError('INPUT_NOT_FOUND', 'no such input folder', { file: inputDir, cause, hint: 'Pass the folder of PDF / Markdown files with --input-dir.' });
    }
    for (const entry of entries.sort(byName)) {
      const absolute = join(dir, entry.name);
      const path = `${prefix}${entry.name}`;
      if (!entry.isFile() && !entry.isSymbolicLink() && !entry.isDirectory()) continue;
      // A link counts as what it points to; a dangling link is skipped.
      const info = entry.isSymbolicLink() ? await stat(absolute).catch(() => undefined) : undefined;
      if (entry.isDirectory() || info?.isDirectory()) {
        if (!recursive || entry.name.startsWith('.')) continue;
        const real = await realFolder(absolute);
        // Loops and aliases: a folder is entered once; a link to a folder inside the input folder is left to the folder itself.
        if (real === undefined || visited.has(real) || (entry.isSymbolicLink() && root !== undefined && within(real, root))) continue;
        if (excluded.some((e) => within(real, e))) continue;
        visited.add(real);
        await walk(absolute, `${path}/`);
        continue;
      }
      const kind = kindOf(entry.name);
      if (!kind) continue;
      const file = info ?? (await stat(absolute).catch(() => undefined));
      if (!file?.isFile()) continue;
      out.push({ path, absolute, kind, sha256: await sha256Of(absolute), size: file.size, mtime: file.mtime.toISOString() });
    }
  };
  await walk(inputDir, '');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A document id for a source file: from its name — a file in a sub-folder from its relative path, folders joined with
 * `_` (`acme/2023_10k.pdf` → `acme_2023_10k`) —, with `-2`, `-3`… when another path already has it.
 */
export function docIdFor(path: string, taken: ReadonlyMap<string, string>): string {
  const flat = isAbsolute(path) ? path : path.replace(/\//g, '_');
  const base = docIdFromFilename(flat.replace(/_structure\.json$/i, '.json'));
  let id = base;
  for (let n = 2; taken.has(id) && taken.get(id) !== path; n++) id = `${base}-${n}`;
  return id;
}

/**
 * What a sync would do: every scanned file as new, modified (its sha256 differs from the manifest's, or it was built
 * with other settings than `options.ingest` or another embedder than `options.embedderId`), failed (its last build failed and neither it nor the settings changed
 * since) or unchanged, and every manifest row whose file is gone as deleted. Rows imported from outside the input folder
 * (absolute paths) are left alone.
 */
export function planChanges(manifest: CollectionManifest | undefined, files: readonly ScannedFile[], options: PlanChangesOptions = {}): PlannedChange[] {
  const embedderChanged = options.embedderId !== undefined && manifest?.embedder !== undefined && manifest.embedder.id !== options.embedderId;
  const settingsChanged = (recorded: Parameters<typeof buildSettingsChanged>[0]): boolean => embedderChanged || (options.ingest !== undefined && buildSettingsChanged(recorded, options.ingest, options.indexConfig));
  const rows = new Map((manifest?.documents ?? []).map((d) => [d.path, d]));
  const failures = new Map((manifest?.failures ?? []).map((f) => [f.path, f]));
  const taken = new Map((manifest?.documents ?? []).map((d) => [d.doc_id, d.path]));
  const out: PlannedChange[] = [];
  for (const file of files) {
    const row = rows.get(file.path);
    if (row) {
      if (row.sha256 !== file.sha256) out.push({ change: 'modified', doc_id: row.doc_id, path: file.path, file, reason: 'content' });
      else if (settingsChanged(row.build_settings)) out.push({ change: 'modified', doc_id: row.doc_id, path: file.path, file, reason: 'settings' });
      else out.push({ change: 'unchanged', doc_id: row.doc_id, path: file.path, file });
      continue;
    }
    const docId = docIdFor(file.path, taken);
    taken.set(docId, file.path);
    const failure = failures.get(file.path);
    if (failure === undefined) out.push({ change: 'new', doc_id: docId, path: file.path, file });
    else if (failure.sha256 !== file.sha256) out.push({ change: 'new', doc_id: docId, path: file.path, file, reason: 'content' });
    else if (settingsChanged(failure.build_settings)) out.push({ change: 'new', doc_id: docId, path: file.path, file, reason: 'settings' });
    else out.push({ change: 'failed', doc_id: docId, path: file.path, file });
  }
  const present = new Set(files.map((f) => f.path));
  for (const row of manifest?.documents ?? []) {
    if (!present.has(row.path) && !isAbsolute(row.path)) out.push({ change: 'deleted', doc_id: row.doc_id, path: row.path });
  }
  return out;
}
