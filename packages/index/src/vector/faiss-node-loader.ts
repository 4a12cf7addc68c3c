import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Search result of a faiss-node index: `k` distances and labels per query (labels -1 when fewer hits). */
export interface FaissNodeSearchResult {
  /** Inner products (IP indexes) or squared L2 distances (L2 indexes), best first. */
  distances: number[];
  /** Positions of the hits in insertion order, -1 for padding. */
  labels: number[];
}

/** The part of a faiss-node `Index` used by DocTree (declared here because faiss-node is optional). */
export interface FaissNodeIndex {
  /** Number of vectors held. */
  ntotal(): number;
  /** Vector dimension. */
  getDimension(): number;
  /** Adds n vectors given as one plain array of n * d numbers (typed arrays are refused by faiss-node). */
  add(x: number[]): void;
  /** Searches; `k` must not exceed `ntotal()`. */
  search(x: number[], k: number): FaissNodeSearchResult;
  /** Writes the index with faiss `write_index`. */
  write(fname: string): void;
  /** Serialises the index (faiss `write_index` format). */
  toBuffer(): Buffer;
}

/** The part of the faiss-node module used by DocTree. */
export interface FaissNodeModule {
  /** Generic index: factory strings, reading files and buffers. */
  Index: {
    fromFactory(dims: number, descriptor: string, metric?: number): FaissNodeIndex;
    read(fname: string): FaissNodeIndex;
    fromBuffer(src: Buffer): FaissNodeIndex;
  };
  /** Exact inner-product index. */
  IndexFlatIP: new (d: number) => FaissNodeIndex;
  /** Exact squared-L2 index. */
  IndexFlatL2: new (d: number) => FaissNodeIndex;
  /** faiss metric constants. */
  MetricType: { METRIC_INNER_PRODUCT: number; METRIC_L2: number };
}

/** Outcome of trying to load faiss-node. */
export interface FaissNodeStatus {
  /** True when faiss-node loaded and exposes the expected classes. */
  available: boolean;
  /** The loaded module, when available. */
  module?: FaissNodeModule;
  /** faiss-node version, when it could be determined. */
  version?: string;
  /** Why it is not available (first line of the load error). */
  error?: string;
}

/** Environment variable that disables faiss-node (same switch as `npm run setup`). */
export const SKIP_FAISS_ENV = 'DOCTREE_SKIP_FAISS';

let probe: Promise<FaissNodeStatus> | undefined;

/**
 * Loads faiss-node once, lazily (a dynamic `import()`, so the exact backend works without it and nothing
 * native is loaded until a vector backend is asked for). Never throws: failures are reported in the status.
 * Setting `DOCTREE_SKIP_FAISS=1` makes it report faiss as unavailable.
 */
export function loadFaissNode(): Promise<FaissNodeStatus> {
  if (process.env[SKIP_FAISS_ENV] === '1') {
    return Promise.resolve({ available: false, error: `disabled by ${SKIP_FAISS_ENV}=1` });
  }
  probe ??= importFaissNode();
  return probe;
}

async function importFaissNode(): Promise<FaissNodeStatus> {
  // A non-literal specifier keeps TypeScript from resolving the optional package at build time.
  const specifier = 'faiss-node';
  let imported: unknown;
  try {
    imported = await import(specifier);
  } catch (error) {
    return { available: false, error: firstLine(error) };
  }
  // ESM import of a CommonJS module puts module.exports on `default`; a CJS transform may not.
  const candidate = ((imported as { default?: unknown }).default ?? imported) as Partial<FaissNodeModule>;
  if (typeof candidate.IndexFlatIP !== 'function' || typeof candidate.IndexFlatL2 !== 'function' || typeof candidate.Index?.fromFactory !== 'function') {
    return { available: false, error: 'faiss-node loaded but does not export IndexFlatIP, IndexFlatL2 and Index.fromFactory' };
  }
  const status: FaissNodeStatus = { available: true, module: candidate as FaissNodeModule };
  const version = faissNodeVersion();
  if (version !== undefined) status.version = version;
  return status;
}

/** Reads faiss-node's package.json next to the loaded module (found in the CommonJS cache, or resolved). */
function faissNodeVersion(): string | undefined {
  try {
    const cache = createRequire(join(process.cwd(), 'noop.js')).cache;
    const entry = Object.keys(cache).find((key) => /[\\/]faiss-node[\\/]lib[\\/]index\.js$/.test(key));
    let packageJson: string | undefined;
    if (entry !== undefined) packageJson = join(dirname(entry), '..', 'package.json');
    else if (typeof require === 'function') packageJson = require.resolve('faiss-node/package.json');
    if (packageJson === undefined) return undefined;
    const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
