#!/usr/bin/env node
// Proves that moving the evidence workspace onto the one text vocabulary of @doctree/schema changed no output:
// - the workspace's sentence spans and chunk children (spans and sha256 of their text) of the code at --base against
//   the code in the working tree, over the page text of every PDF of --pdfs (their prebuilt content lists in --docs),
//   over a CJK sample and over generated strings of stops, closing marks, abbreviations and line breaks;
// - schema's sentenceSpans for the option sets its other users pass (the default, the reader's evidence set): old
//   against new over the same texts;
// - the workspace's year readings (file-name year, year filter, author-year citations): the regexes written at --base
//   against the schema functions that replaced them, over every line and file name.
// The TypeScript sources are transpiled (typescript's transpileModule) into a temporary folder; nothing is built or
// written in the repository. Prints one line per comparison and `parity: ok` or the first differences (exit 1).
//
//   node tools/check/workspace-text-parity.mjs [--base fdf2f93] [--docs data/eval-docs]
//        [--pdfs ../shared/data/eval/dev/pdfs] [--random 20000]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const base = option('base', 'fdf2f93');
const docsDir = resolve(root, option('docs', 'data/eval-docs'));
const pdfsDir = resolve(root, option('pdfs', '../shared/data/eval/dev/pdfs'));
const randomCount = Number(option('random', '20000'));

