#!/usr/bin/env node
/**
 * How many questions' analysis each removed domain-pack / vocabulary entry changes: runs the question analysis
 * (`analyzeQuestion` with the finance pack) and the rule router's decision over every dev + wide question
 * (`../shared/data/eval/{dev,wide}/questions.jsonl`, or `--questions a.jsonl,b.jsonl`) with and without each entry,
 * and prints a table of the questions whose analysis (or route) changes. Entries written for single eval questions
 * were removed; this shows what each removal costs or changes. Reads the TypeScript sources directly (transpiled with
 * @swc/core on import), so no build is needed.
 *
 *   node tools/fit/pack-entry-impact.mjs [--questions a.jsonl,b.jsonl] [--show 3]
 */
import { register } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { option, questionFiles, readQuestions, rel, root } from './fit-common.mjs';

// A loader: `@doctree/*` resolves to sources (the `@doctree/source` export condition), `.js` to a sibling `.ts`,
// `.ts` is transpiled by swc; `?variant=<name>` applies a registered source patch to one module.
const hooks = `
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
let patches = {};
let swc;
export function initialize(data) { patches = data.patches; swc = createRequire(data.root + '/package.json')('@swc/core'); }
export async function resolve(specifier, context, next) {
  const conditions = [...new Set([...(context.conditions ?? []), '@doctree/source'])];
  if ((specifier.startsWith('.') || specifier.startsWith('file:')) && specifier.endsWith('.js') && context.parentURL?.includes('/src/')) {
    const url = new URL(specifier, context.parentURL);
    const ts = fileURLToPath(url).replace(/\\.js$/, '.ts');
    if (!existsSync(fileURLToPath(url)) && existsSync(ts)) return { url: url.href.replace(/\\.js$/, '.ts'), shortCircuit: true };
  }
  return next(specifier, { ...context, conditions });
}
export async function load(url, context, next) {
  const clean = url.split('?')[0];
  if (!clean.endsWith('.ts')) return next(url, context);
  let source = readFileSync(fileURLToPath(clean), 'utf8');
  const variant = new URL(url).searchParams.get('variant');
  for (const [from, to] of (variant && patches[variant]) || []) {
    if (!source.includes(from)) throw new Error('patch ' + variant + ' does not apply to ' + clean + ': ' + from);
    source = source.split(from).join(to);
  }
  const { code } = swc.transformSync(source, { filename: clean, jsc: { target: 'es2022', parser: { syntax: 'typescript' }, keepClassNames: true }, module: { type: 'es6' } });
  return { format: 'module', source: code, shortCircuit: true };
}
`;

/** Source patches that put a removed entry back (applied to one module, imported with `?variant=`). */
const PATCHES = {
  'instruction word "relying"': [
    ["'what which who whom whose when where why how many much does did do according based give provide response question details", "'what which who whom whose when where why how many much does did do according based give provide response question relying rely details"],
    ['amount value figure statement shown details response give respond', 'amount value figure statement shown details relying response give respond'],
  ],
  'reader stop word "relying"': [['according based give provide response answer question details', 'according based give provide response answer question relying details']],
  'COUNTABLE_THINGS cats?|dogs?': [['animals?|birds?|items?', 'animals?|cats?|dogs?|birds?|items?']],
  'NOT_ENTITY EPS': [
    ['|FY|Q[1-4]|USD|EUR|GBP|JPY|RMB|Round|', '|FY|Q[1-4]|USD|EUR|GBP|JPY|RMB|EPS|Round|'],
    [' && !(/^[A-Z]{2,6}$/.test(token) && abbreviations.has(token.toLowerCase()))', ''],
  ],
};
register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url, { data: { patches: PATCHES, root } });

const src = (path, variant) => `${pathToFileURL(resolve(root, path)).href}${variant ? `?variant=${encodeURIComponent(variant)}` : ''}`;
const toolhub = await import(src('packages/toolhub/src/index.ts'));
const analysis = await import(src('packages/agents/src/analysis/question-analysis.ts'));
const router = await import(src('packages/agents/src/router/rule-router.ts'));
const profile = await import(src('packages/agents/src/reader/question-profile.ts'));

