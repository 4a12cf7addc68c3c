/**
 * Runtime shims pdf.js needs on Node 20: `ArrayBuffer.prototype.transferToFixedLength` (used when
 * operator lists are transferred) only exists from Node 21. Installed once, only when missing.
 */
let installed = false;

/** True when the polyfill had to be installed on this runtime. */
export function ensurePdfRuntime(): boolean {
  const proto = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: (length?: number) => ArrayBuffer };
  if (typeof proto.transferToFixedLength === 'function') return installed;
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value: function transferToFixedLength(this: ArrayBuffer, length?: number): ArrayBuffer {
      const size = length ?? this.byteLength;
      const copy = new ArrayBuffer(size);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(size, this.byteLength)));
      return copy;
    },
  });
  installed = true;
  return installed;
}
