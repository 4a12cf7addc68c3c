/**
 * `engines.node` tells the truth: no workspace package (libraries, apps, tools, the root) declares a Node range looser
 * than what one of its runtime dependencies declares — dependencies, optional dependencies and peer dependencies,
 * followed transitively through the installed `node_modules` (workspace packages included). A dependency whose
 * declared range is stricter than ours is allowed only through an entry of {@link ENGINE_EXCEPTIONS}, which names the
 * range it declares (so a new release that changes it is reviewed again) and the range we have checked it works on.
 * Every declared range must also include the Node that runs this check (the CI's), so what we declare never makes our
 * own CI unsupported.
 *
 * Ranges are compared as sets of versions (`>=`, `>`, `<=`, `<`, `=`, `^`, `~`, x-ranges, hyphen ranges, `||`; no
 * prerelease tags): ours must be a subset of each dependency's.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findWorkspaceRoot, listWorkspacePackages, readManifest } from './index.js';
import type { PackageManifest } from './index.js';

const root = findWorkspaceRoot(__dirname);

/**
 * Dependencies that declare a stricter Node range than ours, accepted on a range we have verified. Keep this list
 * short and every reason checkable.
 */
const ENGINE_EXCEPTIONS: ReadonlyArray<{ dependency: string; declares: string; supported: string; reason: string }> = [
  {
    dependency: 'unpdf',
    declares: '>=22',
    supported: '^20.16.0 || >=22.3.0',
    reason:
      'Its bundled pdf.js polyfills what Node 20 lacks (Promise.withResolvers, Promise.try, Map#getOrInsertComputed) and ' +
      'needs process.getBuiltinModule (Node 20.16+, 22.3+); the paths DocTree uses (getDocument on bytes, text content, ' +
      'operator lists, rendering through @napi-rs/canvas) run in CI on Node 20 (the ingest specs and the reliability suite). ' +
      'Not used: XFA images and signature checks (Uint8Array.fromBase64).',
  },
  {
    dependency: 'openai',
    declares: '>=22.0.0',
    supported: '^20.16.0 || >=22.3.0',
    reason:
      'A support policy (7.0.0: "require Node.js 22"), not a language feature: the client uses fetch, streams and a ' +
      'guarded process.getBuiltinModule. DocTree calls chat completions and embeddings only, run in CI on Node 20 ' +
      'against the scripted OpenAI-compatible server of the agents and index specs.',
  },
  {
    dependency: '@langchain/openai',
    declares: '>=22',
    supported: '^20.16.0 || >=22.3.0',
    reason: 'Follows openai (above); DocTree uses ChatOpenAI and OpenAIEmbeddings, run in CI on Node 20 by the same specs.',
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Node version ranges as unions of half-open intervals [from, to) over versions encoded as numbers.

type Interval = readonly [number, number];
const INFINITY = Number.POSITIVE_INFINITY;
const encode = (major: number, minor: number, patch: number): number => major * 1e6 + minor * 1e3 + patch;

interface Partial3 {
  parts: number[]; // 0–3 numbers; fewer means x-range
}

function parseVersion(text: string): Partial3 {
  const cleaned = text.trim().replace(/^v/, '');
  if (cleaned === '' || cleaned === '*' || cleaned === 'x' || cleaned === 'X') return { parts: [] };
  const parts: number[] = [];
  for (const piece of cleaned.split('-')[0]!.split('.')) {
    if (piece === 'x' || piece === 'X' || piece === '*') break;
    if (!/^\d+$/.test(piece)) throw new Error(`not a version: ${JSON.stringify(text)}`);
    parts.push(Number(piece));
  }
  if (parts.length > 3) throw new Error(`not a version: ${JSON.stringify(text)}`);
  return { parts };
}

/** Lowest version of a partial version, and the first version above it (`1.2` → [1.2.0, 1.3.0)). */
function bounds({ parts }: Partial3): Interval {
  const [a = 0, b = 0, c = 0] = parts;
  if (parts.length === 0) return [0, INFINITY];
  if (parts.length === 1) return [encode(a, 0, 0), encode(a + 1, 0, 0)];
  if (parts.length === 2) return [encode(a, b, 0), encode(a, b + 1, 0)];
  return [encode(a, b, c), encode(a, b, c) + 1];
}

function comparator(op: string, version: string): Interval {
  const v = parseVersion(version);
  const [low, high] = bounds(v);
  const [a = 0, b = 0] = v.parts;
  switch (op) {
    case '>=':
      return [low, INFINITY];
    case '>':
      return [high, INFINITY];
    case '<=':
      return [0, high];
    case '<':
      return [0, low];
    case '^':
      if (v.parts.length === 0) return [0, INFINITY];
      if (a > 0 || v.parts.length === 1) return [low, encode(a + 1, 0, 0)];
      if (b > 0 || v.parts.length === 2) return [low, encode(0, b + 1, 0)];
      return [low, high];
    case '~':
      if (v.parts.length <= 1) return [low, high];
      return [low, encode(a, b + 1, 0)];
    default:
      return [low, high];
  }
}

function intersect(a: Interval, b: Interval): Interval | undefined {
  const from = Math.max(a[0], b[0]);
  const to = Math.min(a[1], b[1]);
  return from < to ? [from, to] : undefined;
}

/** The versions a range allows, as sorted, merged intervals. */
function parseNodeRange(range: string): Interval[] {
  const intervals: Interval[] = [];
  for (const alternative of range.split('||')) {
    const text = alternative.trim();
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    if (hyphen) {
      intervals.push([bounds(parseVersion(hyphen[1]!))[0], bounds(parseVersion(hyphen[2]!))[1]]);
      continue;
    }
    let current: Interval | undefined = [0, INFINITY];
    const tokens = text.replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter((t) => t !== '');
    if (tokens.length === 0) tokens.push('*');
    for (const token of tokens) {
      const match = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(token)!;
      current = current && intersect(current, comparator(match[1] ?? '=', match[2]!));
    }
    if (current) intervals.push(current);
  }
  intervals.sort((x, y) => x[0] - y[0]);
  const merged: Array<[number, number]> = [];
  for (const [from, to] of intervals) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** True when every version `inner` allows is allowed by `outer`. */
function rangeWithin(inner: string, outer: string): boolean {
  const allowed = parseNodeRange(outer);
  return parseNodeRange(inner).every(([from, to]) => allowed.some(([a, b]) => a <= from && to <= b));
}

/** True when `range` allows `version` (e.g. `process.version`). */
function rangeAllows(range: string, version: string): boolean {
  const [a = 0, b = 0, c = 0] = parseVersion(version).parts;
  const v = encode(a, b, c);
  return parseNodeRange(range).some(([from, to]) => from <= v && v < to);
}

// ---------------------------------------------------------------------------------------------------------------
// The installed dependency closure of a package.

interface InstalledDependency {
  name: string;
  version: string;
  node: string | undefined;
  /** How it is reached from the package, e.g. `@doctree/index → @langchain/openai → openai`. */
  path: string[];
}

function findInstalled(fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return realpathSync(manifest);
    if (dirname(dir) === dir) return undefined;
  }
}

function runtimeDependencyNames(manifest: PackageManifest, thirdParty: boolean): string[] {
  const meta = (manifest['peerDependenciesMeta'] ?? {}) as Record<string, { optional?: boolean }>;
  const peers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => !thirdParty || meta[name]?.optional !== true);
  return [...new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {}), ...peers])];
}

