#!/usr/bin/env node
/**
 * Checks that every quote of evidence packs occurs verbatim on the cited page of the source PDF, read again by an
 * independent reader: poppler's `pdftotext` in its two reading orders (default: column by column; `-layout`: line by
 * line as the page shows it) when installed, and always DocTree's own text layer of that page. Both sides are compared
 * after the documented normalisation (`docs/workspace.md`, "What verbatim means"): Unicode NFKC (ligatures), soft
 * hyphens out, hyphens and dashes out (a compound such as `non-elective` broken at a line end is `non-` + `elective` to
 * one reader and `nonelective` to another), whitespace out, lower case. Queries are made from the workspace's own chunks
 * (the content words of a sentence), so no question of an evaluation set is used.
 *
 * A workspace whose configuration names a collection is searched through it (the built CLI's
 * `openCollectionWorkspace`, with the DocTree configuration of the environment); `--seed-chunks FILE` takes the query
 * words from another workspace's `chunks/chunks.jsonl` (a collection workspace has none), so both stores can be asked
 * the same queries.
 *
 * Usage: npm run build (at least @doctree/workspace, @doctree/ingest and, for a collection, @doctree/cli), then
 *   node tools/fit/workspace/check-quotes.mjs <workspace> [--queries N] [--misses N] [--seed-chunks FILE]
 * Prints JSON: quotes, found by each reading, found by any, and the misses (full quote, the cited page, and whether
 * a neighbouring page holds it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const ws = await import(join(repo, 'packages/workspace/dist/index.js'));
const ingest = await import(join(repo, 'packages/ingest/dist/index.js'));
const { values, positionals } = parseArgs({ allowPositionals: true, options: { queries: { type: 'string', default: '60' }, misses: { type: 'string', default: '40' }, 'seed-chunks': { type: 'string' } } });
const root = resolve(positionals[0] ?? '.');
let workspace = await ws.EvidenceWorkspace.open(root, { onWarning: () => undefined });
const collection = workspace.context.config.collection;
if (collection !== undefined) {
  const { openCollectionWorkspace } = await import(join(repo, 'apps/cli/dist/commands/workspace-collection.js'));
  const { resolveConfig } = await import(join(repo, 'packages/schema/dist/index.js'));
  const config = resolveConfig({ env: process.env }).config;
  workspace = (await openCollectionWorkspace(root, resolve(root, collection), { config, workspace: { onWarning: () => undefined } })).workspace;
}
const sources = new Map((await workspace.sources()).map((s) => [s.doc_uid, s]));
const children = readFileSync(values['seed-chunks'] ?? join(root, 'chunks/chunks.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const rank = (s) => createHash('sha256').update(s).digest('hex');
const picked = [...children].sort((a, b) => rank(a.chunk_id).localeCompare(rank(b.chunk_id))).slice(0, Number(values.queries));
let poppler = true;
try {
  execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
} catch {
  poppler = false;
}

const cache = new Map();
/** Text of one 1-based page of a source by one reader (`raw`, `layout`: pdftotext; `doctree`: DocTree's text layer). */
async function pageText(docUid, page, reader) {
  const key = `${docUid}#${page}#${reader}`;
  if (!cache.has(key)) {
    const raw = sources.get(docUid).raw_path;
    const file = isAbsolute(raw) ? raw : join(root, raw);
    let text = '';
    if (reader === 'doctree') {
      if (!cache.has(`${docUid}#pages`)) cache.set(`${docUid}#pages`, await ingest.extractPdfPages(new Uint8Array(readFileSync(file)), { filename: file }));
      const pages = cache.get(`${docUid}#pages`);
      text = pages[page - 1] ? pages[page - 1].lines.map((l) => l.text).join('\n') : '';
    } else if (page >= 1) {
      try {
        text = execFileSync('pdftotext', [...(reader === 'layout' ? ['-layout'] : []), '-f', String(page), '-l', String(page), '-enc', 'UTF-8', file, '-'], { maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8');
      } catch {
        text = '';
      }
    }
    cache.set(key, text);
  }
  return cache.get(key);
}
const norm = (s) => s.normalize('NFKC').replace(/\u00ad/g, '').replace(/[-\u2010\u2011\u2012\u2013\u2014]/g, '').replace(/\s+/g, '').toLowerCase();
const readers = poppler ? ['raw', 'layout', 'doctree'] : ['doctree'];
const found = Object.fromEntries([...readers, 'any'].map((r) => [r, 0]));
let quotes = 0;
let unmapped = 0;
const misses = [];
for (const child of picked) {
  const words = child.text.split(/\s+/).filter((w) => /^[A-Za-z]{4,}$/.test(w)).slice(0, 6);
  if (words.length < 3) continue;
  const { run } = await workspace.query(words.join(' '));
  for (const e of run.evidence) {
    if (e.page === null) continue;
    quotes++;
    if (ws.UNMAPPED_GLYPH.test(e.exact_quote)) unmapped++;
    const q = norm(e.exact_quote);
    const hits = {};
    for (const reader of readers) hits[reader] = norm(await pageText(e.doc_uid, e.page, reader)).includes(q);
    for (const reader of readers) if (hits[reader]) found[reader]++;
    if (readers.some((r) => hits[r])) found.any++;
    if (poppler && !(hits.raw || hits.layout)) {
      const neighbour = [];
      for (const p of [e.page - 1, e.page + 1]) if (norm(await pageText(e.doc_uid, p, 'layout')).includes(q)) neighbour.push(p);
      misses.push({ doc_uid: e.doc_uid, page: e.page, doctree_reader: hits.doctree, on_neighbour_page: neighbour, quote: e.exact_quote });
    }
  }
}
console.log(
  JSON.stringify(
    {
      readers: poppler ? { raw: 'pdftotext', layout: 'pdftotext -layout', doctree: 'DocTree text layer' } : { doctree: 'DocTree text layer (poppler not installed)' },
      queries: picked.length,
      quotes,
      found,
      quotes_with_unmapped_glyphs: unmapped,
      misses: misses.slice(0, Number(values.misses)),
    },
    null,
    2,
  ),
);
