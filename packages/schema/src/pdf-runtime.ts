/**
 * The one runtime shim pdf.js (used through unpdf by `@doctree/ingest` to read PDFs and by `@doctree/agents` to render
 * page regions) needs on Node 20: `ArrayBuffer.prototype.transferToFixedLength`, which only exists from Node 21. It
 * lives here, in the package both may import; it is pure (no I/O, no dependency).
 */
let installed = false;

/**
 * Installs `ArrayBuffer.prototype.transferToFixedLength` when the runtime lacks it (Node 20), once. Returns true when
 * the polyfill is active (it had to be installed on this runtime), false when the runtime has its own.
 *
 * @example
 * ```ts
 * ensureArrayBufferTransfer(); // before unpdf's getDocumentProxy on Node 20
 * ```
 */
export function ensureArrayBufferTransfer(): boolean {
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
