// Module hooks that run DocTree's TypeScript sources in a plain Node process (for specs that need a real child process,
// e.g. one killed with SIGKILL): `.js` specifiers resolve to the `.ts` file next to them, and `.ts` files are compiled
// with @swc/core as the specs are. Registered by ts-source-register.mjs; packages resolve through `@doctree/source`.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from '@swc/core';

export async function resolve(specifier, context, next) {
  if ((specifier.startsWith('.') || specifier.startsWith('/')) && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const ts = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(ts))) return { url: ts.href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const source = readFileSync(fileURLToPath(url), 'utf8');
  const { code } = transformSync(source, {
    filename: fileURLToPath(url),
    jsc: { target: 'es2022', parser: { syntax: 'typescript', dynamicImport: true }, keepClassNames: true },
    module: { type: 'es6' },
    swcrc: false,
  });
  return { format: 'module', source: code, shortCircuit: true };
}
