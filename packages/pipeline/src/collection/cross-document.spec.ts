import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnswerSchema, resolveConfig } from '@doctree/schema';
import { Collection } from './collection.js';
import { planCrossDocument } from './cross-document.js';

jest.setTimeout(180_000);

/** A made-up company's annual report: revenue on page 2, cash on page 3. */
const report = (company: string, year: number, product: string, revenue: string, cash: string) => `<!-- page 1 -->

# ${company} Annual Report ${year}

## Overview

${company} designs and sells ${product}. This report covers the fiscal year ${year}.

<!-- page 2 -->

## Results of operations

Total revenue was ${revenue} in ${year}, driven by ${product} sales in Europe and Asia.

<!-- page 3 -->

## Liquidity

Cash and cash equivalents were ${cash} at the end of ${year}. The company has no debt.
`;

describe('cross-document answers', () => {
  let dir: string;
  let collection: Collection;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cross-'));
    const input = join(dir, 'input');
    mkdirSync(input);
    writeFileSync(join(input, 'Harbor_2021_10K.md'), report('Harbor Tools', 2021, 'cordless drills', '$40.0 million', '$3.2 million'));
    writeFileSync(join(input, 'Harbor_2022_10K.md'), report('Harbor Tools', 2022, 'cordless drills', '$48.2 million', '$4.1 million'));
    writeFileSync(join(input, 'Lumen_2022_10K.md'), report('Lumen Optics', 2022, 'camera lenses', '$12.5 million', '$9.6 million'));
    const config = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;
    collection = await Collection.open(join(dir, 'collection'), { config });
    await collection.ingest({ inputDir: input, workers: 1 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('splits a question over two companies into one part per company, and over two years of one company into one part per year', async () => {
    const rows = (await collection.manifest())!.documents;
    const candidates = rows.map((row) => ({ row }));
    const companies = planCrossDocument('What is the difference between the revenue of Lumen Optics and Harbor Tools in 2022?', candidates)!;
    expect(companies).toMatchObject({ by: 'company', operation: 'difference', item: 'revenue', expression: 'A - B' });
    // In the order the question names them; the 2022 report of Harbor (the year asked), not the 2021 one.
    expect(companies.parts.map((p) => [p.label, p.variable, p.doc_id, p.question])).toEqual([
      ['Lumen', 'A', 'lumen_2022_10k', 'What was the revenue in 2022?'],
      ['Harbor', 'B', 'harbor_2022_10k', 'What was the revenue in 2022?'],
    ]);
    const years = planCrossDocument('What was the percent change in the revenue of Harbor Tools from 2021 to 2022?', candidates)!;
    expect(years).toMatchObject({ by: 'year', operation: 'percent_change', expression: 'percent_change(A0, A1)' });
    expect(years.parts.map((p) => [p.label, p.variable, p.doc_id])).toEqual([
      ['2021', 'A0', 'harbor_2021_10k'],
      ['2022', 'A1', 'harbor_2022_10k'],
    ]);
    // One subject: no parts.
    expect(planCrossDocument('What was the revenue of Harbor Tools in 2022?', candidates)).toBeUndefined();
    expect(planCrossDocument('What was the revenue in 2022?', candidates)).toBeUndefined();
    // Years across filings of different forms (an annual report and a current report): not split.
    const current = { row: { ...rows.find((r) => r.doc_id === 'harbor_2021_10k')!, doc_id: 'harbor_2021_8k', metadata: { ...rows.find((r) => r.doc_id === 'harbor_2021_10k')!.metadata, form: '8-K' } } };
    const mixed = [...candidates.filter((c) => c.row.doc_id !== 'harbor_2021_10k'), current];
    expect(planCrossDocument('What was the percent change in the revenue of Harbor Tools from 2021 to 2022?', mixed)).toBeUndefined();
    // Two years but of different companies and no company named: not split.
    expect(planCrossDocument('How did revenue change from 2021 to 2022?', candidates)).toBeUndefined();
  });

  it('answers a difference between two companies from both reports: the parts with their citations, the formula and its result', async () => {
    const answered = await collection.ask('What is the difference between the revenue of Harbor Tools and Lumen Optics in 2022?');
    const cross = answered.cross!;
    expect(cross.parts.map((p) => [p.doc_id, p.value])).toEqual([
      ['harbor_2022_10k', expect.stringContaining('48.2')],
      ['lumen_2022_10k', expect.stringContaining('12.5')],
    ]);
    expect(cross.citations).toEqual(expect.arrayContaining([expect.objectContaining({ doc_id: 'harbor_2022_10k', page: 2 }), expect.objectContaining({ doc_id: 'lumen_2022_10k', page: 2 })]));
    expect(cross.result).toMatchObject({ value: 35_700_000, text: '$35.7 million' });
    expect(answered.answer).toMatchObject({ answer: 35.7, answer_format: 'Float' });
    expect(answered.answer.display).toContain('harbor_2022_10k p. 2');
    expect(answered.selection.selected).toEqual(['harbor_2022_10k', 'lumen_2022_10k']);
    expect(answered.documents.map((d) => d.doc_id)).toEqual(['harbor_2022_10k', 'lumen_2022_10k']);
    // The combined answer is a valid Answer whose trace shows the parts and the computation.
    const trace = AnswerSchema.parse(answered.answer).trace;
    expect(trace.events.filter((e) => e.type === 'read').map((e) => e.data!['doc_id'])).toEqual(['harbor_2022_10k', 'lumen_2022_10k']);
    expect(trace.events.find((e) => e.tool_id === 'compute.eval')).toMatchObject({ status: 'ok', args: { expression: 'A - B' } });
  });

  it('answers a change across two years of one company from its two reports', async () => {
    const answered = await collection.ask('What was the percent change in the revenue of Harbor Tools from 2021 to 2022?');
    expect(answered.cross).toMatchObject({ by: 'year', expression: 'percent_change(A0, A1)' });
    expect(answered.cross!.parts.map((p) => p.doc_id)).toEqual(['harbor_2021_10k', 'harbor_2022_10k']);
    expect(answered.cross!.result!.text).toBe('20.5%');
    expect(answered.answer.answer).toBe(20.5);
  });

  it('says which company is larger, and lists the parts when nothing is computed', async () => {
    const which = await collection.ask('Which company had more cash at the end of 2022, Harbor Tools or Lumen Optics?');
    expect(which.answer).toMatchObject({ answer: 'Lumen', answer_format: 'Str' });
    expect(which.cross!.parts.map((p) => p.doc_id).sort()).toEqual(['harbor_2022_10k', 'lumen_2022_10k']);
    expect(which.cross!.citations.map((c) => c.page)).toEqual([3, 3]);

    const list = await collection.ask('What was the cash of Harbor Tools and Lumen Optics at the end of 2022?');
    expect(list.answer.answer_format).toBe('List');
    expect(list.answer.answer).toEqual([expect.stringMatching(/^Harbor: .*4\.1/), expect.stringMatching(/^Lumen: .*9\.6/)]);

    // Asked of one document, or with cross-document answers off, the question is asked whole.
    const off = await collection.ask('What is the difference between the revenue of Harbor Tools and Lumen Optics in 2022?', { crossDocument: false });
    expect(off.cross).toBeUndefined();
    expect(off.documents).toHaveLength(1);
  });
});
