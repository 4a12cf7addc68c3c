import { DocTreeError } from '@doctree/schema';
import { SCALE_MULTIPLIERS, parseNumberText, scaleFromWord, type Scale } from '../table/number-text.js';
import { parseExpression, type ExprNode } from './expression-parser.js';

/**
 * A number with what it measures: `value` is the plain number (scales multiplied out, percents as fractions:
 * `12%` → 0.12), `unit` a currency or measurement unit (`$`, `ms`) or null, `percent` marks fractions to show as `%`,
 * `scale` the scale to show the result in (`millions`) when the inputs agreed on one.
 */
export interface Quantity {
  value: number;
  unit: string | null;
  percent: boolean;
  scale: Scale | null;
}

/**
 * A variable as callers give it: a number, a string read like a cell (`"(1,482)"`, `"$1.2 billion"`, `"12.5%"`), or a
 * quantity as written — `value` as written with its `scale` and `percent` flag (an `extract.column` cell fits as is).
 */
export type VariableInput = number | string | { value: number | null; unit?: string | null | undefined; percent?: boolean | undefined; scale?: string | null | undefined };

/** Result of {@link evaluateExpression}. */
export interface ComputeResult {
  /** The expression as given. */
  expression: string;
  /** The plain number (percent as a fraction). */
  value: number;
  unit: string | null;
  percent: boolean;
  scale: Scale | null;
  /** The number to show: × 100 for percents, ÷ the scale multiplier for scaled values, rounded to `precision` decimals. */
  display_value: number;
  /** How to show it: `12.5%`, `$191 million`, `1,234.5 ms`. */
  text: string;
}

/** Options of {@link evaluateExpression}. */
export interface EvaluateOptions {
  /** Decimals kept in `display_value` and `text`. Default 6. */
  precision?: number;
}

/** Defaults of {@link EvaluateOptions}. */
export const EVALUATE_DEFAULTS: Required<EvaluateOptions> = { precision: 6 };

function fail(message: string, code: 'TOOL_FAILED' | 'TOOL_ARGS_INVALID' = 'TOOL_FAILED'): never {
  throw new DocTreeError(code, `compute.eval: ${message}`);
}

const plain = (value: number): Quantity => ({ value, unit: null, percent: false, scale: null });
/** A pure factor: no unit, no scale, not a percent (multiplying by it keeps the other side's display scale). */
const isFactor = (q: Quantity): boolean => q.unit === null && q.scale === null && !q.percent;

function checked(q: Quantity, what: string): Quantity {
  if (!Number.isFinite(q.value)) fail(`${what} is not a finite number (overflow)`);
  return q;
}

/** Turns a variable input into a quantity. */
export function quantityOf(name: string, input: VariableInput): Quantity {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) fail(`variable ${name} is not a finite number`, 'TOOL_ARGS_INVALID');
    return plain(input);
  }
  if (typeof input === 'string') {
    const parsed = parseNumberText(input);
    if (!parsed) fail(`variable ${name} = ${JSON.stringify(input)} is not a number`, 'TOOL_ARGS_INVALID');
    const scale = parsed.scale ?? null;
    return {
      value: parsed.percent ? parsed.value / 100 : parsed.value * (scale ? SCALE_MULTIPLIERS[scale] : 1),
      unit: parsed.percent ? null : (parsed.currency ?? null),
      percent: parsed.percent,
      scale,
    };
  }
  if (input.value === null || !Number.isFinite(input.value)) fail(`variable ${name} has no value`, 'TOOL_ARGS_INVALID');
  const scale = input.scale ? (scaleFromWord(input.scale) ?? null) : null;
  if (input.scale && !scale) fail(`variable ${name} has an unknown scale ${JSON.stringify(input.scale)} (thousands, millions, billions, trillions)`, 'TOOL_ARGS_INVALID');
  const percent = input.percent === true || input.unit === '%';
  return {
    value: percent ? input.value / 100 : input.value * (scale ? SCALE_MULTIPLIERS[scale] : 1),
    unit: percent ? null : (input.unit ?? null),
    percent,
    scale: percent ? null : scale,
  };
}

