import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureArrayBufferTransfer } from '@doctree/schema';
import { callerModuleFile } from '@doctree/schema/node';

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
  /**
   * The patch drops work only rendering needs (glyph outlines, decoded image pixels). DocTree's ingest never renders with
   * its own pdf.js (page images for OCR come from `pdftoppm`, crops for a VLM from unpdf's own pdf.js), so all patches
   * apply to it; this flag documents which ones would break rendering.
   */
  ingestOnly?: boolean;
}

/**
 * The speed patches applied to unpdf's pdf.js bundle (`unpdf/dist/pdfjs.mjs`), measured on the dev PDFs with byte-identical
 * content lists and trees:
 * - `text-state-clone`: pdf.js clones its text state with `Object.create(this)`, so every clone's prototype is the state
 *   it was cloned from: each clone gets a map of its own and property access turns megamorphic. The clone copies every
 *   own field anyway, so the prototype can be the class prototype (same fields, same values): text extraction ~30 %
 *   faster.
 * - `native-flate`: pdf.js inflates Flate streams through `DecompressionStream`, which on Node runs each (small) content
 *   stream through web streams and the libuv thread pool while this thread waits; its own synchronous JavaScript
 *   inflater is ~15 % faster than that, but it decodes byte by byte while the content-stream lexer reads (every
 *   `getByte` goes through the decoder). The patched `asyncGetBytes` inflates the whole stream at once with Node's
 *   zlib (`process.getBuiltinModule('zlib')`, native code), so content streams, form XObjects, fonts and CMaps are
 *   lexed from a plain byte stream, as pdf.js does after `DecompressionStream`. Same bytes: zlib is the reference
 *   inflater and checks the Adler-32 sum; a stream it refuses (truncated, bad checksum, trailing junk) or a runtime
 *   without `getBuiltinModule` gets pdf.js's own lenient JavaScript inflater, as pdf.js falls back when
 *   `DecompressionStream` fails.
 * - `stream-chunks-uncloned`: in Node pdf.js's "worker" runs on the calling thread and hands every message to the other
 *   side through `LoopbackPort`, which deep-copies it with `structuredClone`: 5–8 % of an ingest for text content, and
 *   the largest single cost of reading an operator list (every glyph of every `showText` is copied). Stream chunks are
 *   handed over without the deep copy: the worker side never touches a text chunk's item list, items or styles after
 *   sending it (it starts new ones); it empties and reuses an operator-list chunk's `fnArray` and `argsArray` (so those two
 *   arrays are copied, one level), but never touches the arguments again (path buffers are even transferred, i.e. given
 *   up). Every other message is still cloned.
 * - `text-transform-fused`: text extraction asks for the current text transform (`ctm × textMatrix × [size·scale, 0, 0,
 *   size, 0, rise]`) two or three times per glyph, each time allocating three arrays through `Util.transform`; the patched
 *   function computes the same products, term by term in the same order (so the same floating-point results), into one.
 * - `no-glyph-outlines` (ingest only): with font faces disabled (always on Node) pdf.js compiles the outline of every
 *   glyph it shows into a path and posts it to the main side, for drawing text on a canvas. Ingest reads text from
 *   `getTextContent` and only positions from operator lists, never draws: the outlines are not built.
 * - `no-image-pixels` (ingest only): an image XObject's pixels are decoded (JPEG, JBIG2, Flate + predictors, colour
 *   conversion) in the background of every operator list that paints it, for drawing. Ingest takes an image's place
 *   and size from the operator list (`paintImageXObject` and the current transform), never its pixels: the image is
 *   announced without pixels, as pdf.js does for one it cannot decode.
 * - `no-shading-colors` (ingest only): a shading (`sh`, or a fill with a shading pattern) was parsed into its colour
 *   stops (an axial or radial one samples its colour function 840 times; mesh shadings decode every patch) and posted to
 *   the main side, for drawing. Ingest reads where a shading is painted (the operator and its arguments, unchanged),
 *   never its colours: the shading is taken as pdf.js's `DummyShading`, as for one it cannot parse.
 * - `hex-string-codes`: the content-stream lexer read `<0041…>` strings (every glyph of many 10-Ks) by pushing a one-character
 *   string per byte and joining them; the patched lexer keeps the byte values and makes the string with
 *   `String.fromCharCode` in slices of 8,192 (same string).
 */
