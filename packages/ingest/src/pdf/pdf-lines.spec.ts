import { collapseSpaces, endsInSpace, isRegexSpace, multiply } from './pdf-lines.js';

/** Every character `\s` matches, and some it does not. */
const SPACES = ['\t', '\n', '\u000b', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
const NOT_SPACES = ['a', '0', '\u0085', '\u180e', '\u200b', '\u2060', '_', '𝐀'];

describe('isRegexSpace', () => {
  it('answers as the `\\s` of a regex does', () => {
    for (const c of [...SPACES, ...NOT_SPACES]) expect([c, isRegexSpace(c.charCodeAt(0))]).toEqual([c, /\s/.test(c)]);
    for (let code = 0; code < 0x3100; code++) expect(isRegexSpace(code)).toBe(/\s/.test(String.fromCharCode(code)));
  });
});

describe('collapseSpaces', () => {
  it('gives what replacing whitespace runs with one space and trimming gives', () => {
    const texts = ['', ' ', 'word', ' lead', 'trail ', 'two  spaces', 'tab\there', 'no\u00a0break', 'a b c', 'a \u2009b', '\u3000x\u3000', 'x \n y', 'x\ufeff', '𝐀 𝐁'];
    for (const text of texts) expect([text, collapseSpaces(text)]).toEqual([text, text.replace(/\s+/g, ' ').trim()]);
  });
});

describe('endsInSpace', () => {
  it('tells whether the last character is whitespace', () => {
    for (const text of ['', 'a', 'a ', 'a\u00a0', ' a', 'a\u200b']) expect([text, endsInSpace(text)]).toEqual([text, /\s$/.test(text)]);
  });
});

describe('multiply', () => {
  it('fills missing entries from the identity matrix', () => {
    expect(multiply([2, 0, 0, 2, 10, 20], [1, 0, 0, 1, 5, 5])).toEqual([2, 0, 0, 2, 20, 30]);
    expect(multiply([], [3, 0, 0, 3])).toEqual([3, 0, 0, 3, 0, 0]);
  });
});
