#!/usr/bin/env node
/**
 * Checks that every quote of evidence packs occurs verbatim on the cited page of the source PDF, read again with
 * `pdftotext -layout`-free text (poppler) when installed, else DocTree's own text layer; whitespace and hyphenation
 * at line ends are normalised on both sides. Queries are made from the workspace's own chunks (the content words of
 * a sentence), so no question of an evaluation set is used.
 *
 * Usage: node packages/workspace/fit/check-quotes.mjs <workspace> [--queries N]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const ws = await import(join(repo, 'packages/workspace/dist/index.js'));
const ingest = await import(join(repo, 'packages/ingest/dist/index.js'));
const { values, positionals } = parseArgs({ allowPositionals: true, options: { queries: { type: 'string', default: '60' } } });
const root = resolve(positionals[0] ?? '.');
const workspace = await ws.EvidenceWorkspace.open(root, { onWarning: () => undefined });
const sources = new Map((await workspace.sources()).map((s) => [s.doc_uid, s]));
const children = readFileSync(join(root, 'chunks/chunks.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const rank = (s) => createHash('sha256').update(s).digest('hex');
const picked = [...children].sort((a, b) => rank(a.chunk_id).localeCompare(rank(b.chunk_id))).slice(0, Number(values.queries));
let poppler = true;
try {
  execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
} catch {
  poppler = false;
}
const pageCache = new Map();
async function pageText(docUid, page) {
  const key = `${docUid}#${page}`;
  if (!pageCache.has(key)) {
    const file = join(root, sources.get(docUid).raw_path);
    let text;
    if (poppler) text = execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-enc', 'UTF-8', file, '-'], { maxBuffer: 1 << 26 }).toString('utf8');
    else {
      const pages = await ingest.extractPdfPages(new Uint8Array(readFileSync(file)), { filename: file });
      text = pages[page - 1].lines.map((l) => l.text).join('\n');
    }
    pageCache.set(key, text);
  }
  return pageCache.get(key);
}
const norm = (s) => s.normalize('NFKC').replace(/[\u00ad]/g, '').replace(/-\s*\n\s*/g, '').replace(/\s+/g, '').toLowerCase();
let quotes = 0;
let found = 0;
const misses = [];
for (const child of picked) {
  const words = child.text.split(/\s+/).filter((w) => /^[A-Za-z]{4,}$/.test(w)).slice(0, 6);
  if (words.length < 3) continue;
  const { run } = await workspace.query(words.join(' '));
  for (const e of run.evidence) {
    if (e.page === null) continue;
    quotes++;
    if (norm(await pageText(e.doc_uid, e.page)).includes(norm(e.exact_quote))) found++;
    else misses.push({ doc_uid: e.doc_uid, page: e.page, quote: e.exact_quote.slice(0, 160) });
  }
}
console.log(JSON.stringify({ reader: poppler ? 'pdftotext' : 'doctree text layer', queries: picked.length, quotes, found_on_cited_page: found, misses: misses.slice(0, 20) }, null, 2));
