// Bench support: lets node run the packages' TypeScript sources (transpiled by @swc/core; ./x.js resolved to ./x.ts).
// worker threads do not). Registered with `--import` in the worker's execArgv; transpiles `.ts` with
// @swc/core and resolves `./x.js` imports to `./x.ts` when only the source exists.
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
