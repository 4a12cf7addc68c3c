import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSimplePdf } from '@doctree/ingest';
import { AnswerSchema, resolveConfig, SPARSE_FIELDS } from '@doctree/schema';
import { askQuestion, openAgent } from './ask-question.js';
import { prepareDocument } from './prepare-document.js';

// Words that name properties of Object.prototype: document text, questions and tool args that contain them must be
// looked up as data (a Map, or an own property of a null-prototype table), never reach an inherited property.
const PROTO_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const PROTO_TEXT = PROTO_WORDS.join(' ');
const ENTITY_TEXT = PROTO_WORDS.map((w) => `&${w};`).join(' ');
const QUESTION = `Which constructor does the report name? (${PROTO_TEXT})`;

/** Page 1 is about revenue, page 2 about the constructor and every other prototype word. */
function protoPdf(): Uint8Array {
  return writeSimplePdf([
    {
      runs: [
        { text: '1 Results', x: 72, y: 90, size: 16, bold: true },
        { text: 'Revenue rose in every region and margins held steady through the year.', x: 72, y: 120, size: 11 },
        { text: 'Cash and equivalents were 9.7 million at year end.', x: 72, y: 134, size: 11 },
      ],
    },
    {
      runs: [
        { text: '2 Constructor', x: 72, y: 90, size: 16, bold: true },
        { text: 'The constructor of the bridge was Harbor Works, named as general constructor in 2021.', x: 72, y: 120, size: 11 },
        { text: `Reserved words: ${PROTO_TEXT}.`, x: 72, y: 134, size: 11 },
        { text: `Entities as written: ${ENTITY_TEXT}`, x: 72, y: 148, size: 11 },
      ],
    },
  ]);
}

const MARKDOWN = `# Constructor report

## Results

Revenue rose in every region and margins held steady through the year.

<!-- page 2 -->

## The constructor

The constructor of the bridge was Harbor Works. Reserved words: ${PROTO_TEXT}. Entities: ${ENTITY_TEXT} &amp; more.

<table><tr><th>constructor</th><th>__proto__</th><th>toString</th></tr><tr><td>&constructor;</td><td>&__proto__;</td><td>&valueOf; &amp;</td></tr></table>

| hasOwnProperty | valueOf | prototype |
| --- | --- | --- |
| &toString; | &hasOwnProperty; | &prototype; |
`;

describe('untrusted text used as keys: constructor, __proto__, toString… through ingest, index and ask', () => {
  let dir: string;
  const config = () => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' } } }).config;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-untrusted-keys-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a PDF containing them ingests, indexes and answers a question made of them, finding the constructor page', async () => {
    const pdf = join(dir, 'constructor.pdf');
    writeFileSync(pdf, protoPdf());
    const run = await askQuestion(pdf, QUESTION, { config: config() });
    expect(run.document).toMatchObject({ ingested: true, indexed: true });
    expect(AnswerSchema.parse(run.answer)).toEqual(run.answer);
    expect(run.rankedPages[0]).toBe(2);

    const tree = run.document.index.tree;
    expect(tree.text).toContain('The constructor of the bridge');
    // Entities in PDF text are text, not markup: they stay as written.
    expect(tree.text).toContain('&constructor;');
    expect(tree.text).not.toContain('[native code]');

    for (const word of PROTO_WORDS) {
      const hits = run.document.index.sparseLeaf.search(word, { k: 3 });
      expect(hits.length).toBeGreaterThan(0);
      for (const [field, terms] of Object.entries(hits[0]!.matched)) {
        expect(SPARSE_FIELDS).toContain(field);
        for (const term of terms) expect(typeof term).toBe('string');
      }
      const node = run.document.index.view.node(hits[0]!.id.split('#')[0]!)!;
      expect(node.page_span[0]).toBe(1);
    }
    // A query mixing a prototype word with words only page 1 has keeps both pages' hits and their matched terms.
    const mixed = run.document.index.sparseLeaf.search('constructor revenue valueOf', { k: 5 });
    expect(mixed.length).toBeGreaterThanOrEqual(2);
    for (const hit of mixed) for (const terms of Object.values(hit.matched)) for (const term of terms) expect(typeof term).toBe('string');
  });

  it('a Markdown document decodes entity-like names as text, and the agent (opened again, from the cache) answers', async () => {
    const md = join(dir, 'constructor.md');
    writeFileSync(md, MARKDOWN);
    const prepared = await prepareDocument(md, { config: config() });
    const text = prepared.index.tree.text;
    expect(text).not.toContain('[native code]');
    expect(text).not.toContain('function');
    expect(text).toContain('&constructor;');
    expect(text).toContain('&__proto__;');
    expect(text).toContain('&toString;');
    expect(text).toContain('& more');
    const table = prepared.index.tree.nodes.find((n) => n.role === 'table' && n.text.includes('&valueOf;'));
    expect(table).toBeDefined();

    const { agent } = await openAgent(md, { config: config() });
    const run = await agent.ask(QUESTION);
    expect(AnswerSchema.parse(run.answer)).toEqual(run.answer);
    expect(run.rankedPages).toContain(2);
    expect(run.rankedPages[0]).toBe(2);

    // Questions whose measured thing or named objects are prototype words.
    for (const question of ['How many constructors does the report name?', 'What is the __proto__ of the constructor section?', 'What does Table constructor show about valueOf?']) {
      const other = await agent.ask(question);
      expect(AnswerSchema.parse(other.answer)).toEqual(other.answer);
      expect(other.rankedPages).toContain(2);
    }
  });
});
