import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError } from '@doctree/schema';

import { extractCells } from '../extract/extract-column.js';
import type { TableGrid } from '../table/table-reader.js';
import { builtinDomainPack, domainPackFrom, loadDomainPack } from './domain-pack.js';

const dir = mkdtempSync(join(tmpdir(), 'domain-measures-'));

// A made-up field: a greenhouse's growing reports.
const GREENHOUSE = {
  format: 'doctree.domain-pack',
  version: 1,
  name: 'greenhouse',
  concepts: [
    { name: 'harvest weight', aliases: ['harvest weight', 'total harvest', 'crop harvested'] },
    { name: 'planted area', aliases: ['planted area', 'area under cultivation'] },
  ],
  measures: [
    {
      name: 'crop yield',
      aliases: ['crop yield', 'yield per hectare'],
      triggers: ['\\byield of (?:the )?crops?\\b'],
      formula: 'A / B',
      operands: [
        { name: 'A', item: 'harvest weight' },
        { name: 'B', item: 'planted area', reduce: 'average' },
      ],
      description: 'Harvest weight of the season / average planted area.',
    },
  ],
};

function measureError(measure: Record<string, unknown>): unknown {
  try {
    domainPackFrom({ ...GREENHOUSE, measures: [{ ...GREENHOUSE.measures[0], ...measure }] });
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('named measures of a domain pack', () => {
  it('loads a user pack with a measure: its wordings match questions, its operands name the pack concepts', async () => {
    const file = join(dir, 'greenhouse.json');
    writeFileSync(file, JSON.stringify(GREENHOUSE));
    const pack = await loadDomainPack(file);
    const [yieldMeasure] = pack.measures;
    expect(yieldMeasure).toMatchObject({ name: 'crop yield', formula: 'A / B', percent: false });
    expect(yieldMeasure!.operands).toEqual([
      { name: 'A', item: 'harvest weight', phrase: 'harvest weight', concept: 'harvest weight', reduce: 'value' },
      { name: 'B', item: 'planted area', phrase: 'planted area', concept: 'planted area', reduce: 'average' },
    ]);
    expect(yieldMeasure!.trigger.test('What was the Crop-Yield in 2022?')).toBe(true);
    expect(yieldMeasure!.trigger.test('What was the yield of the crops last season?')).toBe(true);
    // Whole words only.
    expect(yieldMeasure!.trigger.test('What crop yielded most?')).toBe(false);
  });

  it('rejects a measure whose formula is not arithmetic over its own operands, saying where', () => {
    for (const [measure, part] of [
      [{ formula: 'A / C' }, 'undeclared operands C'],
      [{ formula: 'A * 2' }, 'does not use operands B'],
      [{ formula: 'max(A, B)' }, 'function call'],
      [{ formula: 'A / (B' }, 'does not parse'],
      [{ formula: 'A / B * 5%' }, 'unit'],
    ] as const) {
      const error = measureError(measure);
      expect(error).toBeInstanceOf(DocTreeError);
      expect((error as DocTreeError).code).toBe('SCHEMA_INVALID');
      expect((error as DocTreeError).message).toContain('measures[0].formula');
      expect((error as DocTreeError).message).toContain(part);
      expect((error as DocTreeError).hint).toMatch(/operand names/);
    }
    expect((measureError({ triggers: ['(unclosed'] }) as DocTreeError).message).toContain('measures[0].triggers[0]');
    expect((measureError({ operands: [{ name: 'Z', item: 'harvest weight' }] }) as DocTreeError).code).toBe('SCHEMA_INVALID');
  });

  it('a pack that names no measures still loads (the field is optional), and the generic pack has none', () => {
    const { measures: _, ...old } = GREENHOUSE;
    expect(domainPackFrom(old).measures).toEqual([]);
    expect(builtinDomainPack('generic').measures).toEqual([]);
  });

  it('a user pack extending finance adds its measures and may redefine one by name', () => {
    const pack = domainPackFrom({
      format: 'doctree.domain-pack',
      version: 1,
      name: 'my-finance',
      extends: 'finance',
      measures: [{ name: 'current ratio', aliases: ['current ratio'], formula: 'A / B', operands: [{ name: 'A', item: 'cash' }, { name: 'B', item: 'current liabilities' }] }],
    });
    const current = pack.measures.filter((m) => m.name === 'current ratio');
    expect(current).toHaveLength(1);
    // A concept whose own trigger does not read its name is searched by its first wording.
    expect(current[0]!.operands[0]).toMatchObject({ item: 'cash', concept: 'cash', phrase: 'cash and cash equivalents' });
    expect(pack.measures.length).toBe(builtinDomainPack('finance').measures.length);
  });
});

describe('the finance pack measures', () => {
  const finance = builtinDomainPack('finance');

  it('holds textbook measures, each operand a concept of the pack or a line-item phrase', () => {
    expect(finance.measures.length).toBeGreaterThanOrEqual(15);
    expect(finance.measures.length).toBeLessThanOrEqual(30);
    const concepts = new Set(finance.concepts.map((c) => c.name));
    // Every operand names a concept (found in documents by the concept's wordings).
    expect(finance.measures.flatMap((m) => m.operands.filter((o) => o.concept === undefined).map((o) => o.item))).toEqual([]);
    for (const m of finance.measures) for (const o of m.operands) if (o.concept) expect(concepts.has(o.concept)).toBe(true);
  });

  it('states its conventions: average balances for turnovers and returns, year ends for liquidity ratios', () => {
    const byName = new Map(finance.measures.map((m) => [m.name, m] as const));
    expect(byName.get('return on assets')!.operands.map((o) => [o.concept, o.reduce])).toEqual([
      ['net income', 'value'],
      ['total assets', 'average'],
    ]);
    expect(byName.get('quick ratio')).toMatchObject({ formula: '(A - B) / C', percent: false });
    expect(byName.get('current ratio')!.operands.every((o) => o.reduce === 'value')).toBe(true);
    expect(byName.get('days sales outstanding')!.formula).toBe('365 * A / B');
    expect(byName.get('gross margin')!.percent).toBe(true);
  });

  it('names measures by their usual wordings and abbreviations', () => {
    const named = (q: string): string[] => finance.measures.filter((m) => m.trigger.test(q)).map((m) => m.name);
    expect(named('What was the ROA in 2021?')).toEqual(['return on assets']);
    expect(named("What is the return on shareholders' equity?")).toEqual(['return on equity']);
    expect(named('What is the acid-test ratio?')).toEqual(['quick ratio']);
    expect(named('What is the R&D to assets ratio?')).toEqual(['research and development to assets']);
    expect(named('What were total assets?')).toEqual([]);
  });

  it('operands find their own rows where rows share words: a row naming another concept is another line item', () => {
    const rows = [
      ['(Millions)', '2024', '2023'],
      ['Revenues', '900', '840'],
      ['Cost of revenues', '(500)', '(470)'],
      ['Income before income taxes', '100', '90'],
      ['Provision for income taxes', '21', '18'],
    ];
    const grid = { columns: rows[0]!, rowLabels: rows.slice(1).map((r) => r[0]!), body: rows.slice(1), scale: 'millions', units: [], currency: null } as unknown as TableGrid;
    const rowFor = (item: string): string[] => [...new Set(extractCells(grid, { rows: [item], bestRowOnly: true, minMatch: 0.5, concepts: finance.concepts }).cells.map((c) => c.row))];
    const operand = (measure: string, name: string): string => finance.measures.find((m) => m.name === measure)!.operands.find((o) => o.name === name)!.phrase;
    expect(rowFor(operand('effective tax rate', 'A'))).toEqual(['Provision for income taxes']);
    expect(rowFor(operand('effective tax rate', 'B'))).toEqual(['Income before income taxes']);
    expect(rowFor(operand('gross margin', 'B'))).toEqual(['Revenues']);
  });
});
