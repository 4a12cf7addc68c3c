import { compactLevels, openAtTop } from './level-compaction.js';

describe('compactLevels', () => {
  it('removes levels no heading uses, keeping the order between levels', () => {
    expect(compactLevels([3, 5, 5, 8, 3])).toEqual([1, 2, 2, 3, 1]);
    expect(compactLevels([1, 2, 3])).toEqual([1, 2, 3]);
  });

  it('leaves an empty list empty and caps deep levels at 9', () => {
    expect(compactLevels([])).toEqual([]);
    expect(compactLevels(Array.from({ length: 12 }, (_, i) => i + 1)).slice(-3)).toEqual([9, 9, 9]);
  });
});

describe('openAtTop', () => {
  it('raises the first heading to level 1 so it closes what came before, and compacts the rest', () => {
    // A signatures heading set smaller than the exhibits after it: it still opens the run at the top.
    expect(openAtTop([2, 3, 1, 2])).toEqual([1, 3, 1, 2]);
    expect(openAtTop([3, 4, 5, 4])).toEqual([1, 2, 3, 2]);
  });

  it('keeps headings that ranked above the first one at their place in the order', () => {
    expect(openAtTop([3, 2, 4, 5])).toEqual([1, 2, 3, 4]);
    expect(openAtTop([])).toEqual([]);
  });
});
