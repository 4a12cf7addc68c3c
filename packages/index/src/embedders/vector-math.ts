/**
 * Small dense-vector helpers shared by the embedders (internal).
 */

/**
 * L2-normalises `vector` in place. A zero vector stays all zeros (it is the "no features" vector of empty texts).
 *
 * @returns The norm before normalisation.
 */
export function normalizeInPlace(vector: Float32Array | Float64Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return norm;
}

/** Inner product of two vectors of the same length. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Copies `values` into a new L2-normalised Float32Array. */
export function unitFloat32(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values as ArrayLike<number>);
  normalizeInPlace(out);
  return out;
}
