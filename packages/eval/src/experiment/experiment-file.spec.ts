import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';

import { loadExperiment, parseExperiment } from './experiment-file.js';

const valid = {
  format: 'doctree.experiment',
  version: 1,
  name: 'dev-comparison',
  systems: ['doctree', 'rag'],
  datasets: [{ name: 'dev', questions: '../data/dev/questions.jsonl', limit: 5 }],
  configs: [
    { name: 'sif', config: { embedder: { kind: 'sif' } } },
    { name: 'hashing', description: 'feature hashing', config: { embedder: { kind: 'hashing', dimension: 1024 }, index: { backend: 'exact' } } },
  ],
};

function failure(value: unknown, options: Parameters<typeof parseExperiment>[1] = {}): DocTreeError {
  try {
    parseExperiment(value, { file: '/exp/experiment.json', ...options });
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the experiment to be refused');
}

describe('parseExperiment', () => {
  it('accepts systems given by a module (resolved from the file folder) beside known ids, and names a bad entry', () => {
    const experiment = parseExperiment({ ...valid, systems: ['doctree', './systems/mine.mjs', 'module:../x.js#createSystem'] }, { file: '/exp/sub/experiment.json', knownSystems: ['doctree'] });
    expect(experiment.systems).toEqual(['doctree', 'module:/exp/sub/systems/mine.mjs', 'module:/exp/x.js#createSystem']);
    expect(failure({ ...valid, systems: ['doctree', 'my system.txt'] }).message).toMatch(/systems\.1: not a system id or a module/);
    expect(failure({ ...valid, systems: ['nope'] }, { knownSystems: ['doctree'] }).message).toMatch(/systems\.0: unknown system "nope"/);
  });

  it('resolves dataset paths from the file folder and keeps configuration overrides as written', () => {
    const experiment = parseExperiment(valid, { file: '/exp/sub/experiment.json' });
    expect(experiment).toMatchObject({
      file: '/exp/sub/experiment.json',
      name: 'dev-comparison',
      systems: ['doctree', 'rag'],
      datasets: [{ name: 'dev', questions: '/exp/data/dev/questions.jsonl', limit: 5 }],
      judge: false,
    });
    // No schema defaults leak in: only what the file says overrides the base configuration.
    expect(experiment.configs).toEqual([
      { name: 'sif', config: { embedder: { kind: 'sif' } } },
      { name: 'hashing', description: 'feature hashing', config: { embedder: { kind: 'hashing', dimension: 1024 }, index: { backend: 'exact' } } },
    ]);
    expect(experiment.outDir).toBeUndefined();
    const minimal = parseExperiment({ ...valid, configs: undefined, out_dir: 'out' }, { file: '/exp/e.json' });
    expect(minimal.configs).toEqual([{ name: 'default', config: {} }]);
    expect(minimal.outDir).toBe('/exp/out');
  });

  it('names the field of each mistake', () => {
    expect(failure({ ...valid, datasets: [{ name: 'dev' }] }).message).toMatch(/^invalid experiment file: datasets\.0\.questions: /);
    expect(failure({ ...valid, systems: [] }).message).toMatch(/systems: Too small/i);
    expect(failure({ ...valid, systems: ['doctree', 'gpt 4'] }).message).toMatch(/systems\.1: not a system id/);
    expect(failure({ ...valid, systems: ['rag', 'rag'] }).message).toMatch(/systems\.1: system "rag" is listed twice/);
    expect(failure({ ...valid, configs: [{ name: 'a' }, { name: 'a' }] }).message).toMatch(/configs\.1\.name: name "a" is used twice/);
    expect(failure({ ...valid, configs: [{ name: 'x', config: { embedder: { kind: 'word2vec' } } }] }).message).toMatch(/configs\.0\.config\.embedder\.kind: /);
    expect(failure({ ...valid, configs: [{ name: 'x', config: { llm: { api_key: 'sk-secret-1234' } } }] }).message).toMatch(/configs\.0\.config\.llm: Unrecognized key: "api_key"/);
    expect(failure({ ...valid, limt: 3 }).message).toMatch(/\(root\): Unrecognized key: "limt"/);
    expect(failure({ ...valid, name: 'my experiment' }).message).toMatch(/name: use 1-64 letters/);
    expect(failure({ ...valid, systems: ['doctree', 'gpt'] }, { knownSystems: ['doctree', 'rag'] }).message).toMatch(/systems\.1: unknown system "gpt" \(valid: doctree, rag\)/);
    const error = failure({ ...valid, limit: 0 });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.file).toBe('/exp/experiment.json');
    expect(error.hint).toMatch(/apps\/eval-runner\/README\.md/);
  });

  it('refuses another format version and other formats', () => {
    const version = failure({ ...valid, version: 2 });
    expect(version.code).toBe('FORMAT_VERSION_UNSUPPORTED');
    expect(version.message).toMatch(/version 2 is not supported; this DocTree reads version 1/);
    expect(failure({ ...valid, format: 'doctree.eval-run' }).message).toMatch(/format: /);
  });
});

describe('loadExperiment', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-experiment-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file, and reports a missing file or bad JSON naming the file', async () => {
    const file = join(dir, 'ok.json');
    await writeFile(file, JSON.stringify(valid));
    expect((await loadExperiment(file)).datasets[0]!.questions).toBe(join(dir, '..', 'data', 'dev', 'questions.jsonl'));
    await expect(loadExperiment(join(dir, 'missing.json'))).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND', file: join(dir, 'missing.json') });
    await writeFile(join(dir, 'bad.json'), '{ "format": ');
    await expect(loadExperiment(join(dir, 'bad.json'))).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(/not valid JSON/) });
  });
});
