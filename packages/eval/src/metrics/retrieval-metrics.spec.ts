import { hitAtK, percentile, recallAtK, reciprocalRank, retrievalScores, uniqueRanking } from './retrieval-metrics.js';

describe('retrieval metrics', () => {
  it('computes recall@k over distinct ranked pages', () => {
    expect(recallAtK([9, 4, 7], [4, 5], 1)).toBe(0);
    expect(recallAtK([9, 4, 7], [4, 5], 2)).toBe(0.5);
    expect(recallAtK([9, 9, 9, 4, 5], [4, 5], 3)).toBe(1); // duplicates of page 9 take one slot
    expect(recallAtK([5, 4], [4, 5, 5], 10)).toBe(1); // gold duplicates count once
    expect(recallAtK([], [4], 5)).toBe(0);
    expect(recallAtK([1, 2], [], 5)).toBeNaN();
  });

  it('computes hit@k and the reciprocal rank', () => {
    expect(hitAtK([9, 4, 7], [4, 5], 1)).toBe(0);
    expect(hitAtK([9, 4, 7], [4, 5], 2)).toBe(1);
    expect(reciprocalRank([9, 9, 4], [4])).toBe(0.5);
    expect(reciprocalRank([4], [4])).toBe(1);
    expect(reciprocalRank([1, 2, 3], [4])).toBe(0);
    expect(reciprocalRank([1], [])).toBeNaN();
  });

  it('bundles the scores per question, empty without gold pages', () => {
    expect(retrievalScores([3, 1, 2], [2], [1, 3])).toEqual({ recallAt: { '1': 0, '3': 1 }, hitAt: { '1': 0, '3': 1 }, reciprocalRank: 1 / 3 });
    expect(retrievalScores([3], [], [1, 3])).toEqual({ recallAt: {}, hitAt: {}, reciprocalRank: null });
    expect(uniqueRanking([3, 1, 3, 2, 1])).toEqual([3, 1, 2]);
  });

  it('computes percentiles with linear interpolation', () => {
    expect(percentile([40, 10, 30, 20], 50)).toBe(25);
    expect(percentile([10, 20, 30, 40], 95)).toBeCloseTo(38.5, 10);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});
