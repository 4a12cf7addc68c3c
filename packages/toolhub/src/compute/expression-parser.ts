import { DocTreeError } from '@doctree/schema';
import { scaleFromWord, type Scale } from '../table/number-text.js';

/**
 * Tokenizer and recursive-descent parser of `compute.eval` expressions. No `eval`, no `Function`: the input can only
 * ever become numbers, variable names, whitelisted function calls and arithmetic. Grammar:
 *
 * ```
 * expr    := term (('+' | '-') term)*
 * term    := unary (('*' | '/') unary)*
 * unary   := ('-' | '+' | currency) unary | power
 * power   := primary ('^' unary)?            (right-associative; -2^2 = -(2^2))
 * primary := number | name | name '(' [expr (',' expr)*] ')' | '(' expr ')'
 * number  := digits [',' ddd]* ['.' digits] ['%' | scale word | unit word]
 * ```
 *
 * Thousands separators need exactly three digits after each comma and no space (`1,482`); separate function arguments
 * with `, ` (a comma and a space) to avoid `max(1,482)` reading as 1482. An accounting negative `(1,482)` — a number
 * with thousands separators, or any number after a currency sign (`$(40)`, `($40)`) — reads as negative; `(577)` is plain grouping.
 */

/** Most characters in an expression. */
export const MAX_EXPRESSION_CHARS = 1000;
/** Deepest nesting of parentheses / unary operators. */
export const MAX_EXPRESSION_DEPTH = 64;

/** Unit words recognised right after a number, with their canonical spelling. Currency codes become symbols. */
export const UNIT_WORDS: ReadonlyMap<string, string> = new Map([
  ['usd', '$'], ['dollar', '$'], ['dollars', '$'], ['eur', '€'], ['euro', '€'], ['euros', '€'], ['gbp', '£'], ['jpy', '¥'],
  ['ms', 'ms'], ['s', 's'], ['sec', 's'], ['seconds', 's'], ['minutes', 'min'], ['min', 'min'], ['hours', 'h'], ['h', 'h'], ['days', 'days'], ['years', 'years'],
  ['kg', 'kg'], ['g', 'g'], ['tonnes', 't'], ['tons', 't'], ['km', 'km'], ['cm', 'cm'], ['mm', 'mm'],
  ['kb', 'kb'], ['mb', 'mb'], ['gb', 'gb'], ['tb', 'tb'], ['bps', 'bps'], ['pp', 'pp'],
  ['people', 'people'], ['employees', 'employees'], ['units', 'units'],
]);

const CURRENCY_SIGNS: ReadonlyMap<string, string> = new Map([['$', '$'], ['€', '€'], ['£', '£'], ['¥', '¥']]);

/** A number literal as written. */
export interface NumberLiteral {
  /** Digits as a number (`1482` for `1,482`, `12.5` for `12.5%`). */
  value: number;
  percent: boolean;
  scale?: Scale;
  unit?: string;
  /** Written with thousands separators. */
  grouped: boolean;
}

/** Syntax tree of an expression. */
export type ExprNode =
  | { type: 'number'; literal: NumberLiteral; pos: number }
  | { type: 'variable'; name: string; pos: number }
  | { type: 'unary'; op: '-' | '+'; arg: ExprNode; pos: number }
  | { type: 'currency'; currency: string; arg: ExprNode; pos: number }
  | { type: 'binary'; op: '+' | '-' | '*' | '/' | '^'; left: ExprNode; right: ExprNode; pos: number }
  | { type: 'call'; name: string; args: ExprNode[]; pos: number };

type Token =
  | { kind: 'number'; literal: NumberLiteral; pos: number; currency?: undefined }
  | { kind: 'name'; name: string; pos: number }
  | { kind: 'currency'; currency: string; pos: number }
  | { kind: 'op'; op: '+' | '-' | '*' | '/' | '^' | '(' | ')' | ','; pos: number }
  | { kind: 'end'; pos: number };

/** Throws the syntax error of an expression, naming the 1-based column and showing where. */
export function syntaxError(expression: string, pos: number, message: string): never {
  const column = pos + 1;
  const marked = `${expression.slice(0, pos)} ⟨here⟩ ${expression.slice(pos)}`.trim();
  throw new DocTreeError('TOOL_ARGS_INVALID', `compute.eval: ${message} at column ${column}: ${marked.length > 160 ? `${marked.slice(0, 157)}…` : marked}`, {
    details: { column },
    hint: 'Use numbers, variable names, + - * / ^, parentheses and the functions abs, round, min, max, sum, avg, sqrt, percent_change, pct, ratio, cagr.',
  });
}