function installedClosure(packageDir: string, manifest: PackageManifest): InstalledDependency[] {
  const seen = new Map<string, InstalledDependency>();
  const queue: Array<{ dir: string; manifest: PackageManifest; path: string[]; thirdParty: boolean }> = [{ dir: packageDir, manifest, path: [], thirdParty: false }];
  while (queue.length > 0) {
    const { dir, manifest: current, path, thirdParty } = queue.shift()!;
    for (const name of runtimeDependencyNames(current, thirdParty)) {
      const file = findInstalled(dir, name);
      if (file === undefined || seen.has(file)) continue; // an optional package that is not installed
      const dependency = JSON.parse(readFileSync(file, 'utf8')) as PackageManifest & { engines?: { node?: string } };
      const entry = { name: dependency.name, version: dependency.version, node: dependency.engines?.node, path: [...path, dependency.name] };
      seen.set(file, entry);
      queue.push({ dir: dirname(file), manifest: dependency, path: entry.path, thirdParty: !dependency.name.startsWith('@doctree/') });
    }
  }
  return [...seen.values()];
}

function nodeEngines(manifest: PackageManifest): string | undefined {
  return (manifest['engines'] as { node?: string } | undefined)?.node;
}

/** What a dependency asks of us: its declared range, or the exception's verified range. */
function requiredRange(dependency: InstalledDependency): { range: string; exception: boolean } | undefined {
  if (dependency.node === undefined) return undefined;
  const exception = ENGINE_EXCEPTIONS.find((e) => e.dependency === dependency.name && e.declares === dependency.node);
  return exception ? { range: exception.supported, exception: true } : { range: dependency.node, exception: false };
}

