/**
 * Deterministic 32-bit feature hashing (internal): FNV-1a over UTF-16 code units (low byte, then high byte),
 * finished with the murmur3 `fmix32` avalanche so that both the bucket and the sign bits are well mixed.
 * Pure integer arithmetic (`Math.imul`), so results are identical on every machine and Node version.
 */

// Bound once: looking `Math` up on the global object in hot loops is ~20x slower inside jest's vm context.
const imul = Math.imul;

/** FNV-1a 32-bit offset basis. */
export const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Continues an FNV-1a state with one UTF-16 code unit. */
export function fnv1aChar(state: number, code: number): number {
  let h = state ^ (code & 0xff);
  h = imul(h, FNV_PRIME);
  h ^= code >>> 8;
  return imul(h, FNV_PRIME) >>> 0;
}

/** Continues an FNV-1a state with `text[start..end)`. */
export function fnv1aUpdate(state: number, text: string, start = 0, end = text.length): number {
  let h = state;
  for (let i = start; i < end; i++) h = fnv1aChar(h, text.charCodeAt(i));
  return h;
}

/** FNV-1a hash of a whole string. */
export function fnv1a(text: string): number {
  return fnv1aUpdate(FNV_OFFSET_BASIS, text);
}

/** murmur3 finaliser: spreads every input bit over the output. */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Bucket in `[0, dimension)` of a feature hash. */
export function hashBucket(hash: number, dimension: number): number {
  return fmix32(hash) % dimension;
}

/** Sign (+1 / -1) of a feature hash, from a second, independent mix (not the bucket bits). */
export function hashSign(hash: number): 1 | -1 {
  return fmix32(hash ^ 0x9e3779b9) >>> 31 === 0 ? 1 : -1;
}

/** Short hexadecimal digest of a string (8 hex digits), for ids that must change with settings. */
export function shortDigest(text: string): string {
  return fmix32(fnv1a(text)).toString(16).padStart(8, '0');
}
