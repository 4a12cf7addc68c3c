import { escapeControlChars } from './terminal-text.js';

describe('escapeControlChars', () => {
  it('makes C0, DEL, C1 and bidi controls visible and leaves ordinary text alone', () => {
    expect(escapeControlChars('report\x1b[2J\x07.pdf')).toBe('report\\x1b[2J\\x07.pdf');
    expect(escapeControlChars('a\x7fb\x9bc\x00')).toBe('a\\x7fb\\x9bc\\x00');
    expect(escapeControlChars('invoice\u202efdp.exe \u2066x\u2069 \u200f')).toBe('invoice\\u202efdp.exe \\u2066x\\u2069 \\u200f');
    expect(escapeControlChars('Umsatz 2023 — 37,5 € · 你好 é')).toBe('Umsatz 2023 — 37,5 € · 你好 é');
  });

  it('escapes newlines and tabs in a name, and keeps them in a report with keepLayout', () => {
    expect(escapeControlChars('a\nb\tc\r')).toBe('a\\x0ab\\x09c\\x0d');
    expect(escapeControlChars('line 1\n\tline 2\r\x1b[31m', { keepLayout: true })).toBe('line 1\n\tline 2\\x0d\\x1b[31m');
  });
});