/** Normalises typographic operators: `×` `·` → `*`, `÷` → `/`, `−` `–` → `-`, `**` → `^`, NBSP → space. */
export function normalizeExpression(expression: string): string {
  return expression
    .normalize('NFKC')
    .replace(/[×·]/g, '*')
    .replace(/÷/g, '/')
    .replace(/[−–—]/g, '-')
    .replace(/\*\*/g, '^')
    .replace(/\s+/g, ' ');
}

const NUMBER_RE = /(?:[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])|[0-9]+)(?:\.[0-9]+)?|\.[0-9]+/y;
const WORD_RE = /[A-Za-z_][A-Za-z0-9_]*/y;
const SPACE_WORD_RE = / ?([A-Za-z]+)(?![A-Za-z0-9_(])/y;

/** Splits an expression into tokens. */
export function tokenize(expression: string): Token[] {
  const s = expression;
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === ' ') {
      i++;
      continue;
    }
    const currency = CURRENCY_SIGNS.get(ch);
    if (currency) {
      tokens.push({ kind: 'currency', currency, pos: i });
      i++;
      continue;
    }
    if ((ch >= '0' && ch <= '9') || (ch === '.' && /[0-9]/.test(s[i + 1] ?? ''))) {
      NUMBER_RE.lastIndex = i;
      const m = NUMBER_RE.exec(s);
      if (!m) syntaxError(s, i, 'malformed number');
      const literal: NumberLiteral = { value: Number(m[0].replace(/,/g, '')), percent: false, grouped: m[0].includes(',') };
      if (!Number.isFinite(literal.value)) syntaxError(s, i, 'number too large');
      const pos = i;
      i += m[0].length;
      if (/[0-9.]/.test(s[i] ?? '')) syntaxError(s, i, 'malformed number');
      // suffixes: %, scale word, unit word (a scale may be followed by a unit: `1.5 million usd`)
      const j = s[i] === ' ' ? i + 1 : i;
      if (s[j] === '%') {
        literal.percent = true;
        i = j + 1;
      } else {
        for (let round = 0; round < 2; round++) {
          SPACE_WORD_RE.lastIndex = i;
          const w = SPACE_WORD_RE.exec(s);
          if (!w) break;
          const word = w[1]!.toLowerCase();
          const scale = literal.scale === undefined && literal.unit === undefined ? scaleFromWord(word) : undefined;
          const unit = literal.unit === undefined ? UNIT_WORDS.get(word) : undefined;
          if (scale) literal.scale = scale;
          else if (unit) literal.unit = unit;
          else break;
          i += w[0].length;
        }
      }
      tokens.push({ kind: 'number', literal, pos });
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      WORD_RE.lastIndex = i;
      const m = WORD_RE.exec(s)!;
      const pos = i;
      i += m[0].length;
      if (s[i] === '.' || s[i] === '[') syntaxError(s, i, `'${s[i]}' is not allowed (no property access)`);
      tokens.push({ kind: 'name', name: m[0], pos });
      continue;
    }
    if ('+-*/^(),'.includes(ch)) {
      tokens.push({ kind: 'op', op: ch as '+' | '-' | '*' | '/' | '^' | '(' | ')' | ',', pos: i });
      i++;
      continue;
    }
    syntaxError(s, i, `unexpected character ${JSON.stringify(ch)}`);
  }
  tokens.push({ kind: 'end', pos: s.length });
  return tokens;
}

/**
 * Parses an expression into a syntax tree.
 *
 * @throws DocTreeError `TOOL_ARGS_INVALID` naming the column of the first syntax error, for empty or overlong input,
 *   and for nesting deeper than {@link MAX_EXPRESSION_DEPTH}.
 */
