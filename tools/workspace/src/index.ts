/**
 * @doctree/workspace-checks — small, dependency-free helpers behind the workspace-level checks
 * (layering rules and packed-tarball installs). Everything here reads the file system only; nothing
 * writes into the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';

/** The subset of a `package.json` these checks read. */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: unknown;
  files?: string[];
  workspaces?: string[] | { packages?: string[] };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/** Whether a workspace package is a library (`packages/*`), an app (`apps/*`) or anything else. */
export type PackageKind = 'lib' | 'app' | 'other';

/** One npm workspace package of the monorepo. */
export interface WorkspacePackage {
  /** npm name, e.g. `@doctree/schema`. */
  name: string;
  /** Absolute directory of the package. */
  dir: string;
  /** Directory relative to the workspace root, with forward slashes, e.g. `packages/schema`. */
  relativeDir: string;
  /** `lib` for `packages/*`, `app` for `apps/*`, `other` for everything else (e.g. `tools/*`). */
  kind: PackageKind;
  /** The parsed `package.json`. */
  manifest: PackageManifest;
}

/** The dependency fields of a manifest that end up in a published `package.json`. */
export const DEPENDENCY_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'devDependencies',
] as const;

/** A dependency entry whose version spec only works inside this checkout. */
export interface LocalDependencySpec {
  field: (typeof DEPENDENCY_FIELDS)[number];
  name: string;
  spec: string;
}

/**
 * Reads and parses a `package.json`.
 *
 * @param file - absolute path of the `package.json`.
 */
export function readManifest(file: string): PackageManifest {
  return JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
}

/**
 * Finds the workspace root: the closest ancestor of `from` (inclusive) holding an `nx.json`.
 *
 * @param from - a file or directory inside the workspace.
 * @throws Error when no ancestor holds an `nx.json`.
 */
export function findWorkspaceRoot(from: string): string {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No nx.json found above ${from}`);
    dir = parent;
  }
}

function kindOf(relativeDir: string): PackageKind {
  if (relativeDir.startsWith('packages/')) return 'lib';
  if (relativeDir.startsWith('apps/')) return 'app';
  return 'other';
}

/**
 * Lists the npm workspace packages declared in the root `package.json` `workspaces` field.
 * Supports exact directories and single-level `dir/*` patterns (the forms this repo uses),
 * sorted by relative directory.
 *
 * @param root - the workspace root (see {@link findWorkspaceRoot}).
 */
export function listWorkspacePackages(root: string): WorkspacePackage[] {
  const rootManifest = readManifest(join(root, 'package.json'));
  const patterns = Array.isArray(rootManifest.workspaces)
    ? rootManifest.workspaces
    : (rootManifest.workspaces?.packages ?? []);
  const dirs = new Set<string>();
  for (const pattern of patterns) {
    const normalized = posix.normalize(pattern.replace(/\\/g, '/')).replace(/\/$/, '');
    if (normalized.endsWith('/*')) {
      const base = normalized.slice(0, -2);
      if (!existsSync(join(root, base))) continue;
      for (const entry of readdirSync(join(root, base))) {
        const rel = `${base}/${entry}`;
        if (statSync(join(root, rel)).isDirectory() && existsSync(join(root, rel, 'package.json'))) dirs.add(rel);
      }
    } else if (normalized.includes('*')) {
      throw new Error(`Unsupported workspaces pattern "${pattern}" (only "dir" and "dir/*" are handled)`);
    } else if (existsSync(join(root, normalized, 'package.json'))) {
      dirs.add(normalized);
    }
  }
  return [...dirs].sort().map((relativeDir) => {
    const dir = join(root, relativeDir);
    const manifest = readManifest(join(dir, 'package.json'));
    return { name: manifest.name, dir, relativeDir, kind: kindOf(relativeDir), manifest };
  });
}

/**
 * Lists the packages that get published: every workspace package under `packages/` or `apps/`
 * whose `package.json` is not `"private": true`.
 *
 * @param root - the workspace root (see {@link findWorkspaceRoot}).
 */
export function listPublishablePackages(root: string): WorkspacePackage[] {
  return listWorkspacePackages(root).filter((pkg) => pkg.kind !== 'other' && pkg.manifest.private !== true);
}

/**
 * Whether a dependency version spec only resolves inside this checkout (and so breaks for anyone
 * installing the published tarball): `file:`, `link:`, `workspace:`, `portal:` and bare paths.
 *
 * @param spec - the version spec, e.g. `^0.1.0` or `file:../schema`.
 */
export function isLocalDependencySpec(spec: string): boolean {
  return /^(file|link|workspace|portal):/i.test(spec) || /^(\.{1,2}|~)?[\\/]/.test(spec) || /^\.{1,2}$/.test(spec);
}

/**
 * Lists the dependency entries of a manifest whose specs only work inside this checkout.
 *
 * @param manifest - a `package.json`, typically the one inside a packed tarball.
 */
export function localDependencySpecs(manifest: PackageManifest): LocalDependencySpec[] {
  const found: LocalDependencySpec[] = [];
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, spec] of Object.entries(manifest[field] ?? {})) {
      if (isLocalDependencySpec(spec)) found.push({ field, name, spec });
    }
  }
  return found;
}