function sameUnit(a: Quantity, b: Quantity, op: string): string | null {
  if (a.unit !== null && b.unit !== null && a.unit !== b.unit) fail(`cannot ${op} ${a.unit} and ${b.unit}`);
  return a.unit ?? b.unit;
}

function mergeScale(a: Quantity, b: Quantity): Scale | null {
  if (a.scale && b.scale) return a.scale === b.scale ? a.scale : null;
  return a.scale ?? b.scale;
}

function add(a: Quantity, b: Quantity, sign: 1 | -1): Quantity {
  const unit = sameUnit(a, b, sign === 1 ? 'add' : 'subtract');
  return checked({ value: a.value + sign * b.value, unit, percent: a.percent && b.percent, scale: mergeScale(a, b) }, 'the sum');
}

function multiply(a: Quantity, b: Quantity): Quantity {
  const unit = a.unit && b.unit ? `${a.unit}*${b.unit}` : (a.unit ?? b.unit);
  const scale = isFactor(b) ? a.scale : isFactor(a) ? b.scale : null;
  return checked({ value: a.value * b.value, unit, percent: a.percent && b.percent, scale }, 'the product');
}

function divide(a: Quantity, b: Quantity): Quantity {
  if (b.value === 0) fail('division by zero');
  let unit: string | null;
  if (a.unit !== null && a.unit === b.unit) unit = null;
  else if (a.unit !== null && b.unit === null) unit = a.unit;
  else if (a.unit === null && b.unit !== null) unit = `1/${b.unit}`;
  else if (a.unit !== null && b.unit !== null) unit = `${a.unit}/${b.unit}`;
  else unit = null;
  const percent = a.percent && !b.percent;
  const scale = isFactor(b) ? a.scale : null;
  return checked({ value: a.value / b.value, unit, percent, scale }, 'the quotient');
}

function power(a: Quantity, b: Quantity): Quantity {
  if (b.unit !== null) fail('an exponent cannot carry a unit');
  if (a.unit !== null && !Number.isInteger(b.value)) fail(`cannot raise ${a.unit} to a fractional power`);
  if (a.value < 0 && !Number.isInteger(b.value)) fail('a negative number to a fractional power is not a real number');
  if (a.value === 0 && b.value < 0) fail('division by zero (0 to a negative power)');
  const unit = a.unit === null ? null : b.value === 1 ? a.unit : `${a.unit}^${b.value}`;
  return checked({ value: a.value ** b.value, unit, percent: false, scale: null }, 'the power');
}

type Fn = (args: Quantity[]) => Quantity;

function arity(name: string, args: Quantity[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    fail(`${name}() takes ${min === max ? min : `${min} to ${max === Number.POSITIVE_INFINITY ? 'any number of' : max}`} argument${max === 1 ? '' : 's'}, got ${args.length}`, 'TOOL_ARGS_INVALID');
  }
}

function aggregate(name: string, args: Quantity[]): Quantity {
  arity(name, args, 1, Number.POSITIVE_INFINITY);
  return args.slice(1).reduce((acc, q) => add(acc, q, 1), args[0]!);
}

