import { buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { balanceSheetTree } from '../__fixtures__/balance-sheet-tree.js';
import { DocTreeAgent } from './doctree-agent.js';
import type { FormulaOperandTrace } from './step-adapters.js';

/** The `compute` trace event of a run: formula, operands, result. */
function computeEvent(run: Awaited<ReturnType<DocTreeAgent['ask']>>): { formula: string; operands: FormulaOperandTrace[]; result: number } {
  const event = run.answer.trace.events.find((e) => e.type === 'plan' && (e.data as { compute?: unknown } | undefined)?.compute !== undefined);
  expect(event).toBeDefined();
  return (event!.data as { compute: { formula: string; operands: FormulaOperandTrace[]; result: number } }).compute;
}

describe('computations in the plan (each operand gathered with its own support, then computed)', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(balanceSheetTree());
  });
  afterAll(() => fixture.cleanup());

  it('a ratio question gets both line items from the table and answers their quotient; the trace lists both operands with pages', async () => {
    const run = await new DocTreeAgent({ index: fixture.index }).ask('What is the ratio of total current assets to total current liabilities in FY2023?');
    expect(run.answer.answer).toBe(2);
    const compute = computeEvent(run);
    expect(compute.formula).toBe('A / B');
    expect(compute.operands.map((o) => [o.name, o.label, o.value, o.year])).toEqual([
      ['A', 'Total current assets', 5000, 2023],
      ['B', 'Total current liabilities', 2500, 2023],
    ]);
    expect(compute.operands.every((o) => typeof o.page === 'number' && o.node_id.startsWith('tab_'))).toBe(true);
    expect(run.steps.find((s) => s.tool === 'compute.eval')?.status).toBe('ok');
    // The calibration knows the answer was computed from extracted operands, not read as written.
    expect(run.calibration?.features.computed_answer).toBe(1);
  });

  it('total liabilities is not read from the total current liabilities row', async () => {
    const run = await new DocTreeAgent({ index: fixture.index }).ask('What is the ratio of total liabilities to total assets in FY2023?');
    const compute = computeEvent(run);
    expect(compute.operands.map((o) => [o.label, o.value, o.node_id])).toEqual([
      ['Total liabilities', 7000, 'tab_2'],
      ['Total assets', 12000, 'tab_2'],
    ]);
    expect(run.answer.answer).toBeCloseTo(7000 / 12000, 4);
  });

  it('a growth rate between two fiscal years computes (new - old) / old', async () => {
    const run = await new DocTreeAgent({ index: fixture.index }).ask('What is the FY2022 - FY2023 net sales growth rate? Answer in units of percents.');
    const compute = computeEvent(run);
    expect(compute.operands.map((o) => [o.name, o.value, o.year, o.page])).toEqual([
      ['A0', 16000, 2022, 3],
      ['A1', 20000, 2023, 3],
    ]);
    expect(compute.formula).toBe('(A1 - A0) / A0');
    expect(run.answer.answer).toBe(25);
  });

  it('a definition in the question is followed, with an average balance over the two year ends', async () => {
    const run = await new DocTreeAgent({ index: fixture.index }).ask(
      'What is the FY2023 return on assets? Return on assets is defined as: FY2023 net income / (average total assets between FY2022 and FY2023). Round your answer to two decimal places.',
    );
    const compute = computeEvent(run);
    expect(compute.formula).toBe('A / B');
    expect(compute.operands.map((o) => [o.name, o.label, o.value])).toEqual([
      ['A', 'Net income', 1100],
      ['B', 'Total assets', 11000],
    ]);
    expect(run.answer.answer).toBe(0.1);
  });
});
