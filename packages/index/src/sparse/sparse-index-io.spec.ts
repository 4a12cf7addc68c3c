import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';

import { PAPER_DOCS, TEN_K_DOCS } from './__fixtures__/report-docs.js';
import { MiniSearchSparseIndex } from './minisearch-sparse-index.js';
import { SPARSE_ANALYZER_VERSION } from './sparse-analyzer.js';
import { loadSparseIndex, readSparseIndex, saveSparseIndex } from './sparse-index-io.js';

async function rejection(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function thrown(fn: () => unknown): DocTreeError {
  try {
    fn();
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

function built(options: ConstructorParameters<typeof MiniSearchSparseIndex>[0] = {}): MiniSearchSparseIndex {
  const index = new MiniSearchSparseIndex(options);
  index.add([...TEN_K_DOCS, ...PAPER_DOCS]);
  return index;
}

/** The JSON of `index` with `edit` applied. */
function edited(index: MiniSearchSparseIndex, edit: (json: Record<string, unknown> & { index: Record<string, unknown> }) => void): unknown {
  const json = JSON.parse(JSON.stringify(index.toJSON())) as Record<string, unknown> & { index: Record<string, unknown> };
  edit(json);
  return json;
}

describe('sparse index persistence', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-sparse-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a versioned file and reads it back with the same results', async () => {
    const index = built({ boosts: { labels: 4 }, bm25: { k: 1.5 }, storeText: true });
    const path = join(dir, 'nested', 'bm25_coarse.json');
    await saveSparseIndex(path, index);
    expect(await readdir(join(dir, 'nested'))).toEqual(['bm25_coarse.json']);
    const json = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(json).toMatchObject({
      format: 'doctree.sparse',
      version: 1,
      analyzer_version: SPARSE_ANALYZER_VERSION,
      boosts: { labels: 4, heading: 3 },
      params: { bm25: { k: 1.5, b: 0.7, d: 0.5 }, combine_with: 'or', coordination: true, store_text: true },
    });
    const loaded = await readSparseIndex(path);
    expect(loaded.size).toBe(index.size);
    for (const query of ['Table 2', 'fig. 3', 'capital expenditures 2018', '1,482', 'revenues', 'Item 7A', 'the']) {
      expect(loaded.search(query, { k: 10 })).toEqual(index.search(query, { k: 10 }));
    }
    const filter = (doc: { body?: string }): boolean => (doc.body ?? '').includes('million');
    expect(loaded.search('2018', { k: 10, filter })).toEqual(index.search('2018', { k: 10, filter }));
    // A loaded index keeps growing.
    loaded.add([{ id: 't_99', role: 'paragraph', body: 'Restructuring charges in 2019.', filters: {} }]);
    expect(loaded.search('restructuring', { k: 1 })[0]!.id).toBe('t_99');
  });

  it('restores the term index lazily yet completely: searched or not, a loaded index saves back the same terms', () => {
    const index = built();
    // Terms come out in radix-tree order, which depends on insertion order: compare them sorted.
    const canonical = (file: unknown): unknown => {
      const json = JSON.parse(JSON.stringify(file)) as { index: { index: [string, unknown][] } };
      json.index.index.sort((a, b) => (a[0] < b[0] ? -1 : 1));
      return json;
    };
    const expected = canonical(index.toJSON());
    const text = JSON.stringify(index.toJSON());
    expect(canonical(loadSparseIndex(text).toJSON())).toEqual(expected);
    const searched = loadSparseIndex(text);
    expect(searched.search('capital expenditures 2018', { k: 3 })).toEqual(index.search('capital expenditures 2018', { k: 3 }));
    expect(searched.search('zzzz unknownterm', { k: 3 })).toEqual([]);
    expect(canonical(searched.toJSON())).toEqual(expected);
    expect(searched.search('capital expenditures 2018', { k: 3 })).toEqual(index.search('capital expenditures 2018', { k: 3 }));
  });

  it('accepts JSON text as well as parsed JSON', () => {
    const index = built();
    const text = JSON.stringify(index.toJSON());
    expect(loadSparseIndex(text).search('Table 4', { k: 3 })).toEqual(index.search('Table 4', { k: 3 }));
  });

  it('names the file when the format version is not supported', async () => {
    const path = join(dir, 'future.json');
    await writeFile(path, JSON.stringify(edited(built(), (json) => (json['version'] = 2))));
    const error = await rejection(readSparseIndex(path));
    expect(error.code).toBe('FORMAT_VERSION_UNSUPPORTED');
    expect(error.file).toBe(path);
    expect(error.toOneLine()).toContain(path);
    expect(error.message).toMatch(/version 2/);

    const other = thrown(() => loadSparseIndex({ format: 'doctree.vectors', version: 1 }, { file: 'x.json' }));
    expect(other.code).toBe('FORMAT_VERSION_UNSUPPORTED');
    expect(other.file).toBe('x.json');
  });

  it('rejects an index built by another analyser version, naming the file', async () => {
    const path = join(dir, 'old-analyser.json');
    await writeFile(path, JSON.stringify(edited(built(), (json) => (json['analyzer_version'] = SPARSE_ANALYZER_VERSION + 1))));
    const error = await rejection(readSparseIndex(path));
    expect(error.code).toBe('FORMAT_VERSION_UNSUPPORTED');
    expect(error.file).toBe(path);
    expect(error.message).toMatch(/analyser version/);
  });

  it('reports malformed files as INDEX_CORRUPT with the file', async () => {
    const index = built();
    const cases: [string, unknown][] = [
      ['missing params', edited(index, (json) => delete json['params'])],
      ['bad boost', edited(index, (json) => ((json['boosts'] as Record<string, unknown>)['labels'] = -1))],
      ['unknown boost field', edited(index, (json) => ((json['boosts'] as Record<string, unknown>)['summary'] = 1))],
      ['no index', edited(index, (json) => Reflect.deleteProperty(json, 'index'))],
      ['document count', edited(index, (json) => (json.index['documentCount'] = 3))],
      ['stored role', edited(index, (json) => ((json.index['storedFields'] as Record<string, unknown>)['0'] = { role: 'poem' }))],
      ['fields', edited(index, (json) => ((json.index['fieldIds'] as Record<string, unknown>)['summary'] = 11))],
      ['postings', edited(index, (json) => ((json.index['index'] as unknown[])[0] = ['term', 'not postings']))],
      ['serialisation', edited(index, (json) => (json.index['serializationVersion'] = 9))],
    ];
    for (const [name, json] of cases) {
      const error = thrown(() => loadSparseIndex(json, { file: `${name}.json` }));
      expect([name, error.code]).toEqual([name, 'INDEX_CORRUPT']);
      expect(error.file).toBe(`${name}.json`);
    }
    const path = join(dir, 'truncated.json');
    await writeFile(path, JSON.stringify(index.toJSON()).slice(0, 500));
    const truncated = await rejection(readSparseIndex(path));
    expect(truncated.code).toBe('INDEX_CORRUPT');
    expect(truncated.file).toBe(path);
  });

  it('reports bad term frequencies at search time as INDEX_CORRUPT', () => {
    const json = edited(built(), (json) => {
      for (const [term, postings] of json.index['index'] as [string, Record<string, Record<string, unknown>>][]) {
        if (term !== 'zanzibar' && term !== 'liquiditi') continue;
        for (const byDoc of Object.values(postings)) for (const doc of Object.keys(byDoc)) byDoc[doc] = 'many';
      }
    });
    const index = loadSparseIndex(json, { file: 'bad-tf.json' });
    const error = thrown(() => index.search('liquidity', { k: 3 }));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.file).toBe('bad-tf.json');
  });

  it('says INDEX_MISSING for a missing file', async () => {
    const error = await rejection(readSparseIndex(join(dir, 'absent.json')));
    expect(error.code).toBe('INDEX_MISSING');
    expect(error.file).toBe(join(dir, 'absent.json'));
  });

  it('replaces an existing file atomically and leaves no temporary file behind', async () => {
    const path = join(dir, 'atomic', 'bm25_leaf.json');
    await saveSparseIndex(path, built());
    const smaller = new MiniSearchSparseIndex();
    smaller.add(PAPER_DOCS);
    await saveSparseIndex(path, smaller);
    expect(await readdir(join(dir, 'atomic'))).toEqual(['bm25_leaf.json']);
    expect((await readSparseIndex(path)).size).toBe(PAPER_DOCS.length);
  });
});
