import { fileURLToPath } from 'node:url';

/**
 * The file of the module whose code calls this function (a path; `file:` URLs are converted), from the V8 call sites.
 * Works compiled to ES modules and under jest's CommonJS alike, where `import.meta.url` and `__filename` are not both
 * available; undefined when the stack cannot tell (another engine, a bundle without file names).
 *
 * @example
 * ```ts
 * const here = callerModuleFile(); // …/dist/collection/build-pool.js once compiled
 * ```
 */
export function callerModuleFile(): string | undefined {
  const original = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, callSites) => callSites;
    const sites = new Error().stack as unknown as NodeJS.CallSite[] | undefined;
    // sites[0] is this function, sites[1] its caller.
    const name = Array.isArray(sites) ? sites[1]?.getFileName() : undefined;
    if (!name) return undefined;
    return name.startsWith('file:') ? fileURLToPath(name) : name;
  } catch {
    return undefined;
  } finally {
    Error.prepareStackTrace = original;
  }
}
