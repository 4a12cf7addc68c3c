/**
 * Small re-implementations of the Python built-ins MMLongBench-Doc's `eval_score.py` relies on (`float()`, `int()`,
 * `str(float)`, `round(x, n)`, `str(list)`), so that its edge cases score the same here.
 */

const PY_FLOAT = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const PY_INT = /^[+-]?\d(?:_?\d)*$/;

/** Python's `str.strip()` (whitespace only). */
export function pyStrip(text: string): string {
  // Python also strips the information separators U+001C..U+001F and U+0085.
  const isSpace = (c: string): boolean => /\s/u.test(c) || (c >= '\u001c' && c <= '\u001f') || c === '\u0085';
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text[start]!)) start++;
  while (end > start && isSpace(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** Python's `float(text)`: the number, or `undefined` where Python raises `ValueError`. */
export function pyFloat(text: string): number | undefined {
  const s = pyStrip(text);
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(s);
  if (special) {
    if (special[2]!.toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!PY_FLOAT.test(s)) return undefined;
  return Number(s.replace(/_/g, ''));
}

/** Python's `int(text)` for a string: the integer, or `undefined` where Python raises `ValueError`. */
export function pyIntFromString(text: string): number | undefined {
  const s = pyStrip(text);
  return PY_INT.test(s) ? Number(s.replace(/_/g, '')) : undefined;
}

/** Python's `int(x)` for a float (truncation toward zero); `undefined` for NaN and infinities (Python raises). */
export function pyIntFromFloat(x: number): number | undefined {
  return Number.isFinite(x) ? Math.trunc(x) : undefined;
}

/** Python's `repr(float)` / `str(float)`: shortest round-trip digits, `.0` for integral values, `1e-05` style exponents. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = x.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? '-' : '+';
    return `${sign}${head}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const intLength = exponent + 1;
  if (digits.length <= intLength) return `${sign}${digits.padEnd(intLength, '0')}.0`;
  return `${sign}${digits.slice(0, intLength)}.${digits.slice(intLength)}`;
}

/**
 * Python's `round(x, ndigits)` for `ndigits >= 0`: rounds the exact binary value half-to-even, so `round(0.125, 2)`
 * is `0.12` and `round(2.675, 2)` is `2.67` (2.675 is stored as 2.67499…).
 */
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  const n = Math.max(0, Math.min(ndigits, 99));
  const negative = x < 0 || Object.is(x, -0);
  const [intPart, frac = ''] = Math.abs(x).toFixed(100).split('.') as [string, string?];
  const kept = BigInt(intPart + frac.slice(0, n));
  const next = frac[n] ?? '0';
  const rest = frac.slice(n + 1);
  let up: boolean;
  if (next > '5') up = true;
  else if (next < '5') up = false;
  else if (/[1-9]/.test(rest)) up = true;
  else up = kept % 2n === 1n;
  const rounded = (up ? kept + 1n : kept).toString().padStart(n + 1, '0');
  const text = n === 0 ? rounded : `${rounded.slice(0, -n)}.${rounded.slice(-n)}`;
  const value = Number(text);
  return negative ? -value : value;
}

/** Python's `repr(str)`. */
function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const c of text) {
    if (c === '\\') out += '\\\\';
    else if (c === quote) out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else out += c;
  }
  return `${quote}${out}${quote}`;
}

/**
 * Python's `str(value)` for the values an answer can hold. Integral numbers print as Python ints (`6`), other
 * numbers as Python floats (`0.5`), lists as `['a', 2]`.
 */
export function pyStr(value: unknown): string {
  if (typeof value === 'string') return value;
  return pyRepr(value);
}

function pyRepr(value: unknown): string {
  if (typeof value === 'string') return pyStringRepr(value);
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e16 ? String(value) : pyFloatRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null || value === undefined) return 'None';
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return pyStringRepr(String(value));
}
