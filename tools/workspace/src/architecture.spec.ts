import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT, shippedSources } from './repo-sources.js';

const root = REPO_ROOT;
const sources = shippedSources;

/** Repository paths a Markdown text names in backticks (`packages/…`, `apps/…`, `tools/…`, `docs/…`). */
function namedPaths(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/`((?:packages|apps|tools|docs|examples)\/[^`\s*]+?)`/g)) out.add(m[1]!.replace(/\/$/, ''));
  return [...out];
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
