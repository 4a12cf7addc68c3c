import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DocTreeError } from '@doctree/schema';

/** File whose presence marks a prepared document folder (`@doctree/ingest` `DOC_FILES.tree`). */
export const DOCUMENT_TREE_FILE = 'doctree.mm.json';

/** What {@link assertOutputTarget} checks. */
export interface OutputTargetCheck {
  /** The option that names the target, for the message (`--trace`, `--out`). */
  option: string;
  /** Absolute path the command would write (a file, or a folder it writes into). */
  target: string;
  /** Files and folders the command reads: writing over one of them is refused. */
  inputs?: readonly string[];
  /**
   * Document folders known to the caller (e.g. the folder a file is ingested into, which may not exist yet): writing
   * inside one is refused, as is writing inside any existing folder that holds {@link DOCUMENT_TREE_FILE}.
   */
  documentDirs?: readonly string[];
  /** An example of a good value, for the hint (`--trace trace.json`). */
  example?: string;
}

/** The real path of `path`, also when it (or its parents) does not exist yet: symbolic links of what exists are resolved. */
export function realPathOf(path: string): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      return join(realpathSync(existing), ...missing.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      missing.push(basename(existing));
      existing = parent;
    }
  }
}

/** True when `path` is `folder` or lies inside it (both real paths). */
export function isInsideFolder(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The nearest folder at or above `path` that holds {@link DOCUMENT_TREE_FILE}, or undefined. */
export function enclosingDocumentDir(path: string): string | undefined {
  let dir = path;
  for (;;) {
    if (existsSync(join(dir, DOCUMENT_TREE_FILE))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Refuses an output path that would destroy what the command reads or has prepared: the input file itself (compared
 * by real path, so `./a.pdf`, `a.pdf` and a link to it are the same) or anything inside a prepared document's folder
 * (`doctree.mm.json`, the content lists, `index/`…). Every command's output options (`ask --trace`, `ingest --out`,
 * `index --out`, `eval --out`) go through this one check.
 *
 * @throws DocTreeError `USAGE` naming the option, the target and what it would overwrite, with a hint.
 */
export function assertOutputTarget(check: OutputTargetCheck): void {
  const target = realPathOf(check.target);
  const hint = `Choose a path outside the inputs and the document folders${check.example ? `, e.g. ${check.example}` : ''}.`;
  for (const input of check.inputs ?? []) {
    if (realPathOf(input) === target) {
      throw new DocTreeError('USAGE', `${check.option} ${check.target} is the input ${input}; writing there would overwrite it`, { file: check.target, hint });
    }
  }
  const known = (check.documentDirs ?? []).map(realPathOf).find((dir) => isInsideFolder(target, dir));
  const docDir = known ?? enclosingDocumentDir(target);
  if (docDir !== undefined) {
    throw new DocTreeError('USAGE', `${check.option} ${check.target} is inside the document folder ${docDir}; writing there would overwrite the document's artifacts`, {
      file: check.target,
      hint,
    });
  }
}

/**
 * Names the cache folder in a failure to write it: a write error (`IO_WRITE_FAILED`, or a raw file-system error)
 * on a path inside `cacheDir` becomes `IO_WRITE_FAILED` about the cache folder, with its path in the message and the
 * hint, instead of the generic output-folder hint. Anything else is returned unchanged.
 */
export function explainCacheFailure(error: unknown, cacheDir: string): unknown {
  const file = DocTreeError.isInstance(error) ? (error.code === 'IO_WRITE_FAILED' ? error.file : undefined) : pathOfSystemError(error);
  if (file === undefined || !isInsideFolder(realPathOf(file), realPathOf(cacheDir))) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new DocTreeError('IO_WRITE_FAILED', `cannot write to the cache folder ${cacheDir}: ${reason}`, {
    file,
    cause: error,
    hint: `Check free space and write permission of the cache folder ${cacheDir} (LLM summaries and embeddings are cached there; it is <data_dir>/.cache: set data_dir in doctree.config.json or DOCTREE_DATA_DIR to move it).`,
  });
}

const pathOfSystemError = (error: unknown): string | undefined => {
  const path = typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).path : undefined;
  return typeof path === 'string' ? path : undefined;
};