/** Whitelisted functions (the only callables an expression can reach). */
const FUNCTIONS = new Map<string, Fn>([
  ['abs', (a) => (arity('abs', a, 1), { ...a[0]!, value: Math.abs(a[0]!.value) })],
  [
    'round',
    (a) => {
      arity('round', a, 1, 2);
      const digits = a[1]?.value ?? 0;
      if (!Number.isInteger(digits) || digits < 0 || digits > 12) fail('round() digits must be an integer in 0..12', 'TOOL_ARGS_INVALID');
      const q = a[0]!;
      // round what people see: percents in percent points, scaled values in their scale
      const shown = q.percent ? 100 : q.scale ? 1 / SCALE_MULTIPLIERS[q.scale] : 1;
      const f = 10 ** digits;
      return { ...q, value: Math.round(q.value * shown * f) / f / shown };
    },
  ],
  ['floor', (a) => (arity('floor', a, 1), { ...a[0]!, value: Math.floor(a[0]!.value) })],
  ['ceil', (a) => (arity('ceil', a, 1), { ...a[0]!, value: Math.ceil(a[0]!.value) })],
  [
    'sqrt',
    (a) => {
      arity('sqrt', a, 1);
      if (a[0]!.value < 0) fail('sqrt() of a negative number');
      if (a[0]!.unit !== null) fail(`cannot take the square root of ${a[0]!.unit}`);
      return plain(Math.sqrt(a[0]!.value));
    },
  ],
  ['min', (a) => (arity('min', a, 1, Number.POSITIVE_INFINITY), a.reduce((m, q) => (sameUnit(m, q, 'compare'), q.value < m.value ? q : m)))],
  ['max', (a) => (arity('max', a, 1, Number.POSITIVE_INFINITY), a.reduce((m, q) => (sameUnit(m, q, 'compare'), q.value > m.value ? q : m)))],
  ['sum', (a) => aggregate('sum', a)],
  ['avg', (a) => divide(aggregate('avg', a), plain(a.length))],
  ['mean', (a) => divide(aggregate('mean', a), plain(a.length))],
  ['diff', (a) => (arity('diff', a, 2), add(a[0]!, a[1]!, -1))],
  ['ratio', (a) => (arity('ratio', a, 2), { ...divide(a[0]!, a[1]!), percent: false })],
  [
    'pct',
    (a) => {
      arity('pct', a, 2);
      sameUnit(a[0]!, a[1]!, 'compare');
      return { ...divide(a[0]!, a[1]!), unit: null, percent: true, scale: null };
    },
  ],
  [
    'percent_change',
    (a) => {
      arity('percent_change', a, 2);
      const [from, to] = a as [Quantity, Quantity];
      sameUnit(from, to, 'compare');
      if (from.value === 0) fail('division by zero (percent change from 0)');
      return checked({ value: (to.value - from.value) / Math.abs(from.value), unit: null, percent: true, scale: null }, 'the percent change');
    },
  ],
  [
    'cagr',
    (a) => {
      arity('cagr', a, 3);
      const [start, end, years] = a as [Quantity, Quantity, Quantity];
      sameUnit(start, end, 'compare');
      if (start.value <= 0 || end.value < 0) fail('cagr() needs a positive start value and a non-negative end value');
      if (years.value <= 0) fail('cagr() needs a positive number of years');
      return checked({ value: (end.value / start.value) ** (1 / years.value) - 1, unit: null, percent: true, scale: null }, 'the growth rate');
    },
  ],
]);
FUNCTIONS.set('percent_of', FUNCTIONS.get('pct')!);
FUNCTIONS.set('average', FUNCTIONS.get('avg')!);

/** Names of the functions an expression may call. */
export const COMPUTE_FUNCTIONS: readonly string[] = [...FUNCTIONS.keys()];