const finance = toolhub.builtinDomainPack('finance');
const generic = toolhub.builtinDomainPack('generic');
/** The finance pack with `ppne` back: its abbreviation and the alternation in the net PP&E concept's trigger. */
const withPpne = toolhub.domainPackFrom({
  ...toolhub.FINANCE_PACK,
  name: 'finance',
  abbreviations: [...toolhub.FINANCE_PACK.abbreviations, { short: 'ppne', long: 'property plant and equipment' }],
  concepts: toolhub.FINANCE_PACK.concepts.map((c) => (c.name === 'net property plant and equipment' ? { ...c, triggers: c.triggers.map((t) => t.split('pp&e|').join('pp&e|ppne|')) } : c)),
});

const questions = readQuestions(questionFiles(), Number(option('limit', '0')));
if (questions.length === 0) {
  console.log('No questions found (../shared/data/eval/{dev,wide}/questions.jsonl); nothing to measure.');
  process.exit(0);
}
const show = Number(option('show', '3'));

/** What a question is read as: the analysis, the rule route (type, candidates, constraints) and the reader's profile. */
function reading(analyze, Router, question, pack, profileQuestion = profile.profileQuestion) {
  const a = analyze(question, { pack });
  const d = analysis.attachAnalysis(new Router().decide(question, { pack, analysis: a }), a);
  const { questionNumbers: _n, domainConcepts: _c, outflowLabel: _o, ...p } = profileQuestion(question, d);
  return JSON.stringify({ a: { ...a, pack: undefined }, type: d.query_type, candidates: d.candidates, constraints: d.constraints, sub: d.sub_questions, profile: p });
}

const variants = {
  'instruction word "relying"': await Promise.all([
    import(src('packages/agents/src/analysis/question-analysis.ts', 'instruction word "relying"')),
  ]),
  'COUNTABLE_THINGS cats?|dogs?': await Promise.all([import(src('packages/agents/src/router/rule-router.ts', 'COUNTABLE_THINGS cats?|dogs?'))]),
  'NOT_ENTITY EPS': await Promise.all([import(src('packages/agents/src/analysis/question-analysis.ts', 'NOT_ENTITY EPS'))]),
  'reader stop word "relying"': await Promise.all([import(src('packages/agents/src/reader/question-profile.ts', 'reader stop word "relying"'))]),
};

const ENTRIES = [
  {
    entry: 'abbreviation ppne (finance pack)',
    where: 'toolhub concept-vocabulary ABBREVIATIONS + net PP&E trigger',
    without: (q) => reading(analysis.analyzeQuestion, router.RuleRouter, q, finance),
    with: (q) => reading(analysis.analyzeQuestion, router.RuleRouter, q, withPpne),
  },
  {
    entry: 'COUNTABLE_THINGS cats?|dogs?',
    where: 'agents router/rule-router.ts',
    without: (q) => reading(analysis.analyzeQuestion, router.RuleRouter, q, finance),
    with: (q) => reading(analysis.analyzeQuestion, variants['COUNTABLE_THINGS cats?|dogs?'][0].RuleRouter, q, finance),
  },
  {
    entry: 'instruction words relying/rely',
    where: 'agents question analysis NOT_KEYWORDS, NOT_ITEM_WORDS',
    // The router is the shipped one in both; only the analysis differs (its keywords and line items).
    without: (q) => JSON.stringify(analysis.analyzeQuestion(q, { pack: finance })),
    with: (q) => JSON.stringify(variants['instruction word "relying"'][0].analyzeQuestion(q, { pack: finance })),
  },
  {
    entry: 'NOT_ENTITY "EPS" (now: the pack\'s abbreviations)',
    where: 'agents question analysis findEntities',
    without: (q) => JSON.stringify(analysis.analyzeQuestion(q, { pack: finance })),
    with: (q) => JSON.stringify(variants['NOT_ENTITY EPS'][0].analyzeQuestion(q, { pack: finance })),
  },
  {
    entry: 'reader stop words relying',
    where: 'agents reader/question-profile.ts QUESTION_STOP',
    without: (q) => reading(analysis.analyzeQuestion, router.RuleRouter, q, finance),
    with: (q) => reading(analysis.analyzeQuestion, router.RuleRouter, q, finance, variants['reader stop word "relying"'][0].profileQuestion),
  },
  {
    entry: '(info) whole finance pack vs generic pack',
    where: 'toolhub domain/packs/finance.ts',
    without: (q) => reading(analysis.analyzeQuestion, router.RuleRouter, q, generic),
    with: (q) => reading(analysis.analyzeQuestion, router.RuleRouter, q, finance),
  },
];

