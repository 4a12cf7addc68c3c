// Test and bench support: lets node — a spawned process or a worker thread — run the packages' TypeScript sources
// (jest runs them through swc; a child or worker does not). Registered with `--import` (with
// `--conditions=@doctree/source`); transpiles `.ts` with @swc/core and resolves `./x.js` imports to `./x.ts` when only
// the source exists. Used by the ingest and jobs specs and by tools/bench/scale.
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
