import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '../errors.js';
import { swapDirectory, temporaryPathFor, writeAtomically, writeFileAtomic, writeFilesAtomically } from './index.js';

describe('@doctree/schema/node atomic writes', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-atomic-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names temporaries after the target with the process id', () => {
    expect(temporaryPathFor('/x/a.json')).toMatch(new RegExp(`^/x/a\\.json\\.tmp-${process.pid}-[0-9a-f]{8}$`));
    expect(temporaryPathFor('/x/a.json')).not.toBe(temporaryPathFor('/x/a.json'));
  });

  it('writes a file, creating its folder, and replaces old content', async () => {
    const path = join(dir, 'sub', 'a.txt');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, 'two');
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(await readdir(join(dir, 'sub'))).toEqual(['a.txt']);
  });

  it('a failed write keeps the old content, leaves no temporary and throws IO_WRITE_FAILED', async () => {
    const path = join(dir, 'a.txt');
    await writeFileAtomic(path, 'old');
    const error = await writeAtomically(path, async (tmp) => {
      await writeFile(tmp, 'partial');
      throw new Error('disk full');
    }).catch((e: unknown) => e);
    expect(DocTreeError.isInstance(error) && error.code).toBe('IO_WRITE_FAILED');
    expect((error as DocTreeError).file).toBe(path);
    expect(await readFile(path, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['a.txt']);
  });

  it('a reader never sees a partial file while it is written', async () => {
    const path = join(dir, 'a.txt');
    await writeFileAtomic(path, 'old');
    let seenDuringWrite = '';
    await writeAtomically(path, async (tmp) => {
      await writeFile(tmp, 'new-');
      seenDuringWrite = await readFile(path, 'utf8');
      await writeFile(tmp, 'new-complete');
    });
    expect(seenDuringWrite).toBe('old');
    expect(await readFile(path, 'utf8')).toBe('new-complete');
  });

  it('keeps a DocTreeError thrown by the writer as it is', async () => {
    const thrown = new DocTreeError('INPUT_UNREADABLE', 'bad');
    await expect(writeAtomically(join(dir, 'a'), () => Promise.reject(thrown))).rejects.toBe(thrown);
  });

  it('writes several files all together and calls the hooks', async () => {
    const tracked: string[] = [];
    const untracked: string[] = [];
    const before = jest.fn(() => Promise.resolve());
    await writeFilesAtomically(join(dir, 'doc'), [['a.json', '{}'], ['b.bin', new Uint8Array([1, 2])]], {
      beforeWrite: before,
      trackTemporary: (p) => {
        tracked.push(p);
        return () => untracked.push(p);
      },
    });
    expect((await readdir(join(dir, 'doc'))).sort()).toEqual(['a.json', 'b.bin']);
    expect(before).toHaveBeenCalledWith(join(dir, 'doc'));
    expect(tracked).toHaveLength(2);
    expect(untracked).toEqual(tracked);
  });

  it('writes nothing when one of several files fails, and removes a folder it created', async () => {
    const doc = join(dir, 'doc');
    // A file name that is a folder path inside a missing folder cannot be written.
    const error = await writeFilesAtomically(doc, [['a.json', '{}'], ['missing/b.json', '{}']]).catch((e: unknown) => e);
    expect(DocTreeError.isInstance(error) && error.code).toBe('IO_WRITE_FAILED');
    expect((error as DocTreeError).file).toBe(doc);
    expect(await readdir(dir)).toEqual([]);
  });

  it('keeps the old files of an existing folder when a write fails', async () => {
    const doc = join(dir, 'doc');
    await writeFilesAtomically(doc, [['a.json', 'old']]);
    await expect(writeFilesAtomically(doc, [['a.json', 'new'], ['missing/b.json', '{}']])).rejects.toThrow(/cannot write/);
    expect(await readdir(doc)).toEqual(['a.json']);
    expect(await readFile(join(doc, 'a.json'), 'utf8')).toBe('old');
  });

  it('swaps a folder in, replacing an old one, and creates it when missing', async () => {
    const target = join(dir, 'index');
    const first = temporaryPathFor(target);
    await mkdir(first);
    await writeFile(join(first, 'v'), '1');
    await swapDirectory(first, target);
    const second = temporaryPathFor(target);
    await mkdir(second);
    await writeFile(join(second, 'v'), '2');
    await swapDirectory(second, target);
    expect(await readFile(join(target, 'v'), 'utf8')).toBe('2');
    expect(await readdir(dir)).toEqual(['index']);
  });

  it('puts the old folder back when the new one cannot be moved in', async () => {
    const target = join(dir, 'index');
    await mkdir(target);
    await writeFile(join(target, 'v'), 'old');
    await expect(swapDirectory(join(dir, 'does-not-exist'), target)).rejects.toThrow();
    expect(await readFile(join(target, 'v'), 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['index']);
  });
});
