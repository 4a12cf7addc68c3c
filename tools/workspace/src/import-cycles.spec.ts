import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT, shippedSources } from './repo-sources.js';

const root = REPO_ROOT;
const sources = shippedSources;


/** Relative modules a source imports at run time (`import type` / `export type` do not load anything). */
function runtimeImports(file: string, withTypes = false): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    if (m[2] && !withTypes) continue;
    // `import { type A, type B } from` loads nothing either.
    const names = /^\{([^}]*)\}$/.exec(m[3]!.trim())?.[1];
    if (!withTypes && names !== undefined && names.split(',').every((n) => n.trim() === '' || n.trim().startsWith('type '))) continue;
    const target = resolve(dirname(file), m[4]!.replace(/\.js$/, '.ts'));
    const candidates = [target, target.replace(/\.ts$/, '/index.ts')];
    const found = candidates.find((c) => existsSync(c));
    if (found) out.push(found);
  }
  for (const m of text.matchAll(/^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const target = resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
    if (existsSync(target)) out.push(target);
  }
  return out;
}

/** Import circles (strongly connected components of more than one module, or a module importing itself). */
function circles(files: readonly string[], withTypes = false): string[][] {
  const graph = new Map(files.map((f) => [f, runtimeImports(f, withTypes)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.map((f) => relative(root, f)).sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return out;
}

describe('module structure', () => {
  const projects = ['packages', 'apps'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(root, dir, name, 'src')));

  it('no package or app has an import circle between its modules', () => {
    const found = projects.filter((src) => existsSync(src)).flatMap((src) => circles(sources(src)));
    expect(found).toEqual([]);
  });

  it('not even through type imports', () => {
    const found = projects.filter((src) => existsSync(src)).flatMap((src) => circles(sources(src), true));
    expect(found).toEqual([]);
  });

  it('no shipped source file is over 800 lines', () => {
    const long = projects
      .filter((src) => existsSync(src))
      .flatMap((src) => sources(src))
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter((f) => f.lines > 800 && !f.file.endsWith('-model.ts'));
    expect(long).toEqual([]);
  });

  it('finds a circle when there is one (the check itself works)', () => {
    expect(circles([join(__dirname, 'import-cycles.spec.ts')])).toEqual([]);
  });
});