/**
 * Explains every tarball entry that must not ship. A package may ship `package.json`, `README.md`,
 * `LICENSE` and `dist/**` (apps also `bin/**`); never sources (`src/`, `*.ts` other than `*.d.ts`),
 * specs (`*.spec.*`, `*.test.*`) or TypeScript build info (`*.tsbuildinfo`).
 *
 * @param files - paths inside the tarball relative to the package root (as `npm pack --json` lists them).
 * @param kind - the package kind; only apps may ship `bin/`.
 * @returns one human-readable line per offending entry; empty when the tarball is clean.
 */
export function unexpectedTarballEntries(files: readonly string[], kind: PackageKind): string[] {
  const problems: string[] = [];
  const topLevel = new Set(['package.json', 'README.md', 'LICENSE']);
  for (const raw of files) {
    const file = raw.replace(/\\/g, '/').replace(/^package\//, '');
    const base = file.slice(file.lastIndexOf('/') + 1);
    if (file.startsWith('src/')) problems.push(`${file}: sources must not ship`);
    else if (/\.[cm]?tsx?$/.test(base) && !/\.d\.[cm]?ts$/.test(base)) problems.push(`${file}: TypeScript sources must not ship`);
    else if (/\.(spec|test)\.[^/]*$/.test(base)) problems.push(`${file}: specs must not ship`);
    else if (base.endsWith('.tsbuildinfo')) problems.push(`${file}: TypeScript build info must not ship`);
    else if (topLevel.has(file) || file.startsWith('dist/')) continue;
    else if (kind === 'app' && file.startsWith('bin/')) continue;
    else problems.push(`${file}: not in the allow-list (package.json, README.md, LICENSE, dist/**${kind === 'app' ? ', bin/**' : ''})`);
  }
  return problems;
}

/** Condition names that only make sense inside this workspace and are skipped when checking exports. */
export const WORKSPACE_ONLY_CONDITIONS: readonly string[] = ['@doctree/source'];

/**
 * Collects the file targets a consumer can reach through `main`, `types`, `bin` and the `exports`
 * map, skipping {@link WORKSPACE_ONLY_CONDITIONS} (which point at sources that never ship) and
 * `./package.json`.
 *
 * @param manifest - a `package.json`, typically the one inside a packed tarball.
 * @returns package-relative paths without a leading `./`, deduplicated.
 */
export function publishedEntryPoints(manifest: PackageManifest): string[] {
  const targets = new Set<string>();
  const add = (target: unknown) => {
    if (typeof target === 'string' && !target.includes('*')) targets.add(posix.normalize(target).replace(/^\.\//, ''));
  };
  const walk = (node: unknown) => {
    if (typeof node === 'string') add(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (WORKSPACE_ONLY_CONDITIONS.includes(key)) continue;
        walk(value);
      }
    }
  };
  add(manifest.main);
  add(manifest.types);
  if (typeof manifest.bin === 'string') add(manifest.bin);
  else if (manifest.bin) Object.values(manifest.bin).forEach(add);
  walk(manifest.exports);
  targets.delete('package.json');
  return [...targets].sort();
}

/**
 * Lists the relative module specifiers (`./x`, `../x`) a JavaScript file imports statically or
 * dynamically with a string literal, e.g. `../dist/main.js` in a bin launcher.
 *
 * @param source - the file's text.
 */
export function relativeImportSpecifiers(source: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bimport\s+(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g,
    /\bexport\s+[^'"]*?\s+from\s+['"](\.{1,2}\/[^'"]+)['"]/g,
    /\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) found.add(match[1] as string);
  }
  return [...found].sort();
}

/**
 * Lists the import specifiers a consumer can use for a package: the package name for `"."` plus
 * one `name/sub` per other non-wildcard subpath of the `exports` map (`./package.json` excluded).
 * Without an `exports` map, only the bare package name.
 *
 * @param manifest - a `package.json`.
 * @returns e.g. `['@doctree/index', '@doctree/index/testing']`.
 */
export function importSpecifiers(manifest: PackageManifest): string[] {
  const { exports } = manifest;
  const isSubpathMap =
    exports !== null && typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'));
  if (!isSubpathMap) return [manifest.name];
  return Object.keys(exports)
    .filter((key) => key !== './package.json' && !key.includes('*'))
    .map((key) => (key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`));
}
