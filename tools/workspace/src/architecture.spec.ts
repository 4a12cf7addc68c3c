import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/** Repository paths a Markdown text names in backticks (`packages/…`, `apps/…`, `tools/…`, `docs/…`). */
function namedPaths(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/`((?:packages|apps|tools|docs|examples)\/[^`\s*]+?)`/g)) out.add(m[1]!.replace(/\/$/, ''));
  return [...out];
}

/** Shipped TypeScript sources (not specs, fixtures, generated models or build output) under a folder. */
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === '__fixtures__') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe('ARCHITECTURE.md', () => {
  const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

  it('names only paths that exist', () => {
    const paths = namedPaths(text);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });

  it('has a row for every package and app', () => {
    for (const dir of ['packages', 'apps']) {
      for (const name of readdirSync(join(root, dir))) {
        const label = dir === 'packages' ? `@doctree/${name}` : `apps/${name}`;
        expect(text).toContain(`\`${label}\``);
      }
    }
  });
});

describe('design documents cited from code', () => {
  it('every `docs/...` path a shipped source cites exists', () => {
    const missing: string[] = [];
    for (const dir of ['packages', 'apps']) {
      for (const file of sources(join(root, dir))) {
        for (const m of readFileSync(file, 'utf8').matchAll(/\b(docs\/[\w./-]+\.md)\b/g)) if (!existsSync(join(root, m[1]!))) missing.push(`${relative(root, file)}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('shipped sources', () => {
  it('cite no documents outside the repository (no "seed 00x" or "issue N" references)', () => {
    const found: string[] = [];
    for (const dir of ['packages', 'apps']) {
      for (const file of sources(join(root, dir))) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\bseed\s+(?:0\d\d|§)|\bissues?\s+#?\d+\b/i.test(line)) found.push(`${relative(root, file)}:${i + 1}`);
          });
      }
    }
    expect(found).toEqual([]);
  });
});
