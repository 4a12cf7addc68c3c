import { imagesOnLine, inlineText } from './markdown-inline.js';

describe('inlineText', () => {
  it('reduces inline Markdown to the text a reader sees', () => {
    expect(inlineText('**Net** [sales](x.html "t") of `a*b*c` &amp; ![logo](l.png) <span>ok</span><br/>end')).toBe('Net sales of a*b*c & logo ok end');
    expect(inlineText('_emph_ and snake_case_name and ~~gone~~ and \\*literal\\*')).toBe('emph and snake_case_name and gone and *literal*');
    expect(inlineText('costs $5 and $10, math $a*b*c$ <!-- hidden -->stays')).toBe('costs $5 and $10, math $a*b*c$ stays');
    expect(inlineText('2 * 3 * 4 = 24, see <https://example.com>')).toBe('2 * 3 * 4 = 24, see https://example.com');
    expect(inlineText('[ref text][r]', new Map([['r', 'u']]))).toBe('ref text');
  });
});

describe('imagesOnLine', () => {
  it('finds lines made only of images', () => {
    expect(imagesOnLine('![A *b*](a.png) [![C](c.png)](https://x) <img src="d.png" alt="D &amp; E">', new Map())).toEqual([
      { alt: 'A b', src: 'a.png' },
      { alt: 'C', src: 'c.png' },
      { alt: 'D & E', src: 'd.png' },
    ]);
    expect(imagesOnLine('![r][id]', new Map([['id', 'r.png']]))).toEqual([{ alt: 'r', src: 'r.png' }]);
    expect(imagesOnLine('See ![A](a.png) here', new Map())).toBeUndefined();
  });
});