describe('Node version ranges', () => {
  it('compares ranges as sets of versions', () => {
    expect(rangeWithin('>=22', '>=20.12')).toBe(true);
    expect(rangeWithin('>=20.12', '>=22')).toBe(false);
    expect(rangeWithin('^20.16.0 || >=22.3.0', '>=20')).toBe(true);
    expect(rangeWithin('^20.16.0 || >=22.3.0', '>=22')).toBe(false);
    expect(rangeWithin('^20.16.0 || >=22.3.0', '^20.16.0 || >=22.3.0')).toBe(true);
    expect(rangeWithin('>=20.12', '^20.16.0 || >=22.3.0')).toBe(false);
    expect(rangeWithin('>=20.16', '>= 14.0.0')).toBe(true);
    expect(rangeWithin('20.x || 22.x', '>=20 <23')).toBe(true);
    expect(rangeWithin('>=20', '20 - 24')).toBe(false);
    expect(rangeWithin('~20.16.1', '^20.16.0')).toBe(true);
    expect(rangeWithin('>20.15', '>=20.16')).toBe(true);
    expect(rangeAllows('^20.16.0 || >=22.3.0', 'v20.20.2')).toBe(true);
    expect(rangeAllows('^20.16.0 || >=22.3.0', 'v21.7.0')).toBe(false);
    expect(rangeAllows('^20.16.0 || >=22.3.0', 'v22.2.0')).toBe(false);
  });
});

describe('engines.node of the workspace packages', () => {
  const packages = listWorkspacePackages(root);
  const rootManifest = readManifest(join(root, 'package.json'));

  it('every package declares a Node range that includes the Node running this check (the CI)', () => {
    const missing = [...packages.map((p) => ({ name: p.name, manifest: readManifest(join(p.dir, 'package.json')) })), { name: '(root)', manifest: rootManifest }]
      .filter(({ manifest }) => {
        const node = nodeEngines(manifest);
        return node === undefined || !rangeAllows(node, process.version);
      })
      .map(({ name, manifest }) => `${name}: ${String(nodeEngines(manifest))}`);
    expect(missing).toEqual([]);
  });

  it('no package declares a looser range than one of its runtime dependencies (transitively, exceptions listed)', () => {
    const looser: string[] = [];
    for (const workspacePackage of packages) {
      const manifest = readManifest(join(workspacePackage.dir, 'package.json'));
      const ours = nodeEngines(manifest) ?? '*';
      for (const dependency of installedClosure(workspacePackage.dir, manifest)) {
        const required = requiredRange(dependency);
        if (required && !rangeWithin(ours, required.range)) {
          looser.push(`${workspacePackage.name} (${ours}) needs ${dependency.path.join(' → ')}@${dependency.version}: ${required.range}${required.exception ? ' (exception)' : ''}`);
        }
      }
    }
    expect(looser).toEqual([]);
  });

  it('the root declares what every workspace package needs', () => {
    const ours = nodeEngines(rootManifest) ?? '*';
    const looser = packages.filter((p) => !rangeWithin(ours, nodeEngines(readManifest(join(p.dir, 'package.json'))) ?? '*')).map((p) => p.name);
    expect(looser).toEqual([]);
  });

  it('every exception is still needed: the installed dependency declares exactly that range', () => {
    const declared = new Map<string, Set<string>>();
    for (const workspacePackage of packages) {
      for (const dependency of installedClosure(workspacePackage.dir, readManifest(join(workspacePackage.dir, 'package.json')))) {
        if (dependency.node !== undefined) declared.set(dependency.name, (declared.get(dependency.name) ?? new Set()).add(dependency.node));
      }
    }
    const stale = ENGINE_EXCEPTIONS.filter((e) => !declared.get(e.dependency)?.has(e.declares)).map((e) => `${e.dependency} ${e.declares}`);
    expect(stale).toEqual([]);
    for (const exception of ENGINE_EXCEPTIONS) {
      expect(rangeWithin(exception.supported, exception.declares)).toBe(false); // else it is no exception
      expect(rangeAllows(exception.supported, process.version)).toBe(true); // verified on this Node
      expect(exception.reason.length).toBeGreaterThan(40);
    }
  });
});