export const PDFJS_PATCHES: readonly PdfjsPatch[] = [
  {
    name: 'text-state-clone',
    find: 'clone(){let e=Object.assign(Object.create(this),this);return e.textMatrix=',
    replace: 'clone(){let e=Object.assign(Object.create(Object.getPrototypeOf(this)),this);return e.textMatrix=',
  },
  {
    name: 'native-flate',
    find: 'async asyncGetBytes(){let{decompressed:e,compressed:t}=await this.asyncGetBytesFromDecompressionStream(`deflate`);return e||(this.#e=!1,this.stream=new Ee(t,2,t.length,this.stream.dict),this.reset(),null)}',
    replace:
      'async asyncGetBytes(){let z=typeof process==`object`&&typeof process.getBuiltinModule==`function`?process.getBuiltinModule(`zlib`):void 0;this.stream.reset();let t=this.stream.isAsync?await this.stream.asyncGetBytes():this.stream.getBytes();if(z?.inflateSync)try{let d=z.inflateSync(t);if(d.byteOffset===0&&d.buffer.byteLength===d.byteLength)return new Uint8Array(d.buffer);let o=new Uint8Array(d.byteLength);return o.set(d),o}catch{}return this.#e=!1,this.stream=new Ee(t,2,t.length,this.stream.dict),this.reset(),null}',
  },
  {
    name: 'stream-chunks-uncloned',
    find: 'postMessage(e,t){let n={data:structuredClone(e,t?{transfer:t}:null)};',
    replace:
      'postMessage(e,t){let c=e?.chunk,n={data:c&&typeof c==`object`&&e.streamId!==void 0?!t&&Array.isArray(c.items)&&typeof c.styles==`object`?{...e,chunk:{...c}}:Array.isArray(c.fnArray)&&Array.isArray(c.argsArray)?{...e,chunk:{...c,fnArray:c.fnArray.slice(),argsArray:c.argsArray.slice()}}:structuredClone(e,t?{transfer:t}:null):structuredClone(e,t?{transfer:t}:null)};',
  },
  {
    name: 'text-transform-fused',
    find: 'function getCurrentTextTransform(){let e=j.font,t=[j.fontSize*j.textHScale,0,0,j.fontSize,0,j.textRise];if(e.isType3Font&&(j.fontSize<=1||e.isCharBBox)&&!isArrayEqual(j.fontMatrix,r)){let n=e.bbox[3]-e.bbox[1];n>0&&(t[3]*=n*j.fontMatrix[3])}return Util$1.transform(j.ctm,Util$1.transform(j.textMatrix,t))}',
    replace:
      'function getCurrentTextTransform(){let e=j.font,h=j.fontSize*j.textHScale,v=j.fontSize,w=j.textRise;if(e.isType3Font&&(j.fontSize<=1||e.isCharBBox)&&!isArrayEqual(j.fontMatrix,r)){let n=e.bbox[3]-e.bbox[1];n>0&&(v*=n*j.fontMatrix[3])}let a=j.textMatrix,c=j.ctm,m0=a[0]*h+a[2]*0,m1=a[1]*h+a[3]*0,m2=a[0]*0+a[2]*v,m3=a[1]*0+a[3]*v,m4=a[0]*0+a[2]*w+a[4],m5=a[1]*0+a[3]*w+a[5];return[c[0]*m0+c[2]*m1,c[1]*m0+c[3]*m1,c[0]*m2+c[2]*m3,c[1]*m2+c[3]*m3,c[0]*m4+c[2]*m5+c[4],c[1]*m4+c[3]*m5+c[5]]}',
  },
  {
    name: 'hex-string-codes',
    find: 'r=toHexDigit(t),r===-1?this._hexStringWarn(t):n===-1?n=r:(e.push(String.fromCharCode(n<<4|r)),n=-1),t=this.nextChar();return n!==-1&&e.push(String.fromCharCode(n<<4)),e.join(``)}',
    replace:
      'r=toHexDigit(t),r===-1?this._hexStringWarn(t):n===-1?n=r:(e.push(n<<4|r),n=-1),t=this.nextChar();n!==-1&&e.push(n<<4);let s=``;for(let i=0;i<e.length;i+=8192)s+=String.fromCharCode.apply(null,e.length<=8192?e:e.slice(i,i+8192));return s}',
  },
  {
    name: 'no-glyph-outlines',
    ingestOnly: true,
    find: 'return n.data&&(t.textRenderingMode&p.ADD_TO_PATH_FLAG||t.fillColorSpace.name===`Pattern`||t.strokeColorSpace.name===`Pattern`||n.disableFontFace)&&PartialEvaluator.buildFontPaths(n,r,this.handler,this.options),r}',
    replace: 'return r}',
  },
  {
    name: 'no-shading-colors',
    ingestOnly: true,
    find: 'a=Pattern.parseShading(e,this.xref,t,this._pdfFunctionFactory,this.globalColorSpaceCache,n).getIR()',
    replace: 'a=new DummyShading().getIR()',
  },
  {
    name: 'no-image-pixels',
    ingestOnly: true,
    find: 'if(br.buildImage({xref:this.xref,res:e,image:t,isInline:n,pdfFunctionFactory:this._pdfFunctionFactory,globalColorSpaceCache:this.globalColorSpaceCache,localColorSpaceCache:o}).then(async e=>(g=await e.createImageData(!1,l),g.dataLen=g.bitmap?g.width*g.height*4:g.data.length,g.ref=d,x&&this.globalImageCache.addByteSize(d,g.dataLen),this._sendImgData(b,g,x))).catch(e=>(warn$1(`Unable to decode image "${b}": "${e}".`),d&&this.globalImageCache.addDecodeFailed(d),this._sendImgData(b,null,x))),i){',
    replace: 'if(this._sendImgData(b,null,x),i){',
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

/** The file of this module (a path), from the V8 call sites; works from ES modules and CommonJS alike. */
export function thisModuleFile(): string | undefined {
  return callerModuleFile();
}

/**
 * A compiled module of this package by its path from the package's `dist/` folder (`pdf/pdf-page-worker.js`), for
 * worker threads to run; undefined when it is not there (running from TypeScript sources, or a bundle).
 */
export function compiledModule(pathFromDist: string): string | undefined {
  // `thisModuleFile` names this module, dist/pdf/pdf-runtime.js once compiled.
  const here = thisModuleFile();
  if (!here?.endsWith('.js')) return undefined;
  const file = join(dirname(here), '..', pathFromDist);
  return existsSync(file) ? file : undefined;
}

let unpdfEntryFile: string | undefined;

/** The file unpdf resolves to from this package (looked up once); throws when unpdf cannot be resolved. */
function unpdfEntry(): string {
  if (unpdfEntryFile === undefined) {
    const here = thisModuleFile();
    if (!here) throw new Error('the module location is unknown');
    unpdfEntryFile = createRequire(here).resolve('unpdf');
  }
  return unpdfEntryFile;
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

/** The pdf.js module (the namespace of unpdf's `pdfjs.mjs`), as ingest uses it. */
export type PdfjsModule = Record<string, unknown> & { getDocument: (params: Record<string, unknown>) => { promise: Promise<unknown> } };

let patchedModule: PdfjsModule | undefined;

/**
 * Loads DocTree's own pdf.js for ingest: unpdf's pdf.js bundle with {@link PDFJS_PATCHES} applied, loaded from memory
 * through a `data:` URL (nothing is written to disk). It is not installed into unpdf: unpdf (and whatever renders pages
 * with it) keeps its stock pdf.js, since the `ingestOnly` patches drop what drawing needs. Runs once per thread, before
 * the first document is opened; never throws: when the bundle cannot be found or patched, or the patched module does
 * not load, ingest uses unpdf's own pdf.js (same output, slower). `DOCTREE_PDFJS_PATCHES=off` in the environment uses
 * the stock pdf.js from the start.
 */
export function ensurePatchedPdfjs(): Promise<PdfjsPatchStatus> {
  loading ??= (async (): Promise<PdfjsPatchStatus> => {
    if (/^(off|0|false|no)$/i.test(process.env[PDFJS_PATCHES_ENV] ?? '')) return { applied: [], reason: `turned off by ${PDFJS_PATCHES_ENV}` };
    try {
      const file = join(dirname(unpdfEntry()), 'pdfjs.mjs');
      const { source, applied } = patchPdfjsSource(readFileSync(file, 'utf8'), pathToFileURL(file).href);
      if (applied.length === 0) return { applied, reason: 'no patch matches this unpdf version' };
      const url = `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
      const module = (await import(url)) as Record<string, unknown>;
      if (typeof module['getDocument'] !== 'function') return { applied: [], reason: 'the patched module has no getDocument' };
      patchedModule = module as PdfjsModule;
      return { applied };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { applied: [], reason: message.replace(/data:text\/javascript;base64,[A-Za-z0-9+/=]*/g, 'data:…').slice(0, 300) };
    }
  })();
  return loading;
}

/** The pdf.js ingest reads PDFs with: the patched one ({@link ensurePatchedPdfjs}) when it loaded, else unpdf's. */
export async function ingestPdfjs(): Promise<PdfjsModule> {
  await ensurePatchedPdfjs();
  if (patchedModule) return patchedModule;
  const unpdf = await import('unpdf');
  return (await unpdf.getResolvedPDFJS()) as unknown as PdfjsModule;
}

let nodeDefaults: Record<string, unknown> | undefined;

/**
 * The `getDocument` defaults unpdf's `getDocumentProxy` adds on Node (standard fonts and CMaps from `pdfjs-dist` when it
 * is installed), so documents open exactly as they would through unpdf. Looked up once per thread.
 */
export function unpdfNodeDefaults(): Record<string, unknown> {
  nodeDefaults ??= (() => {
    try {
      const base = pathToFileURL(createRequire(unpdfEntry()).resolve('pdfjs-dist/package.json')).href;
      return { disableFontFace: true, standardFontDataUrl: new URL('./standard_fonts/', base).href, cMapUrl: new URL('./cmaps/', base).href, cMapPacked: true };
    } catch {
      return {};
    }
  })();
  return nodeDefaults;
}
