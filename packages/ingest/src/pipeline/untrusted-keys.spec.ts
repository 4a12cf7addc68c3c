import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSimplePdf } from '../pdf/simple-pdf-writer.js';
import { ingestFile } from './ingest-file.js';

// Documents whose words, entity-like strings, headings and labels name Object.prototype properties ingest like any
// other: no entity decodes to a function's source text, and nothing in the tree is anything but document text.
const PROTO_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const PROTO_TEXT = PROTO_WORDS.join(' ');
const ENTITY_TEXT = PROTO_WORDS.map((w) => `&${w};`).join(' ');
/** Markdown text with its underscores escaped (unescaped, `__proto__` is strong emphasis: `proto`). */
const mdEscape = (text: string): string => text.replace(/_/g, '\\_');

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'doctree-ingest-untrusted-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** Every string value of a JSON-like value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

function expectNoFunctionText(value: unknown): void {
  for (const s of strings(value)) {
    expect(s).not.toContain('[native code]');
    expect(s).not.toMatch(/function \w*\(/);
  }
}

describe('ingestFile with Object.prototype names in the document', () => {
  it('a Markdown document: headings, text, entities, HTML and pipe tables', async () => {
    const md = join(work, 'constructor.md');
    writeFileSync(
      md,
      [
        '# constructor',
        '',
        `## ${mdEscape('__proto__')}`,
        '',
        mdEscape(`Reserved words: ${PROTO_TEXT}. Entities: ${ENTITY_TEXT} &amp; &#38;.`),
        '',
        'Table toString: constructor values',
        '',
        `| constructor | ${mdEscape('__proto__')} |`,
        '| --- | --- |',
        '| &valueOf; | &prototype; |',
        '',
        '<table><tr><th>hasOwnProperty</th></tr><tr><td>&constructor; &lt;b&gt;</td></tr></table>',
        '',
        '[constructor]: https://example.com/constructor',
        '',
        'See [the constructor][constructor] and [toString][toString].',
        '',
      ].join('\n'),
    );
    const result = await ingestFile(md, { outDir: join(work, 'out') });
    const tree = result.tree;
    expectNoFunctionText(tree);
    expect(tree.nodes.filter((n) => n.role === 'section').map((n) => n.title)).toEqual(expect.arrayContaining(['constructor', '__proto__']));
    expect(tree.text).toContain(`Reserved words: ${PROTO_TEXT}.`);
    expect(tree.text).toContain(`Entities: ${ENTITY_TEXT} & &.`);
    const tables = tree.nodes.filter((n) => n.role === 'table');
    expect(tables).toHaveLength(2);
    expect(tables[0]!.table?.rows).toEqual([
      ['constructor', '__proto__'],
      ['&valueOf;', '&prototype;'],
    ]);
    expect(tables[1]!.text).toContain('&constructor; <b>');
    expect(tree.text).toContain('the constructor');
  });

  it('a real PDF', async () => {
    const pdf = join(work, 'constructor.pdf');
    writeFileSync(
      pdf,
      writeSimplePdf([
        {
          runs: [
            { text: '1 constructor', x: 72, y: 90, size: 16, bold: true },
            { text: `Reserved words: ${PROTO_TEXT}.`, x: 72, y: 120, size: 11 },
            { text: `Entities as written: ${ENTITY_TEXT}`, x: 72, y: 134, size: 11 },
            { text: 'Table toString. constructor values', x: 72, y: 160, size: 11 },
          ],
        },
      ]),
    );
    const result = await ingestFile(pdf, { outDir: join(work, 'out') });
    expectNoFunctionText(result.tree);
    expect(result.tree.text).toContain(`Reserved words: ${PROTO_TEXT}.`);
    expect(result.tree.text).toContain(ENTITY_TEXT);
  });

  it('a MinerU content list whose table HTML and captions hold them', async () => {
    const list = join(work, 'proto_content_list.json');
    writeFileSync(
      list,
      JSON.stringify([
        { type: 'text', text: 'constructor', text_level: 1, bbox: [0, 0, 10, 10], page_idx: 0 },
        { type: 'text', text: `${PROTO_TEXT} ${ENTITY_TEXT}`, bbox: [0, 20, 10, 30], page_idx: 0 },
        {
          type: 'table',
          table_caption: ['Table 1: __proto__ constructor'],
          table_body: '<table><tr><td>constructor</td><td>&toString;</td></tr><tr><td>&__proto__;</td><td>&amp;valueOf;</td></tr></table>',
          bbox: [0, 40, 10, 60],
          page_idx: 0,
        },
      ]),
    );
    const result = await ingestFile(list, { outDir: join(work, 'out') });
    expectNoFunctionText(result.tree);
    const table = result.tree.nodes.find((n) => n.role === 'table')!;
    expect(table.table?.rows).toEqual([
      ['constructor', '&toString;'],
      ['&__proto__;', '&valueOf;'],
    ]);
  });
});
