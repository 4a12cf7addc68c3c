import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

/** The DocTree packages whose code decides a built-in evaluation system's answers. */
export const DOCTREE_CODE_PACKAGES = ['@doctree/schema', '@doctree/ingest', '@doctree/index', '@doctree/toolhub', '@doctree/agents', '@doctree/rag-baseline', '@doctree/pipeline'] as const;

const CODE_FILE = /\.(?:[cm]?js|ts|json)$/;
const SKIP = /(?:\.spec\.|\.d\.ts$|\.map$|tsbuildinfo)/;

function codeFiles(dir: string, out: string[] = [], depth = 0): string[] {
  if (depth > 8) return out;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== '__fixtures__' && entry.name !== 'word-vectors') codeFiles(path, out, depth + 1);
    } else if (CODE_FILE.test(entry.name) && !SKIP.test(entry.name)) out.push(path);
  }
  return out;
}

/**
 * A short sha256 per package of the code that runs: every JavaScript / TypeScript / JSON file under the folder of the
 * package's entry point (its `dist`, or `src` where sources run directly), resolved from `from`. A package that does not
 * resolve is `unresolved`. Versions alone would miss work-in-progress builds, which all say 0.1.0.
 *
 * @param packages - Package names.
 * @param from - A file or folder path to resolve them from.
 */
export function codeFingerprintOf(packages: readonly string[], from: string): Record<string, string> {
  const require = createRequire(join(from, 'noop.js'));
  const out: Record<string, string> = {};
  for (const name of packages) {
    let entry: string;
    try {
      entry = require.resolve(name);
    } catch {
      out[name] = 'unresolved';
      continue;
    }
    const root = dirname(entry);
    const hash = createHash('sha256');
    for (const file of codeFiles(root)) {
      hash.update(relative(root, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
    out[name] = hash.digest('hex').slice(0, 16);
  }
  return out;
}

let cached: Record<string, string> | undefined;

/**
 * {@link codeFingerprintOf} the {@link DOCTREE_CODE_PACKAGES}, resolved from the working directory (else from the running
 * script), computed once per process. Built-in evaluation systems put it in their description's `code`, so a rerun after
 * DocTree's code changed answers again instead of resuming.
 */
export function doctreeCodeFingerprint(): Record<string, string> {
  if (cached) return cached;
  const fromCwd = codeFingerprintOf(DOCTREE_CODE_PACKAGES, process.cwd());
  const script = process.argv[1];
  cached = Object.values(fromCwd).every((v) => v === 'unresolved') && script !== undefined ? codeFingerprintOf(DOCTREE_CODE_PACKAGES, dirname(script)) : fromCwd;
  return cached;
}
