import { DocTreeError } from '@doctree/schema';
import { ToolExecutor } from '../executor/tool-executor.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { computeEvalCard } from './compute-card.js';
import { evaluateExpression, type VariableInput } from './expression-evaluator.js';

function failure(expression: string, variables: Record<string, VariableInput> = {}): DocTreeError {
  try {
    evaluateExpression(expression, variables);
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw new Error(`not a DocTreeError: ${String(error)}`);
  }
  throw new Error(`${expression} did not fail`);
}

describe('compute.eval arithmetic', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['2 ^ -1', 0.5],
    ['10 / 4', 2.5],
    ['- -3', 3],
    ['1,482 - 1,291', 191],
    ['(1,482) + 100', -1382],
    ['(482) + 100', 582],
    ['12% * 200', 24],
    ['.5 + 1.25', 1.75],
    ['3 × 4 − 2 ÷ 2', 11],
    ['2 ** 10', 1024],
    ['max(1, 482)', 482],
    ['max(1,482)', 1482],
    ['round(2 / 3, 2)', 0.67],
    ['avg(1, 2, 3, 4)', 2.5],
    ['sum(1, 2, 3) - min(4, 5) + abs(-1)', 3],
    ['sqrt(16) + floor(2.7) + ceil(0.2)', 7],
  ])('%s = %d', (expression, expected) => {
    expect(evaluateExpression(expression).value).toBeCloseTo(expected, 10);
  });

  it('handles percents: literals are fractions, helpers return percents', () => {
    expect(evaluateExpression('12%')).toMatchObject({ value: 0.12, percent: true, text: '12%' });
    expect(evaluateExpression('percent_change(80, 100)')).toMatchObject({ value: 0.25, percent: true, display_value: 25, text: '25%' });
    expect(evaluateExpression('pct(41, 100)').text).toBe('41%');
    expect(evaluateExpression('5% + 2.5%').text).toBe('7.5%');
    expect(evaluateExpression('round(cagr(100, 121, 2), 1)').text).toBe('10%');
    expect(evaluateExpression('percent_change(a, b)', { a: '(1,291)', b: '(1,482)' }).text).toBe('-14.794733%');
  });

  it('carries units and scales: same-unit sums keep them, ratios of like units drop them', () => {
    expect(evaluateExpression('$1,482 million - $1,291 million')).toMatchObject({ value: 191e6, unit: '$', scale: 'millions', display_value: 191, text: '$191 million' });
    expect(evaluateExpression('1.5 billion usd / 3')).toMatchObject({ unit: '$', scale: 'billions', text: '$0.5 billion' });
    expect(evaluateExpression('$4,210 million / $3,884 million')).toMatchObject({ unit: null, scale: null });
    expect(evaluateExpression('120 ms + 30 ms').text).toBe('150 ms');
    expect(evaluateExpression('300 km / 2 h')).toMatchObject({ value: 150, unit: 'km/h' });
    expect(evaluateExpression('$(40) + 50').text).toBe('$10');
    expect(evaluateExpression('2,000 employees * 3').text).toBe('6,000 employees');
  });

  it('takes variables from earlier steps: numbers, cell strings and extracted cells', () => {
    const vars: Record<string, VariableInput> = {
      N_cars: 12,
      capex_2023: '(1,482)',
      margin: { value: 9.8, percent: true, unit: '%', scale: null },
      sales: { value: 1420, unit: '$', scale: 'millions', percent: false },
    };
    expect(evaluateExpression('N_cars / 4', vars).value).toBe(3);
    expect(evaluateExpression('-capex_2023', vars).value).toBe(1482);
    expect(evaluateExpression('sales * margin', vars)).toMatchObject({ value: 139.16e6, unit: '$', percent: false });
    expect(evaluateExpression('sales', vars).text).toBe('$1,420 million');
  });

  it('gives clear errors for division by zero, unknown names, bad syntax and unit clashes', () => {
    expect(failure('1 / (2 - 2)')).toMatchObject({ code: 'TOOL_FAILED', message: 'compute.eval: division by zero' });
    expect(failure('percent_change(0, 5)').message).toMatch(/division by zero/);
    expect(failure('revenue * 2', { sales: 1 })).toMatchObject({ code: 'TOOL_ARGS_INVALID', message: 'compute.eval: unknown variable revenue (known: sales)' });
    expect(failure('foo(1)').message).toMatch(/unknown function foo\(\)/);
    expect(failure('1 +').message).toMatch(/expected a number, a name or '\(' but found end of expression at column 4/);
    expect(failure('(1 + 2').message).toMatch(/expected '\)'/);
    expect(failure('2 3').message).toMatch(/unexpected number at column 3/);
    expect(failure('$5 + 3 ms')).toMatchObject({ code: 'TOOL_FAILED', message: 'compute.eval: cannot add $ and ms' });
    expect(failure('10 ^ 400').message).toMatch(/not a finite number/);
    expect(failure('')).toMatchObject({ code: 'TOOL_ARGS_INVALID' });
    expect(failure('('.repeat(100) + '1' + ')'.repeat(100)).message).toMatch(/nesting deeper than 64/);
  });

  it('cannot run code: property access, globals, prototypes and string tricks are rejected', () => {
    expect(failure('process.exit()').message).toMatch(/'\.' is not allowed/);
    expect(failure('constructor').message).toMatch(/unknown variable constructor/);
    expect(failure('constructor(1)').message).toMatch(/unknown function constructor\(\)/);
    expect(failure('toString()').message).toMatch(/unknown function toString\(\)/);
    expect(failure('__proto__').message).toMatch(/unknown variable __proto__/);
    expect(failure('hasOwnProperty', {}).message).toMatch(/unknown variable/);
    expect(failure('globalThis["process"]').message).toMatch(/not allowed|unexpected character/);
    expect(failure('require("fs")').message).toMatch(/unexpected character/);
    expect(failure('1; process.exit(1)').message).toMatch(/unexpected character ";"/);
    expect(failure('`${1}`').message).toMatch(/unexpected character/);
    expect(failure('eval(1)').message).toMatch(/unknown function eval\(\)/);
  });
});

describe('compute.eval through the executor', () => {
  const executor = new ToolExecutor({ registry: new ToolRegistry([computeEvalCard]), context: {} as never });

  it('returns the value and its rendering', async () => {
    const result = await executor.call({ tool_id: 'compute.eval', args: { expression: 'a - b', variables: { a: '$4,210 million', b: '$3,884 million' }, precision: 2 } });
    expect(result).toMatchObject({ status: 'ok', data: { value: 326e6, unit: '$', text: '$326 million' } });
  });

  it('rejects bad variable names at the argument check and evaluation errors as error results', async () => {
    const badName = await executor.call({ tool_id: 'compute.eval', args: { expression: '1', variables: { __proto__x: 1, 'a.b': 2 } } });
    expect(badName.error).toMatchObject({ code: 'TOOL_ARGS_INVALID', message: expect.stringMatching(/variables/) });
    const zero = await executor.call({ tool_id: 'compute.eval', args: { expression: 'x / 0', variables: { x: 1 } } });
    expect(zero).toMatchObject({ status: 'error', error: { code: 'TOOL_FAILED', message: 'compute.eval: division by zero' } });
  });
});
