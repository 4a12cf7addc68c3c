import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

/** One exact-text change to unpdf's bundled pdf.js that makes it faster without changing what it returns. */
export interface PdfjsPatch {
  /** Short name, reported by {@link patchPdfjsSource}. */
  name: string;
  /** Text that must occur exactly once in the bundle; otherwise the patch is skipped. */
  find: string;
  /** What replaces it. */
  replace: string;
}

/**
 * The speed patches applied to unpdf's pdf.js bundle (`unpdf/dist/pdfjs.mjs`), measured on the dev PDFs with byte-identical
 * content lists and trees:
 * - `text-state-clone`: pdf.js clones its text state with `Object.create(this)`, so every clone's prototype is the state
 *   it was cloned from: each clone gets a map of its own and property access turns megamorphic. The clone copies every
 *   own field anyway, so the prototype can be the class prototype (same fields, same values): text extraction ~30 %
 *   faster.
 * - `sync-flate`: pdf.js inflates Flate streams through `DecompressionStream`, which on Node runs each (small) content
 *   stream through web streams and the libuv thread pool while this thread waits; its own synchronous inflater (the
 *   fallback it already uses where `DecompressionStream` is missing) is ~15 % faster over a whole document.
 */
export const PDFJS_PATCHES: readonly PdfjsPatch[] = [
  {
    name: 'text-state-clone',
    find: 'clone(){let e=Object.assign(Object.create(this),this);return e.textMatrix=',
    replace: 'clone(){let e=Object.assign(Object.create(Object.getPrototypeOf(this)),this);return e.textMatrix=',
  },
  {
    name: 'sync-flate',
    find: 'FlateStream=class extends DecodeStream{#e=!0;',
    replace: 'FlateStream=class extends DecodeStream{#e=!1;',
  },
];

/** What {@link patchPdfjsSource} made of a bundle. */
export interface PatchedPdfjsSource {
  /** The patched module text. */
  source: string;
  /** Names of the patches applied (a patch whose text is missing or not unique is skipped). */
  applied: string[];
}

/** Occurrences of `needle` in `text`, counting at most two. */
function occurrences(text: string, needle: string): number {
  const first = text.indexOf(needle);
  if (first < 0) return 0;
  return text.indexOf(needle, first + needle.length) < 0 ? 1 : 2;
}

/**
 * Applies {@link PDFJS_PATCHES} to the text of unpdf's pdf.js bundle. `import.meta.url` is replaced by `fileUrl` (the
 * bundle's own URL), so the module loaded from memory resolves its neighbours as the original does.
 */
export function patchPdfjsSource(source: string, fileUrl: string): PatchedPdfjsSource {
  let patched = source;
  const applied: string[] = [];
  for (const patch of PDFJS_PATCHES) {
    if (occurrences(patched, patch.find) !== 1) continue;
    patched = patched.replace(patch.find, () => patch.replace);
    applied.push(patch.name);
  }
  if (applied.length > 0) patched = patched.split('import.meta.url').join(JSON.stringify(fileUrl));
  return { source: patched, applied };
}

/** The file of this module (a path or `file:` URL), from the V8 call sites; works from ES modules and CommonJS alike. */
export function thisModuleFile(): string | undefined {
  const original = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, callSites) => callSites;
    const sites = new Error().stack as unknown as NodeJS.CallSite[] | undefined;
    const name = Array.isArray(sites) ? sites[0]?.getFileName() : undefined;
    if (!name) return undefined;
    return name.startsWith('file:') ? fileURLToPath(name) : name;
  } catch {
    return undefined;
  } finally {
    Error.prepareStackTrace = original;
  }
}

/** State of the patched pdf.js in this thread. */
export interface PdfjsPatchStatus {
  /** Patches in effect (empty when unpdf's own pdf.js is used). */
  applied: string[];
  /** Why the stock pdf.js is used, when it is. */
  reason?: string;
}

let loading: Promise<PdfjsPatchStatus> | undefined;

/** Environment variable that turns the speed patches off (`off`, `0` or `false`): unpdf's stock pdf.js is used. */
export const PDFJS_PATCHES_ENV = 'DOCTREE_PDFJS_PATCHES';

/**
 * Makes unpdf use its pdf.js bundle with {@link PDFJS_PATCHES} applied (loaded from memory through a `data:` URL; nothing is
 * written to disk). Runs once per thread, before the first document is opened; never throws: when the bundle cannot be
 * found or patched, or the patched module does not load, unpdf's own pdf.js is used (same output, slower).
 * `DOCTREE_PDFJS_PATCHES=off` in the environment uses the stock pdf.js from the start.
 */
export function ensurePatchedPdfjs(): Promise<PdfjsPatchStatus> {
  loading ??= (async (): Promise<PdfjsPatchStatus> => {
    if (/^(off|0|false|no)$/i.test(process.env[PDFJS_PATCHES_ENV] ?? '')) return { applied: [], reason: `turned off by ${PDFJS_PATCHES_ENV}` };
    try {
      const here = thisModuleFile();
      if (!here) return { applied: [], reason: 'the module location is unknown' };
      const file = join(dirname(createRequire(here).resolve('unpdf')), 'pdfjs.mjs');
      const { source, applied } = patchPdfjsSource(readFileSync(file, 'utf8'), pathToFileURL(file).href);
      if (applied.length === 0) return { applied, reason: 'no patch matches this unpdf version' };
      const url = `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
      const module = (await import(url)) as Record<string, unknown>;
      if (typeof module['getDocument'] !== 'function') return { applied: [], reason: 'the patched module has no getDocument' };
      const unpdf = await import('unpdf');
      await unpdf.definePDFJSModule(() => Promise.resolve(module));
      return { applied };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { applied: [], reason: message.replace(/data:text\/javascript;base64,[A-Za-z0-9+/=]*/g, 'data:…').slice(0, 300) };
    }
  })();
  return loading;
}
