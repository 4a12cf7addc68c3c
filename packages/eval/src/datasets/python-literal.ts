/**
 * A safe reader of the Python literals that MMLongBench-Doc stores as strings (`"[5, 6]"`, `"['Chart', 'Table']"`)
 * and that its scorer passes to `eval`. Only literals are accepted: strings (single, double or triple quoted, with
 * the usual escapes and adjacent-string concatenation), ints, floats, `True` / `False` / `None`, lists and tuples.
 * Nothing is ever executed.
 */

/** A value a Python literal can hold here. */
export type PythonLiteral = string | number | boolean | null | PythonLiteral[];

class LiteralSyntaxError extends Error {}

/**
 * Parses a Python literal; returns `undefined` when `text` is not one (never throws).
 *
 * @example
 * ```ts
 * parsePythonLiteral("['Table', 'Chart']"); // ['Table', 'Chart']
 * parsePythonLiteral('[4, 5]');             // [4, 5]
 * parsePythonLiteral('[oops');              // undefined
 * ```
 */
export function parsePythonLiteral(text: string): PythonLiteral | undefined {
  const parser = new LiteralParser(text);
  try {
    const value = parser.value();
    parser.skipSpace();
    if (!parser.atEnd()) return undefined;
    return value;
  } catch (error) {
    if (error instanceof LiteralSyntaxError) return undefined;
    throw error;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', a: '\x07', '0': '\0', '\n': '' };

class LiteralParser {
  #pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.#pos >= this.text.length;
  }

  skipSpace(): void {
    while (this.#pos < this.text.length && /\s/.test(this.text[this.#pos]!)) this.#pos++;
  }

  value(depth = 0): PythonLiteral {
    if (depth > 32) throw new LiteralSyntaxError('nested too deeply');
    this.skipSpace();
    const c = this.text[this.#pos];
    if (c === undefined) throw new LiteralSyntaxError('unexpected end');
    if (c === '[') return this.sequence(']', depth);
    if (c === '(') return this.sequence(')', depth);
    if (c === "'" || c === '"' || (/[rRuUbB]/.test(c) && /['"]/.test(this.text[this.#pos + 1] ?? ''))) return this.strings();
    const word = /^(True|False|None)\b/.exec(this.text.slice(this.#pos));
    if (word) {
      this.#pos += word[0].length;
      return word[0] === 'True' ? true : word[0] === 'False' ? false : null;
    }
    return this.number();
  }

  sequence(close: string, depth: number): PythonLiteral[] {
    this.#pos++;
    const items: PythonLiteral[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.#pos] === close) {
        this.#pos++;
        return items;
      }
      items.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.text[this.#pos];
      if (c === ',') {
        this.#pos++;
        continue;
      }
      if (c === close) {
        this.#pos++;
        return items;
      }
      throw new LiteralSyntaxError('expected , or closing bracket');
    }
  }

  /** One string, or several adjacent ones concatenated as Python does. */
  strings(): string {
    let out = this.string();
    for (;;) {
      const save = this.#pos;
      this.skipSpace();
      const c = this.text[this.#pos];
      if (c === "'" || c === '"') out += this.string();
      else {
        this.#pos = save;
        return out;
      }
    }
  }

  string(): string {
    let raw = false;
    while (/[rRuUbB]/.test(this.text[this.#pos] ?? '')) {
      if (/[rR]/.test(this.text[this.#pos]!)) raw = true;
      this.#pos++;
    }
    const quote = this.text[this.#pos]!;
    const triple = this.text.startsWith(quote.repeat(3), this.#pos);
    const delimiter = triple ? quote.repeat(3) : quote;
    this.#pos += delimiter.length;
    let out = '';
    for (;;) {
      if (this.#pos >= this.text.length) throw new LiteralSyntaxError('unterminated string');
      if (this.text.startsWith(delimiter, this.#pos)) {
        this.#pos += delimiter.length;
        return out;
      }
      const c = this.text[this.#pos]!;
      if (c === '\n' && !triple) throw new LiteralSyntaxError('newline in string');
      if (c !== '\\') {
        out += c;
        this.#pos++;
        continue;
      }
      const next = this.text[this.#pos + 1];
      if (next === undefined) throw new LiteralSyntaxError('dangling backslash');
      if (raw) {
        out += c + next;
        this.#pos += 2;
        continue;
      }
      if (next in SIMPLE_ESCAPES) {
        out += SIMPLE_ESCAPES[next];
        this.#pos += 2;
        continue;
      }
      const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
      if (hexLength > 0) {
        const hex = this.text.slice(this.#pos + 2, this.#pos + 2 + hexLength);
        if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(hex)) throw new LiteralSyntaxError('bad escape');
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff) throw new LiteralSyntaxError('bad code point');
        out += String.fromCodePoint(code);
        this.#pos += 2 + hexLength;
        continue;
      }
      // Unknown escapes stay as written (Python keeps the backslash).
      out += c + next;
      this.#pos += 2;
    }
  }

  number(): number {
    const match = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?/.exec(this.text.slice(this.#pos));
    if (!match || match[0] === '' || /^[+-]$/.test(match[0])) throw new LiteralSyntaxError('expected a literal');
    this.#pos += match[0].length;
    const value = Number(match[0].replace(/_/g, ''));
    if (!Number.isFinite(value)) throw new LiteralSyntaxError('bad number');
    return value;
  }
}
