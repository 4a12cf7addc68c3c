import { decodeHtmlEntities, parseHtmlTable, tableToMarkdown } from './html-table.js';

// Entity names come from documents: `&constructor;` or `&toString;` are unknown names, left as written, never the
// source text of a function inherited from Object.prototype.
const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__'];

describe('decodeHtmlEntities with names of Object.prototype properties', () => {
  it.each(PROTO_NAMES)('leaves &%s; as written', (name) => {
    expect(decodeHtmlEntities(`&${name};`)).toBe(`&${name};`);
    expect(decodeHtmlEntities(`a &${name}; b &amp; c`)).toBe(`a &${name}; b & c`);
  });

  it('still decodes the named, decimal and hex references it knows', () => {
    expect(decodeHtmlEntities('&amp;&lt;&gt;&quot;&apos;&nbsp;&mdash;&euro;&alpha;&#8212;&#x2014;')).toBe('&<>"\'\u00a0—€α——');
    expect(decodeHtmlEntities('&constructor;&amp;constructor;')).toBe('&constructor;&constructor;');
  });
});

describe('parseHtmlTable with prototype names in cells, entities and attributes', () => {
  it('reads them as text', () => {
    const html =
      '<table><tr><th>constructor</th><th>__proto__</th><th toString="1">toString</th></tr>' +
      '<tr><td>&constructor;</td><td colspan="constructor">&__proto__;</td><td __proto__="x">&valueOf; &amp; &hasOwnProperty;</td></tr></table>';
    const table = parseHtmlTable(html);
    expect(table.rows).toEqual([
      ['constructor', '__proto__', 'toString'],
      ['&constructor;', '&__proto__;', '&valueOf; & &hasOwnProperty;'],
    ]);
    expect(tableToMarkdown(table.rows, table.headerRows)).not.toContain('native code');
  });
});