export function parseExpression(raw: string): ExprNode {
  const expression = normalizeExpression(raw);
  if (expression.trim().length === 0) syntaxError(expression, 0, 'empty expression');
  if (expression.length > MAX_EXPRESSION_CHARS) throw new DocTreeError('TOOL_ARGS_INVALID', `compute.eval: expression longer than ${MAX_EXPRESSION_CHARS} characters`);
  const tokens = tokenize(expression);
  let at = 0;
  let depth = 0;
  const peek = (): Token => tokens[at]!;
  const next = (): Token => tokens[at++]!;
  const isOp = (t: Token, op: string): boolean => t.kind === 'op' && t.op === op;
  const describe = (t: Token): string =>
    t.kind === 'end' ? 'end of expression' : t.kind === 'op' ? `'${t.op}'` : t.kind === 'name' ? `name ${t.name}` : t.kind === 'currency' ? `'${t.currency}'` : 'number';
  const enter = (pos: number): void => {
    if (++depth > MAX_EXPRESSION_DEPTH) syntaxError(expression, pos, `nesting deeper than ${MAX_EXPRESSION_DEPTH}`);
  };

  const parseExpr = (): ExprNode => {
    let left = parseTerm();
    while (isOp(peek(), '+') || isOp(peek(), '-')) {
      const t = next() as Extract<Token, { kind: 'op' }>;
      left = { type: 'binary', op: t.op as '+' | '-', left, right: parseTerm(), pos: t.pos };
    }
    return left;
  };
  const parseTerm = (): ExprNode => {
    let left = parseUnary();
    while (isOp(peek(), '*') || isOp(peek(), '/')) {
      const t = next() as Extract<Token, { kind: 'op' }>;
      left = { type: 'binary', op: t.op as '*' | '/', left, right: parseUnary(), pos: t.pos };
    }
    return left;
  };
  const parseUnary = (): ExprNode => {
    const t = peek();
    if (isOp(t, '-') || isOp(t, '+')) {
      next();
      enter(t.pos);
      const arg = parseUnary();
      depth--;
      return { type: 'unary', op: (t as Extract<Token, { kind: 'op' }>).op as '-' | '+', arg, pos: t.pos };
    }
    if (t.kind === 'currency') {
      next();
      // accounting negative after a currency sign: $(40)
      const a = tokens[at];
      const b = tokens[at + 1];
      const c = tokens[at + 2];
      if (a && isOp(a, '(') && b?.kind === 'number' && c && isOp(c, ')')) {
        at += 3;
        return { type: 'currency', currency: t.currency, arg: { type: 'unary', op: '-', arg: { type: 'number', literal: b.literal, pos: b.pos }, pos: a.pos }, pos: t.pos };
      }
      enter(t.pos);
      const arg = parseUnary();
      depth--;
      return { type: 'currency', currency: t.currency, arg, pos: t.pos };
    }
    return parsePower();
  };
  const parsePower = (): ExprNode => {
    const base = parsePrimary();
    if (isOp(peek(), '^')) {
      const t = next();
      enter(t.pos);
      const exponent = parseUnary();
      depth--;
      return { type: 'binary', op: '^', left: base, right: exponent, pos: t.pos };
    }
    return base;
  };
  const parsePrimary = (): ExprNode => {
    const t = next();
    if (t.kind === 'number') return { type: 'number', literal: t.literal, pos: t.pos };
    if (t.kind === 'name') {
      if (isOp(peek(), '(')) {
        next();
        enter(t.pos);
        const args: ExprNode[] = [];
        if (!isOp(peek(), ')')) {
          args.push(parseExpr());
          while (isOp(peek(), ',')) {
            next();
            args.push(parseExpr());
          }
        }
        const close = next();
        if (!isOp(close, ')')) syntaxError(expression, close.pos, `expected ')' to close ${t.name}( but found ${describe(close)}`);
        depth--;
        return { type: 'call', name: t.name, args, pos: t.pos };
      }
      return { type: 'variable', name: t.name, pos: t.pos };
    }
    if (isOp(t, '(')) {
      // accounting negative: (1,482) or ($1,482)
      const a = tokens[at];
      const b = tokens[at + 1];
      const c = tokens[at + 2];
      if (a?.kind === 'number' && a.literal.grouped && b && isOp(b, ')')) {
        at += 2;
        return { type: 'unary', op: '-', arg: { type: 'number', literal: a.literal, pos: a.pos }, pos: t.pos };
      }
      if (a?.kind === 'currency' && b?.kind === 'number' && c && isOp(c, ')')) {
        at += 3;
        return { type: 'unary', op: '-', arg: { type: 'currency', currency: a.currency, arg: { type: 'number', literal: b.literal, pos: b.pos }, pos: a.pos }, pos: t.pos };
      }
      enter(t.pos);
      const inner = parseExpr();
      const close = next();
      if (!isOp(close, ')')) syntaxError(expression, close.pos, `expected ')' but found ${describe(close)}`);
      depth--;
      return inner;
    }
    return syntaxError(expression, t.pos, `expected a number, a name or '(' but found ${describe(t)}`);
  };

  const tree = parseExpr();
  const rest = peek();
  if (rest.kind !== 'end') syntaxError(expression, rest.pos, `unexpected ${describe(rest)}`);
  return tree;
}