const tmp = mkdtempSync(join(tmpdir(), 'workspace-text-parity-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** Transpiles one TypeScript source to `<tmp>/<name>.mjs`, its imports mapped by `imports` (specifier → file). */
function emit(name, source, imports = {}) {
  let js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  for (const [from, to] of Object.entries(imports)) js = js.split(`'${from}'`).join(`'./${to}'`).split(`"${from}"`).join(`"./${to}"`);
  writeFileSync(join(tmp, `${name}.mjs`), js);
  return join(tmp, `${name}.mjs`);
}
const atBase = (path) => execFileSync('git', ['show', `${base}:${path}`], { cwd: root, encoding: 'utf8' });
const now = (path) => readFileSync(join(root, path), 'utf8');

emit('old-sentences', atBase('packages/schema/src/text/sentences.ts'));
emit('new-sentences', now('packages/schema/src/text/sentences.ts'));
emit('new-years', now('packages/schema/src/text/years.ts'));
writeFileSync(join(tmp, 'new-schema.mjs'), "export * from './new-sentences.mjs';\nexport * from './new-years.mjs';\n");
emit('old-chunking', atBase('packages/workspace/src/chunking.ts'));
emit('new-chunking', now('packages/workspace/src/chunking.ts'), { '@doctree/schema': 'new-schema.mjs' });
const load = async (name) => import(pathToFileURL(join(tmp, `${name}.mjs`)).href);
const [oldSchema, newSchema, oldWorkspace, newWorkspace] = await Promise.all(['old-sentences', 'new-schema', 'old-chunking', 'new-chunking'].map(load));

/** The regex literal `const NAME = /…/flags` (or the first one inside function `fn`) of a source at --base. */
function oldRegex(path, pattern) {
  const m = pattern.exec(atBase(path));
  if (!m) throw new Error(`no such regex at ${base} in ${path}: ${pattern}`);
  return new RegExp(m[1], m[2]);
}
const oldAuthorYear = oldRegex('packages/workspace/src/briefs.ts', /const AUTHOR_YEAR = \/(.+)\/([a-z]*);/);
const oldFileYear = oldRegex('packages/workspace/src/sources.ts', /function yearOf[^]*?const m = \/(.+)\/([a-z]*)\.exec/);
const oldYearFilter = oldRegex('packages/workspace/src/evidence.ts', /key === 'year'[^]*?const m = \/(.+)\/([a-z]*)\.exec/);

// The replacements, exactly as the workspace now calls them.
const newFileYear = (name) => newSchema.yearMentions(name, { boundary: 'digits' })[0]?.text ?? null;
const oldFileYearOf = (name) => oldFileYear.exec(name)?.[1] ?? null;
const newYearFilter = (value) => {
  const [first = '', second, ...rest] = value.split('-');
  const from = newSchema.cellYear(first);
  const to = second === undefined ? from : newSchema.cellYear(second);
  return from === undefined || to === undefined || rest.length > 0 ? null : [from, to];
};
const oldYearFilterOf = (value) => {
  const m = oldYearFilter.exec(value);
  return m ? [Number(m[1]), m[2] ? Number(m[2]) : Number(m[1])] : null;
};
const oldCitations = (text) => (text.match(new RegExp(oldAuthorYear.source, 'g')) ?? []).length;
const newCitations = (text) => newSchema.authorYearCitations(text).length;

// ---- texts -------------------------------------------------------------------------------------------------------
/** Page texts of a content list, blocks of a page joined by a blank line (the workspace's parents of a PDF). */
function pageTexts(list) {
  const pages = new Map();
  for (const block of [...list.blocks].sort((a, b) => a.read_order - b.read_order)) {
    const body =
      block.type === 'list'
        ? (block.list_items ?? []).join('\n')
        : block.type === 'table'
          ? [...(block.table_caption ?? []), ...(block.markdown ?? '').split('\n'), ...(block.table_footnote ?? [])].filter(Boolean).join('\n')
          : block.type === 'image'
            ? [...(block.image_caption ?? []), ...(block.image_footnote ?? [])].join('\n')
            : (block.text ?? '');
    if (body.trim() === '') continue;
    const page = block.page_idx ?? 0;
    pages.set(page, [...(pages.get(page) ?? []), body]);
  }
  return [...pages.values()].map((bodies) => bodies.join('\n\n'));
}

const docByFile = new Map();
for (const dir of existsSync(docsDir) ? readdirSync(docsDir) : []) {
  const file = join(docsDir, dir, 'content_list.enhanced.json');
  if (!existsSync(file)) continue;
  const list = JSON.parse(readFileSync(file, 'utf8'));
  docByFile.set(list.source?.filename ?? dir, list);
}
const pdfs = existsSync(pdfsDir) ? readdirSync(pdfsDir).filter((f) => f.toLowerCase().endsWith('.pdf')) : [];
const texts = [];
const missing = [];
for (const pdf of pdfs) {
  const list = docByFile.get(pdf);
  if (!list) missing.push(pdf);
  else texts.push(...pageTexts(list));
}
const pdfPages = texts.length;

// A made-up CJK sample (full-width stops, closing brackets, mixed Latin, line breaks).
const cjk = [
  '港口合作社成立于一九九八年。会员费上涨到每户二百四十欧元！为什么？因为维修费用增加了；理事会在三月通过了决定。',
  '他说：“这是最后一次。”然后离开了。「明年再议」』下一句。报告（第三版）发布了）接着。',
  '本研究参考了 Smith et al. 的方法。数据来自 2019 年的调查！问卷共 12 题？\n第二段从这里开始；结束。',
  '会社は1998年に設立された。売上は増えた！なぜか？\n次の行。（注）詳細は別紙。',
  '협동조합은 1998년에 설립되었다. 회비가 올랐다! 왜? 이유는 다음과 같다.',
];
texts.push(...cjk);

// Generated strings over the characters where the splitters decide (seeded, reproducible).
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pieces = ['.', '!', '?', '"', "'", '”', '’', ')', ']', '」', '』', '）', '。', '！', '？', '；', ' ', ' ', ' ', '\n', '\n\n', 'a', 'Word', 'word', '12', '4.2', 'e.g.', 'i.e.', 'Mr.', 'U.S.', 'approx.', 'Fig.', 'p.', 'pp.', 'Rs.', 'Nos.', 'No.', 'FY.', 'St.', 'Ms.', 'J.', 'x.', '$5', '(', '“', '‘', '会', 'Smith', ' (Smith, 2020)', ' (Lee et al., 2019a)', '2023', '12023', '_2021_', 'FY2022', '1999-2001'];
for (let i = 0; i < randomCount; i++) {
  let text = '';
  const n = 3 + Math.floor(random() * 25);
  for (let j = 0; j < n; j++) text += pieces[Math.floor(random() * pieces.length)];
  texts.push(text);
}

// ---- comparisons -------------------------------------------------------------------------------------------------
const failures = [];
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function compare(label, inputs, oldFn, newFn) {
  let differing = 0;
  for (const input of inputs) {
    const a = oldFn(input);
    const b = newFn(input);
    if (!same(a, b)) {
      differing++;
      if (failures.length < 5) failures.push({ label, input: JSON.stringify(input).slice(0, 300), old: JSON.stringify(a).slice(0, 300), new: JSON.stringify(b).slice(0, 300) });
    }
  }
  console.log(`${label}: ${inputs.length} inputs, ${differing} differ`);
}

const SIZES = { target_tokens: 180, min_tokens: 60, max_tokens: 320, max_overlap: 0.2 };
const SMALL = { target_tokens: 24, min_tokens: 8, max_tokens: 40, max_overlap: 0.25 };
const children = (workspace, sizes) => (text) => workspace.packChildren(text, sizes).map((c) => [c.start, c.end, c.tokens, c.overlap_tokens, workspace.textHash(text.slice(c.start, c.end))]);
const EVIDENCE = { lineBreaks: true, closingQuotes: true, moneyStarts: true, abbreviations: 'evidence', initials: true };

console.log(`base ${base}; ${pdfs.length} PDFs in ${pdfsDir} (${missing.length} without a prebuilt content list in ${docsDir}), ${pdfPages} pages with text, ${cjk.length} CJK samples, ${randomCount} generated strings`);
compare('workspace sentenceSpans', texts, oldWorkspace.sentenceSpans, newWorkspace.sentenceSpans);
compare('workspace packChildren (spans, tokens, sha256), default sizes', texts, children(oldWorkspace, SIZES), children(newWorkspace, SIZES));
compare('workspace packChildren (spans, tokens, sha256), small sizes', texts, children(oldWorkspace, SMALL), children(newWorkspace, SMALL));
compare('schema sentenceSpans, default options (index, RAG baseline)', texts, (t) => oldSchema.sentenceSpans(t), (t) => newSchema.sentenceSpans(t));
compare('schema sentenceSpans, evidence options (reader)', texts, (t) => oldSchema.sentenceSpans(t, EVIDENCE), (t) => newSchema.sentenceSpans(t, EVIDENCE));
compare('schema splitSentences', texts, oldSchema.splitSentences, newSchema.splitSentences);
const lines = texts.flatMap((t) => t.split('\n'));
const words = [...new Set(lines.flatMap((l) => l.split(/\s+/)).filter(Boolean))];
const names = [...pdfs, ...words.map((w) => `${w}.pdf`)];
compare('file-name year (sources)', names, oldFileYearOf, newFileYear);
compare('year filter (evidence), words', [...words, '2019-2021', '2021-2019', '2019-', '-2019', '2019-2020-2021', '1899', '20190'], oldYearFilterOf, newYearFilter);
compare('author-year citations (briefs), lines', lines, oldCitations, newCitations);

if (missing.length > 0) console.log(`not compared (no prebuilt content list): ${missing.join(', ')}`);
if (failures.length > 0) {
  for (const f of failures) console.log(`DIFF ${f.label}\n  input ${f.input}\n  old   ${f.old}\n  new   ${f.new}`);
  console.log('parity: FAILED');
  process.exit(1);
}
console.log(`parity: ok (${basename(docsDir)})`);
