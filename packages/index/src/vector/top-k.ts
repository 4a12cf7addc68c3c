/**
 * Bounded selection of the k best (score, position) pairs with a binary min-heap: O(n log k) for n pushes.
 * Among equal scores the lower position wins, so results are deterministic.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly positions: Int32Array;
  private count = 0;

  /** @param k - Number of pairs kept (at least 1). */
  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.positions = new Int32Array(k);
  }

  /** Lowest score kept once full (anything not above it is rejected), else -Infinity. */
  get threshold(): number {
    return this.count < this.k ? -Infinity : this.scores[0]!;
  }

  /** Offers a pair. */
  push(score: number, position: number): void {
    if (this.count < this.k) {
      let i = this.count++;
      // sift up
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(score, position, this.scores[parent]!, this.positions[parent]!)) break;
        this.scores[i] = this.scores[parent]!;
        this.positions[i] = this.positions[parent]!;
        i = parent;
      }
      this.scores[i] = score;
      this.positions[i] = position;
      return;
    }
    if (!this.worse(this.scores[0]!, this.positions[0]!, score, position)) return;
    // replace the root (worst) and sift down
    let i = 0;
    const n = this.count;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && this.worse(this.scores[right]!, this.positions[right]!, this.scores[left]!, this.positions[left]!)) {
        child = right;
      }
      if (!this.worse(this.scores[child]!, this.positions[child]!, score, position)) break;
      this.scores[i] = this.scores[child]!;
      this.positions[i] = this.positions[child]!;
      i = child;
    }
    this.scores[i] = score;
    this.positions[i] = position;
  }

  /** The kept pairs, best first. */
  sorted(): Array<{ score: number; position: number }> {
    const out: Array<{ score: number; position: number }> = [];
    for (let i = 0; i < this.count; i++) out.push({ score: this.scores[i]!, position: this.positions[i]! });
    return out.sort((a, b) => b.score - a.score || a.position - b.position);
  }

  /** True when (s1, p1) ranks below (s2, p2). */
  private worse(s1: number, p1: number, s2: number, p2: number): boolean {
    return s1 < s2 || (s1 === s2 && p1 > p2);
  }
}
