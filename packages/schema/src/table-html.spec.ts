import { HTML_TABLE_LIMITS, decodeHtmlEntities, escapeHtml, extractTableHtml, gridToHtml, parseHtmlTable, tableToMarkdown } from './table-html.js';

describe('parseHtmlTable', () => {
  it('reads thead/tbody with th and td', () => {
    const html = '<table><thead><tr><th>Year</th><th>Revenue</th></tr></thead><tbody><tr><td>2022</td><td>10</td></tr><tr><td>2023</td><td>12</td></tr></tbody></table>';
    expect(parseHtmlTable(html)).toEqual({ rows: [['Year', 'Revenue'], ['2022', '10'], ['2023', '12']], headerRows: 1 });
  });

  it('repeats the text of colspan and rowspan cells in every position they cover', () => {
    const html = `
      <table>
        <tr><th rowspan="2">Segment</th><th colspan="2">Revenue</th></tr>
        <tr><th>2022</th><th>2023</th></tr>
        <tr><td>Industrial</td><td>11</td><td>12</td></tr>
        <tr><td rowspan=2>Health</td><td colspan='2'>n/a</td></tr>
        <tr><td>8</td><td>9</td></tr>
      </table>`;
    expect(parseHtmlTable(html)).toEqual({
      rows: [
        ['Segment', 'Revenue', 'Revenue'],
        ['Segment', '2022', '2023'],
        ['Industrial', '11', '12'],
        ['Health', 'n/a', 'n/a'],
        ['Health', '8', '9'],
      ],
      headerRows: 2,
    });
  });

  it('treats a MinerU-style two-level header drawn with td as header rows', () => {
    const html = '<table><tr><td rowspan="2">Item</td><td colspan="2">Cost</td></tr><tr><td>Q1</td><td>Q2</td></tr><tr><td>Steel</td><td>1</td><td>2</td></tr></table>';
    expect(parseHtmlTable(html).headerRows).toBe(2);
    expect(parseHtmlTable('<table><tr><td rowspan="2">A</td><td>1</td></tr><tr><td>2</td></tr></table>').headerRows).toBe(0);
  });

  it('decodes entities and flattens nested tags, line breaks and nested tables into cell text', () => {
    const html =
      '<TABLE border=1><TR><TD>R&amp;D &lt;core&gt;&nbsp;costs</TD><TD><b>1&#x2009;000</b><sup>a</sup></TD></TR>' +
      '<tr><td>line<br/>break</td><td><table><tr><td>inner</td><td>cells</td></tr></table></td></tr>' +
      '<tr><td>&mdash; &#8212; &unknown; &#0;</td><td><!-- note --><span class="x">kept</span></td></tr></TABLE>';
    // thin and no-break spaces become plain spaces
    expect(parseHtmlTable(html).rows).toEqual([
      ['R&D <core> costs', '1 000a'],
      ['line break', 'inner cells'],
      ['— — &unknown; \ufffd', 'kept'],
    ]);
  });

  it('survives missing end tags, captions, scripts, wrappers and ragged rows', () => {
    const html = '<html><body><table><caption>Table 9 Ignored</caption><tr><td>a<td>b<td>c<tr><td>d<script>alert("x")</script></table></body></html>';
    expect(parseHtmlTable(html)).toEqual({ rows: [['a', 'b', 'c'], ['d', '', '']], headerRows: 0 });
  });

  it('reads table fragments without a table element, clamps spans and never throws', () => {
    expect(parseHtmlTable('<tr><td>x</td><td>y</td></tr>').rows).toEqual([['x', 'y']]);
    expect(parseHtmlTable('<table><tr><td rowspan="99">a</td><td>b</td></tr><tr><td>c</td></tr></table>').rows).toEqual([['a', 'b'], ['a', 'c']]);
    expect(parseHtmlTable('<table><tr><td colspan="100000">wide</td></tr></table>').rows[0]).toHaveLength(1000);
    expect(parseHtmlTable('no table here')).toEqual({ rows: [], headerRows: 0 });
    expect(parseHtmlTable('<table><tr></tr><tr><td>only</td></tr></table>').rows).toEqual([['only']]);
    expect(parseHtmlTable('<table><tr><td title="a>b">x</td></tr>').rows).toEqual([['x']]);
  });
});

describe('tableToMarkdown', () => {
  it('writes a GFM table with one header row and escaped pipes', () => {
    expect(tableToMarkdown([['Year', 'A|B'], ['2023', '1'], ['2024']], 1)).toBe(['| Year | A\\|B |', '| --- | --- |', '| 2023 | 1 |', '| 2024 |  |'].join('\n'));
  });

  it('folds several header rows into one and uses the first row when none is marked', () => {
    const rows = [['Segment', 'Revenue', 'Revenue'], ['Segment', '2022', '2023'], ['Industrial', '11', '12']];
    expect(tableToMarkdown(rows, 2).split('\n')[0]).toBe('| Segment | Revenue / 2022 | Revenue / 2023 |');
    expect(tableToMarkdown(rows, 0).split('\n')).toHaveLength(4);
    expect(tableToMarkdown([], 0)).toBe('');
  });
});

describe('HTML helpers', () => {
  it('escapes and decodes text', () => {
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
    expect(decodeHtmlEntities(escapeHtml(`<a href="x">&'</a>`))).toBe(`<a href="x">&'</a>`);
  });

  it('cuts the table element out of a wrapper and builds HTML from a grid', () => {
    expect(extractTableHtml('<html><body><table><tr><td>1</td></tr></table></body></html>')).toBe('<table><tr><td>1</td></tr></table>');
    const html = gridToHtml([['a<b', 'c'], ['1', '2']], 1);
    expect(html).toBe('<table><thead><tr><th>a&lt;b</th><th>c</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>');
    expect(parseHtmlTable(html)).toEqual({ rows: [['a<b', 'c'], ['1', '2']], headerRows: 1 });
  });
});

describe('parseHtmlTable limits', () => {
  it('clamps a hostile colspan to the column limit', () => {
    const table = parseHtmlTable('<table><tr><td colspan="999999999">x</td><td>y</td></tr></table>');
    expect(table.rows[0]!.length).toBe(HTML_TABLE_LIMITS.maxColumns);
  });

  it('reads at most maxRows rows, so a hostile rowspan="0" stays bounded', () => {
    const html = `<table><tr><td rowspan="0">a</td></tr>${'<tr><td>b</td></tr>'.repeat(HTML_TABLE_LIMITS.maxRows + 50)}</table>`;
    const table = parseHtmlTable(html);
    expect(table.rows.length).toBe(HTML_TABLE_LIMITS.maxRows);
    expect(table.rows.at(-1)).toEqual(['a', 'b']);
  });

  it('reads bare rows without a <table> around them', () => {
    expect(parseHtmlTable('<tr><td>1</td><td>2</td></tr>').rows).toEqual([['1', '2']]);
  });
});