function evaluateNode(node: ExprNode, variables: ReadonlyMap<string, Quantity>): Quantity {
  switch (node.type) {
    case 'number': {
      const { value, percent, scale, unit } = node.literal;
      if (percent) return { value: value / 100, unit: null, percent: true, scale: null };
      return { value: value * (scale ? SCALE_MULTIPLIERS[scale] : 1), unit: unit ?? null, percent: false, scale: scale ?? null };
    }
    case 'variable': {
      const q = variables.get(node.name);
      if (!q) {
        const known = [...variables.keys()];
        fail(`unknown variable ${node.name}${known.length > 0 ? ` (known: ${known.join(', ')})` : ' (no variables were given)'}`, 'TOOL_ARGS_INVALID');
      }
      return q;
    }
    case 'unary': {
      const q = evaluateNode(node.arg, variables);
      return node.op === '-' ? { ...q, value: -q.value } : q;
    }
    case 'currency': {
      const q = evaluateNode(node.arg, variables);
      if (q.unit !== null && q.unit !== node.currency) fail(`cannot mark ${q.unit} as ${node.currency}`);
      if (q.percent) fail(`cannot mark a percent as ${node.currency}`);
      return { ...q, unit: node.currency };
    }
    case 'binary': {
      const a = evaluateNode(node.left, variables);
      const b = evaluateNode(node.right, variables);
      switch (node.op) {
        case '+':
          return add(a, b, 1);
        case '-':
          return add(a, b, -1);
        case '*':
          return multiply(a, b);
        case '/':
          return divide(a, b);
        case '^':
          return power(a, b);
      }
      break;
    }
    case 'call': {
      const fn = FUNCTIONS.get(node.name.toLowerCase());
      if (!fn) fail(`unknown function ${node.name}() (known: ${COMPUTE_FUNCTIONS.join(', ')})`, 'TOOL_ARGS_INVALID');
      return checked(fn(node.args.map((a) => evaluateNode(a, variables))), `${node.name}()`);
    }
  }
  return fail('unreachable expression node', 'TOOL_FAILED');
}

const SCALE_NAMES: Readonly<Record<Scale, string>> = { thousands: 'thousand', millions: 'million', billions: 'billion', trillions: 'trillion' };

/** Formats a quantity for people: `12.5%`, `$191 million`, `-$1,482`, `1,234.5 ms`. */
export function formatQuantity(q: Quantity, precision: number = EVALUATE_DEFAULTS.precision): { display_value: number; text: string } {
  const shown = q.percent ? q.value * 100 : q.scale ? q.value / SCALE_MULTIPLIERS[q.scale] : q.value;
  const f = 10 ** precision;
  const display = Math.round(shown * f) / f || 0;
  const digits = Math.abs(display).toLocaleString('en-US', { maximumFractionDigits: precision });
  const sign = display < 0 ? '-' : '';
  if (q.percent) return { display_value: display, text: `${sign}${digits}%` };
  const scaleWord = q.scale ? ` ${SCALE_NAMES[q.scale]}` : '';
  const symbol = q.unit !== null && ['$', '€', '£', '¥'].includes(q.unit) ? q.unit : '';
  const suffix = q.unit !== null && !symbol ? ` ${q.unit}` : '';
  return { display_value: display, text: `${sign}${symbol}${digits}${scaleWord}${suffix}` };
}

/**
 * Evaluates an arithmetic expression safely (a parser and an evaluator over whitelisted operations; no `eval`): numbers
 * with thousands separators, accounting negatives `(1,482)`, percents (`12%` → 0.12), scale words (`1.5 million`),
 * currency signs and unit words carried through (same-unit addition and subtraction; a ratio of like units drops them),
 * variables from earlier steps, and the functions of {@link COMPUTE_FUNCTIONS} (`percent_change(old, new)`,
 * `pct(part, whole)`, `cagr(start, end, years)`, `round(x, digits)`…).
 *
 * @throws DocTreeError `TOOL_ARGS_INVALID` for syntax errors (with the column), unknown variables or functions;
 *   `TOOL_FAILED` for division by zero, incompatible units and non-finite results.
 *
 * @example
 * ```ts
 * evaluateExpression('percent_change(abs(capex_2022), abs(capex_2023))', { capex_2022: '(1,291)', capex_2023: '(1,482)' }).text; // '14.794733%'
 * evaluateExpression('$1,482 million - $1,291 million').text; // '$191 million'
 * ```
 */
export function evaluateExpression(expression: string, variables: Readonly<Record<string, VariableInput>> = {}, options: EvaluateOptions = {}): ComputeResult {
  const { precision } = { ...EVALUATE_DEFAULTS, ...options };
  const tree = parseExpression(expression);
  const vars = new Map<string, Quantity>();
  for (const [name, input] of Object.entries(variables)) vars.set(name, quantityOf(name, input));
  const q = evaluateNode(tree, vars);
  return { expression, value: q.value, unit: q.unit, percent: q.percent, scale: q.scale, ...formatQuantity(q, precision) };
}