const splits = [...new Set(questions.map((q) => q.split))];
const rows = [];
for (const e of ENTRIES) {
  const changed = new Map(splits.map((s) => [s, []]));
  for (const q of questions) if (e.with(q.question) !== e.without(q.question)) changed.get(q.split).push(q.id);
  rows.push({ e, changed });
}

const header = ['entry removed', 'where', ...splits.map((s) => `${s} changed`), 'total'];
const lines = rows.map(({ e, changed }) => [e.entry, e.where, ...splits.map((s) => `${changed.get(s).length}/${questions.filter((q) => q.split === s).length}`), String([...changed.values()].flat().length)]);
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
const fmt = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(fmt(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const l of lines) console.log(fmt(l));
if (show > 0) {
  for (const { e, changed } of rows) {
    const ids = [...changed.values()].flat();
    if (ids.length > 0) console.log(`\n${e.entry}: e.g. ${ids.slice(0, show).join(', ')}`);
  }
}
console.log(`\n${questions.length} questions from ${questionFiles().map(rel).join(', ')}`);

// Which pack each prepared eval document gets (`--docs data/eval-docs`, folders with doctree.mm.json), and how many
// questions are read differently with it than with the finance pack every question got before packs.
const docsDir = resolve(root, option('docs', 'data/eval-docs'));
if (existsSync(docsDir)) {
  const chosen = { finance: [], generic: [] };
  const packOfDoc = new Map();
  for (const name of readdirSync(docsDir).sort()) {
    const file = resolve(docsDir, name, 'doctree.mm.json');
    if (!existsSync(file)) continue;
    const tree = JSON.parse(readFileSync(file, 'utf8'));
    const choice = toolhub.detectDomainPack(tree);
    packOfDoc.set(name, choice.pack);
    (chosen[choice.pack.name] ??= []).push(`${name} (${choice.hits.length})`);
  }
  console.log(`\nPacks chosen from prepared documents in ${rel(docsDir)} (detection phrases found):`);
  for (const [pack, docs] of Object.entries(chosen)) console.log(`  ${pack} ${docs.length}: ${docs.join(', ')}`);
  const docId = (q) => (q.doc_file ?? q.doc ?? '').split('/').pop().replace(/\.pdf$/i, '').toLowerCase().replace(/\./g, '-');
  const byPack = new Map();
  let unknown = 0;
  for (const q of questions) {
    const pack = packOfDoc.get(docId(q));
    if (!pack) {
      unknown++;
      continue;
    }
    const row = byPack.get(pack.name) ?? { n: 0, analysis: 0, route: 0 };
    const [a, b] = [reading(analysis.analyzeQuestion, router.RuleRouter, q.question, pack), reading(analysis.analyzeQuestion, router.RuleRouter, q.question, finance)].map((r) => JSON.parse(r));
    row.n++;
    if (JSON.stringify(a) !== JSON.stringify(b)) row.analysis++;
    if (a.type !== b.type) {
      row.route++;
      if (show > 0) console.log(`  ${q.id}: ${b.type} (finance) → ${a.type} (${pack.name}): ${q.question.slice(0, 100)}`);
    }
    byPack.set(pack.name, row);
  }
  console.log('\nQuestions read with their document\'s pack instead of the finance pack (reading = analysis, route, profile):');
  for (const [pack, row] of byPack) console.log(`  ${pack}: ${row.n} questions, ${row.analysis} read differently, ${row.route} routed to another type`);
  if (unknown > 0) console.log(`  (${unknown} questions whose document is not prepared in ${rel(docsDir)})`);
}
