import { ensureArrayBufferTransfer } from '@doctree/schema';

/**
 * Runtime shims pdf.js needs on Node 20: `ArrayBuffer.prototype.transferToFixedLength` (used when operator lists are
 * transferred) only exists from Node 21. The shim itself is `ensureArrayBufferTransfer` of `@doctree/schema`, shared
 * with `@doctree/agents` (page rendering). Installed once, only when missing.
 *
 * @returns True when the polyfill had to be installed on this runtime.
 */
export function ensurePdfRuntime(): boolean {
  return ensureArrayBufferTransfer();
}
