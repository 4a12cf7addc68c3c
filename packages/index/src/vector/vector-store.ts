import { DocTreeError } from '@doctree/schema';

/**
 * Contiguous, growable storage of fixed-dimension vectors and their unique string ids, by position.
 * Capacity doubles when full, so adding n vectors one at a time costs amortised O(n * dimension).
 * Shared by both vector backends (the faiss backend keeps it to write the raw-vector sidecar).
 */
export class VectorStore {
  /** Dimension of every vector. */
  readonly dimension: number;
  private data: Float32Array;
  private readonly idList: string[] = [];
  private readonly positions = new Map<string, number>();

  /**
   * @param dimension - Dimension of every vector.
   * @param initialCapacity - Number of vectors allocated up front.
   */
  constructor(dimension: number, initialCapacity: number) {
    this.dimension = dimension;
    this.data = new Float32Array(Math.max(1, Math.floor(initialCapacity)) * dimension);
  }

  /** Number of vectors stored. */
  get size(): number {
    return this.idList.length;
  }

  /** Ids by position. */
  get ids(): readonly string[] {
    return this.idList;
  }

  /** The stored vectors, row-major (a view, valid until the next `add`). */
  get vectors(): Float32Array {
    return this.data.subarray(0, this.idList.length * this.dimension);
  }

  /** Position of an id, or undefined. */
  positionOf(id: string): number | undefined {
    return this.positions.get(id);
  }

  /** Id at a position. */
  idAt(position: number): string {
    return this.idList[position]!;
  }

  /**
   * Checks `add` arguments without changing anything.
   *
   * @throws DocTreeError `INTERNAL` (ids/vectors length mismatch, duplicate id), `EMBEDDER_MISMATCH` (wrong dimension).
   */
  validate(ids: readonly string[], vectors: readonly Float32Array[]): void {
    if (ids.length !== vectors.length) {
      throw new DocTreeError('INTERNAL', `VectorIndex.add got ${ids.length} ids but ${vectors.length} vectors`);
    }
    const batch = new Set<string>();
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (typeof id !== 'string') throw new DocTreeError('INTERNAL', `VectorIndex.add: id at ${i} is not a string`);
      if (this.positions.has(id) || batch.has(id)) {
        throw new DocTreeError('INTERNAL', `VectorIndex.add: duplicate id ${JSON.stringify(id)}`, { details: { id } });
      }
      batch.add(id);
      assertDimension(vectors[i]!, this.dimension, `vector for id ${JSON.stringify(id)}`);
    }
  }

  /** Appends vectors (call {@link VectorStore.validate} first). */
  append(ids: readonly string[], vectors: readonly Float32Array[]): void {
    this.reserve(this.idList.length + ids.length);
    const d = this.dimension;
    for (let i = 0; i < ids.length; i++) {
      const position = this.idList.length;
      this.data.set(vectors[i]!, position * d);
      this.idList.push(ids[i]!);
      this.positions.set(ids[i]!, position);
    }
  }

  /** Appends `ids.length` vectors given row-major in one array (used when loading). */
  appendRows(ids: readonly string[], rows: Float32Array): void {
    this.reserve(this.idList.length + ids.length);
    this.data.set(rows.subarray(0, ids.length * this.dimension), this.idList.length * this.dimension);
    for (const id of ids) {
      this.positions.set(id, this.idList.length);
      this.idList.push(id);
    }
  }

  private reserve(count: number): void {
    const needed = count * this.dimension;
    if (needed <= this.data.length) return;
    let capacity = this.data.length;
    while (capacity < needed) capacity *= 2;
    const next = new Float32Array(capacity);
    next.set(this.vectors);
    this.data = next;
  }
}

/**
 * Throws `EMBEDDER_MISMATCH` when a vector does not have the index dimension.
 *
 * @param vector - Vector to check.
 * @param dimension - Expected dimension.
 * @param what - Description used in the message.
 */
export function assertDimension(vector: Float32Array, dimension: number, what: string): void {
  if (!(vector instanceof Float32Array) || vector.length !== dimension) {
    const got = vector instanceof Float32Array ? `${vector.length} dimensions` : 'not a Float32Array';
    throw new DocTreeError('EMBEDDER_MISMATCH', `Dimension mismatch: ${what} has ${got}, the index expects ${dimension}`, {
      hint: 'Use the embedder the index was built with (same model and dimension).',
      details: { expected: dimension, actual: vector instanceof Float32Array ? vector.length : null },
    });
  }
}
