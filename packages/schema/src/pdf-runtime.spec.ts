import { ensureArrayBufferTransfer } from './pdf-runtime.js';

describe('ensureArrayBufferTransfer', () => {
  it('gives every ArrayBuffer a transferToFixedLength that copies, truncates and zero-pads', () => {
    const active = ensureArrayBufferTransfer();
    expect(typeof active).toBe('boolean');
    expect(ensureArrayBufferTransfer()).toBe(active); // idempotent
    const source = new Uint8Array([1, 2, 3, 4]).buffer as ArrayBuffer & { transferToFixedLength: (n?: number) => ArrayBuffer };
    expect([...new Uint8Array(source.transferToFixedLength(2))]).toEqual([1, 2]);
    const fresh = new Uint8Array([5, 6]).buffer as ArrayBuffer & { transferToFixedLength: (n?: number) => ArrayBuffer };
    expect([...new Uint8Array(fresh.transferToFixedLength(4))]).toEqual([5, 6, 0, 0]);
  });
});
