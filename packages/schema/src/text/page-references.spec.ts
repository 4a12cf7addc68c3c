import { findPageReferences, romanValue } from './page-references.js';

const pages = (text: string, options?: Parameters<typeof findPageReferences>[1]): Array<number | string> =>
  findPageReferences(text, options).map((r) => r.page ?? r.label ?? `${r.kind}-${r.fromEnd}`);

describe('page references', () => {
  it('reads numbers, lists and ranges after page nouns', () => {
    expect(pages('See page 5, pp. 7–9 and pages 2 and 12')).toEqual([5, 7, 8, 9, 2, 12]);
    expect(pages('pages 3 or 4, page 0, pages 9-3')).toEqual([3, 4, 9]);
    expect(pages('pages 1-80')).toEqual([1, 80]);
  });

  it('reads ordinals and the last page', () => {
    expect(pages('on the second page and the 14th page, then the last page')).toEqual([2, 14, 'last-0']);
    expect(pages('the eleventh page', { maxOrdinalWord: 10 })).toEqual([]);
    expect(pages('the 3th page', { ordinalDigits: 'strict' })).toEqual([]);
  });

  it('reads slides, spelled-out numbers, cover and back pages when asked', () => {
    const deck = { nouns: 'pages-and-slides', numberWords: true, coverAndBack: true } as const;
    expect(pages('What is on slide four and page no. 6?', deck)).toEqual([4, 6]);
    expect(pages('slides two to four', deck)).toEqual([2, 3, 4]);
    expect(pages('slide four')).toEqual([]);
    expect(pages('the cover page and the back cover', deck)).toEqual([1, 'last-0']);
    expect(pages('the second to last slide, not the last page', deck)).toEqual(['last-1']);
  });

  it('reads printed labels when asked', () => {
    expect(pages('page iv and page F-3', { labels: true })).toEqual(['iv', 'F-3']);
    expect(pages('page civil', { labels: true })).toEqual([]);
    expect(pages('page iv')).toEqual([]);
  });

  it('names the text each reference came from', () => {
    expect(findPageReferences('see pages 3-4')).toEqual([
      { kind: 'number', page: 3, label: '3', text: 'pages 3-4' },
      { kind: 'number', page: 4, label: '4', text: 'pages 3-4' },
    ]);
  });

  it('reads Roman numerals', () => {
    expect(romanValue('XIV')).toBe(14);
    expect(romanValue('iiii')).toBeUndefined();
    expect(romanValue('')).toBeUndefined();
  });
});
