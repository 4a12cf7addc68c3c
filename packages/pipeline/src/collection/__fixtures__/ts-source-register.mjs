// `node --conditions=@doctree/source --import ./ts-source-register.mjs child.mjs`: see ts-source-hooks.mjs.
import { register } from 'node:module';

register('./ts-source-hooks.mjs', import.meta.url);
