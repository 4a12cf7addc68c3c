import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError, resolveConfig } from '@doctree/schema';

import { domainPackFromConfig } from './domain-pack-file.js';

const configWith = (pack: string) => resolveConfig({ overrides: { domain: { pack } } }).config;

describe('domainPackFromConfig', () => {
  it('leaves the choice to the document for auto, and reads the built-in packs by name', async () => {
    expect(await domainPackFromConfig(resolveConfig({}).config)).toBeUndefined();
    expect((await domainPackFromConfig(configWith('finance')))?.name).toBe('finance');
    expect((await domainPackFromConfig(configWith('generic')))?.name).toBe('generic');
  });

  it('loads a pack file and rejects a bad one with a hint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pack-config-'));
    const good = join(dir, 'energy.json');
    writeFileSync(good, JSON.stringify({ format: 'doctree.domain-pack', version: 1, name: 'energy', concepts: [{ name: 'capacity factor', aliases: ['capacity factor'] }] }));
    expect((await domainPackFromConfig(configWith(good)))?.name).toBe('energy');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'doctree.domain-pack', version: 1, name: 'Bad Name!' }));
    const error = await domainPackFromConfig(configWith(bad)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocTreeError);
    expect((error as DocTreeError).code).toBe('SCHEMA_INVALID');
    expect((error as DocTreeError).hint).toContain('doctree.domain-pack');
  });
});
