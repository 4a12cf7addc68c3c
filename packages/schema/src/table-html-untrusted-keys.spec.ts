import { decodeHtmlEntities as decodeEntities, parseHtmlTable } from './table-html.js';

// Entity names come from documents: `&constructor;` or `&toString;` are unknown names, left as written.
const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__'];

describe('decodeHtmlEntities / parseHtmlTable with names of Object.prototype properties', () => {
  it.each(PROTO_NAMES)('leaves &%s; as written', (name) => {
    expect(decodeEntities(`&${name};`)).toBe(`&${name};`);
    expect(decodeEntities(`x &${name}; &amp; &#36;`)).toBe(`x &${name}; & $`);
  });

  it('reads cells holding them as text', () => {
    const grid = parseHtmlTable('<table><tr><th>constructor</th><th>&toString;</th></tr><tr><td>&__proto__;</td><td>&valueOf; &mdash; 1</td></tr></table>');
    expect(grid.rows).toEqual([
      ['constructor', '&toString;'],
      ['&__proto__;', '&valueOf; — 1'],
    ]);
  });
});
