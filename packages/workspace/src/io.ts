import { randomBytes } from 'node:crypto';
import { appendFile, link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { z } from 'zod';
import { DocTreeError, formatIssues } from '@doctree/schema';
import { writeFileAtomic } from '@doctree/index';

export { writeFileAtomic };

/** Reads and validates a JSON file; `undefined` when it does not exist. */
export async function readJsonIfPresent<T>(file: string, schema: z.ZodType<T>, what: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DocTreeError('INPUT_UNREADABLE', `cannot read the ${what}`, { file, cause: error });
  }
  return parseJsonText(text, file, schema, what);
}

/** Reads and validates a JSON file that must exist (`INDEX_MISSING` with `hint` when it does not). */
export async function readJson<T>(file: string, schema: z.ZodType<T>, what: string, hint: string): Promise<T> {
  const value = await readJsonIfPresent(file, schema, what);
  if (value === undefined) throw new DocTreeError('INDEX_MISSING', `the ${what} does not exist yet`, { file, hint });
  return value;
}

/** Parses JSON text with a schema; a `format`/`version` mismatch is `FORMAT_VERSION_UNSUPPORTED`. */
export function parseJsonText<T>(text: string, file: string, schema: z.ZodType<T>, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('SCHEMA_INVALID', `the ${what} is not valid JSON: ${(cause as Error).message}`, { file, cause });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const versionIssue = parsed.error.issues.find((issue) => issue.path.length === 1 && (issue.path[0] === 'version' || issue.path[0] === 'format'));
    if (versionIssue) {
      throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `the ${what} has an unsupported format or version`, {
        file,
        hint: 'It was written by another version of DocTree; rebuild it with this version.',
      });
    }
    throw new DocTreeError('SCHEMA_INVALID', `the ${what} is invalid: ${formatIssues(parsed.error)}`, { file });
  }
  return parsed.data;
}

/** Reads a JSONL file validating each line; `[]` when it does not exist. */
export async function readJsonLines<T>(file: string, schema: z.ZodType<T>, what: string): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new DocTreeError('INPUT_UNREADABLE', `cannot read the ${what}`, { file, cause: error });
  }
  const out: T[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    out.push(parseJsonText(line, `${file}:${i + 1}`, schema, what));
  }
  return out;
}

/** Writes JSON (two-space indented, trailing newline) atomically. */
export function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  return writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Writes one JSON value per line, atomically. */
export function writeJsonLinesAtomic(file: string, values: readonly unknown[]): Promise<void> {
  return writeFileAtomic(file, values.map((v) => `${JSON.stringify(v)}\n`).join(''));
}

/** Writes `data` to a new file that must not exist: complete content under a temporary name, then a hard link (fails when taken). */
async function createExclusive(path: string, data: string): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await writeFile(tmp, data);
  try {
    await link(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: path });
  } finally {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** Writes a new file that must not exist yet (`IO_WRITE_FAILED` when it does): never overwrites. */
export async function writeExclusive(path: string, data: string): Promise<void> {
  if (!(await createExclusive(path, data))) throw new DocTreeError('IO_WRITE_FAILED', 'the file exists already and is never overwritten', { file: path });
}

/** Versions of `<stem>_vNNN<ext>` files present in `dir`. */
export async function existingVersions(dir: string, stem: string, ext: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const prefix = `${stem}_v`;
  const out: number[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(ext)) continue;
    const digits = name.slice(prefix.length, name.length - ext.length);
    if (/^[0-9]{3,}$/.test(digits)) out.push(Number(digits));
  }
  return out.sort((a, b) => a - b);
}

/** Formats a version number as `vNNN`. */
export function versionLabel(version: number): string {
  return `v${String(version).padStart(3, '0')}`;
}

/** A file written by {@link writeNewVersion}. */
export interface VersionedFile {
  path: string;
  version: number;
  /** The version before it (`null` for v001). */
  previous: number | null;
}

/**
 * Writes `content` as the next `<stem>_vNNN<ext>` in `dir`, never overwriting: the version is claimed atomically (a
 * hard link that fails when the name is taken), so two writers racing get two versions. `content` may depend on the
 * version (it is called once per attempt).
 */
export async function writeNewVersion(dir: string, stem: string, ext: string, content: (version: number) => string): Promise<VersionedFile> {
  await mkdir(dir, { recursive: true });
  const versions = await existingVersions(dir, stem, ext);
  let version = (versions[versions.length - 1] ?? 0) + 1;
  for (let attempt = 0; attempt < 1000; attempt++, version++) {
    const path = join(dir, `${stem}_${versionLabel(version)}${ext}`);
    if (await createExclusive(path, content(version))) return { path, version, previous: version > 1 ? version - 1 : null };
  }
  throw new DocTreeError('IO_WRITE_FAILED', `cannot claim a new version of ${stem}${ext}`, { file: dir });
}

/** One line of `meta/version_log.jsonl`. */
export interface VersionLogEntry {
  timestamp: string;
  command: string;
  /** Path relative to the workspace root. */
  file: string;
  from: string | null;
  to: string;
  reason: string;
}

/** Appends one line to `meta/version_log.jsonl` (a single `appendFile` of one line, so lines never interleave). */
export async function appendVersionLog(root: string, logFile: string, entry: Omit<VersionLogEntry, 'file'> & { file: string }): Promise<void> {
  const line: VersionLogEntry = { ...entry, file: relative(root, entry.file) || entry.file };
  await mkdir(dirname(logFile), { recursive: true });
  await appendFile(logFile, `${JSON.stringify(line)}\n`);
}
