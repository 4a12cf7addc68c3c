import { closeSync, openSync, readSync } from 'node:fs';

/** HNSW construction and search parameters of a faiss `IndexHNSWFlat`. */
export interface FaissHnswParameters {
  /** Graph degree (neighbours per node on upper levels; twice that on level 0). */
  m: number;
  /** Candidate list size while inserting; higher builds a better graph, more slowly. */
  efConstruction: number;
  /** Candidate list size while searching (faiss uses max(efSearch, k)); higher is more accurate, slower. */
  efSearch: number;
}

/** Values faiss itself uses when nothing sets them (faiss 1.7.x `HNSW` constructor). */
export const FAISS_HNSW_BUILTIN = { efConstruction: 40, efSearch: 16 } as const;

/** Reads `length` bytes at `offset`, or returns undefined past the end. */
type ByteReader = (offset: number, length: number) => Buffer | undefined;

/**
 * Finds efConstruction / efSearch in a serialized faiss `IndexHNSWFlat` (faiss `write_index` format, stable
 * since faiss 1.5): fourcc `IHNf`, index header, the five HNSW vectors (size-prefixed), then
 * entry_point, max_level, efConstruction, efSearch, upper_beam (int32 each), then the storage index
 * (fourcc `IxFI` or `IxF2`). Returns the byte offset of efConstruction and M, or undefined when the layout
 * does not match (so callers never patch blindly).
 */
function locate(read: ByteReader): { offset: number; m: number } | undefined {
  const head = read(0, 37);
  if (head === undefined || head.toString('latin1', 0, 4) !== 'IHNf') return undefined;
  // fourcc(4) d(i32) ntotal(i64) dummy(i64) dummy(i64) is_trained(u8) metric_type(i32) [metric_arg(f32) if metric > 1]
  const metricType = head.readInt32LE(33);
  let offset = 37 + (metricType > 1 ? 4 : 0);
  let m = 0;
  const elementSizes = [8, 4, 4, 8, 4]; // assign_probas, cum_nneighbor_per_level, levels, offsets, neighbors
  for (let v = 0; v < elementSizes.length; v++) {
    const sizeBytes = read(offset, 8);
    if (sizeBytes === undefined) return undefined;
    const size = Number(sizeBytes.readBigUInt64LE(0));
    if (v === 1 && size >= 3) {
      const cum = read(offset + 8, 12);
      if (cum === undefined) return undefined;
      m = cum.readInt32LE(8) - cum.readInt32LE(4);
    }
    offset += 8 + size * (elementSizes[v] as number);
  }
  const tail = read(offset, 24);
  if (tail === undefined) return undefined;
  const storage = tail.toString('latin1', 20, 24);
  if (storage !== 'IxFI' && storage !== 'IxF2') return undefined;
  return { offset: offset + 8, m };
}

function bufferReader(buffer: Buffer): ByteReader {
  return (offset, length) => (offset + length <= buffer.length ? buffer.subarray(offset, offset + length) : undefined);
}

/**
 * Sets efConstruction and efSearch inside a serialized `IndexHNSWFlat` (in place).
 * faiss-node exposes no setter for them; `Index.fromBuffer` of the patched buffer yields an index using them,
 * and faiss persists them in the files it writes.
 *
 * @returns false (buffer untouched) when the buffer is not a recognisable `IndexHNSWFlat`.
 */
export function patchHnswParameters(buffer: Buffer, parameters: Pick<FaissHnswParameters, 'efConstruction' | 'efSearch'>): boolean {
  const found = locate(bufferReader(buffer));
  if (found === undefined) return false;
  buffer.writeInt32LE(parameters.efConstruction, found.offset);
  buffer.writeInt32LE(parameters.efSearch, found.offset + 4);
  return true;
}

/** Reads M, efConstruction and efSearch from a serialized `IndexHNSWFlat`, or undefined. */
export function readHnswParameters(buffer: Buffer): FaissHnswParameters | undefined {
  const found = locate(bufferReader(buffer));
  if (found === undefined) return undefined;
  return { m: found.m, efConstruction: buffer.readInt32LE(found.offset), efSearch: buffer.readInt32LE(found.offset + 4) };
}

/** Reads M, efConstruction and efSearch from an `IndexHNSWFlat` file written by faiss, or undefined. */
export function readHnswParametersFromFile(path: string): FaissHnswParameters | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const handle = fd;
    const read: ByteReader = (offset, length) => {
      const out = Buffer.alloc(length);
      return readSync(handle, out, 0, length, offset) === length ? out : undefined;
    };
    const found = locate(read);
    if (found === undefined) return undefined;
    const values = read(found.offset, 8);
    if (values === undefined) return undefined;
    return { m: found.m, efConstruction: values.readInt32LE(0), efSearch: values.readInt32LE(4) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
