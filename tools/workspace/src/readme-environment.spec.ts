import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, shippedSources } from './repo-sources.js';

/** Environment variables shipped code reads: `env['X']`, `env.X`, `process.env.X`, and names passed to a reader (`num('X')`). */
const READ = /\benv(?:\[\s*['"]([A-Z][A-Z0-9_]+)['"]\s*\]|\.([A-Z][A-Z0-9_]+))|\bnum\(\s*'([A-Z][A-Z0-9_]+)'\s*\)|\b([A-Z][A-Z0-9_]+)_ENV\s*=\s*'([A-Z][A-Z0-9_]+)'/g;

/** Read by the platform, not configuration of DocTree. */
const NOT_CONFIGURATION = new Set(['PATH', 'HOME', 'NODE_ENV']);

function variablesReadBy(files: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files) {
    // Comments (TSDoc examples) are not reads.
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(READ)) {
      const name = m[1] ?? m[2] ?? m[3] ?? m[5];
      if (name !== undefined && !NOT_CONFIGURATION.has(name) && !found.has(name)) found.set(name, file.slice(REPO_ROOT.length + 1));
    }
  }
  return found;
}

describe('README configuration table', () => {
  it('names every environment variable the shipped code and the setup script read', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'));
    const table = section.slice(0, section.indexOf('\n## ', 4));
    const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
    const sources = [
      ...shippedSources(join(REPO_ROOT, 'packages')),
      ...shippedSources(join(REPO_ROOT, 'apps')),
      join(REPO_ROOT, 'tools', 'setup', 'setup.mjs'),
    ];
    const read = variablesReadBy(sources);
    expect(read.has('DOCTREE_DATA_DIR')).toBe(true); // the scan sees the configuration reader
    const missing = [...read].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });
});
