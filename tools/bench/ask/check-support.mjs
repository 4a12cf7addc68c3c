#!/usr/bin/env node
// Acceptance check of offline ask: offline `ask` on each dev document answers with support nodes whose pages are real
// pages of the document and whose snippets occur on those pages. For a few questions per document (the first N of
// questions.jsonl, default 3) it asks the offline agent and checks every support: 1 <= page <= page count, the
// node starts on that page, and the snippet occurs in the page's text as extracted independently by `pdftotext -f N
// -l N` (compared after lower-casing and keeping letters and digits only; a table row snippet `label | cell` is
// checked cell by cell; else every word of the snippet on that page, for multi-column pages pdftotext reads in
// another order), else in the DocTree's own text of the page. Prints pass/fail per document; exits 1 on a fail.
//
//   npx nx run-many -t build -p pipeline && node tools/bench/ask/check-support.mjs [--per-doc 3] [--limit N]
//     [--data ../shared/data/eval/dev] [--work /tmp/doctree-bench-ask] [--json]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { flag, option } from '../index/bench-common.mjs';
import { devQuestions, openDevAgent } from './bench-ask-common.mjs';

const perDoc = Number(option('per-doc', '3'));
const limit = Number(option('limit', '1000'));
const asJson = flag('json');
const log = asJson ? (...a) => console.error(...a) : (...a) => console.log(...a);

const normalize = (text) => text.normalize('NFKC').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

const pdftotextOk = spawnSync('pdftotext', ['-v']).status === 0;
if (!pdftotextOk) log('pdftotext is not installed (apt-get install poppler-utils): checking against the DocTree page text only.');
const pageTextCache = new Map();
function pdfPageText(pdf, page) {
  const key = `${pdf}#${page}`;
  if (!pageTextCache.has(key)) {
    const r = pdftotextOk ? spawnSync('pdftotext', ['-q', '-f', String(page), '-l', String(page), pdf, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }) : undefined;
    pageTextCache.set(key, r && r.status === 0 ? normalize(r.stdout) : undefined);
  }
  return pageTextCache.get(key);
}

/** The DocTree's text of a 1-based page: every node with a box on it. */
function treePageText(index, page) {
  return normalize(index.tree.nodes.filter((n) => n.bboxes.some((b) => b.page_idx === page - 1)).map((n) => `${n.title ?? ''} ${n.text ?? ''}`).join(' '));
}

const occursIn = (snippet, text) => {
  if (text === undefined) return false;
  const whole = normalize(snippet);
  if (whole === '' || text.includes(whole)) return true;
  const parts = snippet.split(/\s*\|\s*|\n/).map(normalize).filter(Boolean);
  return parts.length > 1 && parts.every((p) => text.includes(p));
};

/** Every word of the snippet is on the page (the page's extraction put them in another reading order). */
const wordsOn = (snippet, text) => {
  if (text === undefined) return false;
  const words = new Set(text.split(' '));
  const wanted = normalize(snippet).split(' ').filter(Boolean);
  return wanted.length > 0 && wanted.every((w) => words.has(w));
};

const { dataDir, byDoc } = devQuestions();
const rows = [];
let failedDocs = 0;
for (const [docFile, questions] of byDoc.slice(0, limit)) {
  const pdf = join(dataDir, docFile);
  const { agent, document, openMs } = await openDevAgent(pdf);
  const pageCount = document.index.tree.doc.page_count;
  const row = { doc: docFile, pages: pageCount, questions: 0, answered: 0, supports: 0, pdftotext: 0, pdftotextWords: 0, treeOnly: 0, failures: [], prepareMs: Math.round(openMs) };
  for (const q of questions.slice(0, perDoc)) {
    const run = await agent.ask(q.question);
    row.questions++;
    if (run.answer.support.length > 0) row.answered++;
    for (const s of run.answer.support) {
      row.supports++;
      const node = document.index.view.node(s.node_id.split('#')[0]);
      const problems = [];
      if (!Number.isInteger(s.page) || s.page < 1 || s.page > pageCount) problems.push(`page ${s.page} is not a page of the document (1-${pageCount})`);
      else {
        if (!node) problems.push(`node ${s.node_id} is not in the tree`);
        else if (!node.bboxes.some((b) => b.page_idx === s.page - 1) && node.page_span[0] !== s.page - 1) problems.push(`node ${s.node_id} is not on page ${s.page}`);
        if (occursIn(s.snippet, pdfPageText(pdf, s.page))) row.pdftotext++;
        else if (wordsOn(s.snippet, pdfPageText(pdf, s.page))) row.pdftotextWords++;
        else if (occursIn(s.snippet, treePageText(document.index, s.page))) row.treeOnly++;
        else problems.push(`snippet not on page ${s.page}: "${s.snippet.slice(0, 80)}"`);
      }
      if (problems.length > 0) row.failures.push({ id: q.id, node: s.node_id, problems });
    }
  }
  row.pass = row.failures.length === 0;
  if (!row.pass) failedDocs++;
  rows.push(row);
  log(
    `${row.pass ? 'PASS' : 'FAIL'} ${docFile.padEnd(44)} ${String(pageCount).padStart(4)} pages · ${row.questions} questions, ${row.answered} answered with support · ${row.supports} supports: ${row.pdftotext} found by pdftotext, ${row.pdftotextWords} as words on the pdftotext page, ${row.treeOnly} in the tree text only`,
  );
  for (const f of row.failures) log(`     ${f.id} ${f.node}: ${f.problems.join('; ')}`);
}
const total = rows.reduce((a, r) => ({ supports: a.supports + r.supports, pdftotext: a.pdftotext + r.pdftotext, pdftotextWords: a.pdftotextWords + r.pdftotextWords, treeOnly: a.treeOnly + r.treeOnly, questions: a.questions + r.questions, answered: a.answered + r.answered }), {
  supports: 0,
  pdftotext: 0,
  pdftotextWords: 0,
  treeOnly: 0,
  questions: 0,
  answered: 0,
});
const summary = { documents: rows.length, failed_documents: failedDocs, ...total, rows };
if (asJson) console.log(JSON.stringify(summary, null, 2));
else log(`\n${rows.length - failedDocs}/${rows.length} documents pass · ${total.questions} questions, ${total.answered} answered with support · ${total.supports} supports (${total.pdftotext} found verbatim by pdftotext, ${total.pdftotextWords} as words on the pdftotext page, ${total.treeOnly} in the tree's page text only)`);
process.exitCode = failedDocs > 0 ? 1 : 0;
