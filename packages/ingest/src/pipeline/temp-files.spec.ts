import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isProcessAlive, removeStaleTempFiles, trackTempPath } from './temp-files.js';

/** The id of a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('temporary files of dead processes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-temp-spec-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('tells running processes from gone ones', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(deadPid())).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
  });

  it('removes the temporaries of a dead process, keeps those of live ones and every other file', async () => {
    const dead = deadPid();
    const names = [
      `doctree.mm.json.tmp-${dead}-0a1b2c3d`,
      `index.tmp-${dead}-deadbeef`,
      `index.old-${dead}-01234567`,
      `doctree.mm.json.tmp-${process.pid}-0a1b2c3d`,
      'doctree.mm.json',
      `notes.tmp-${dead}-xyz`,
    ];
    for (const name of names) {
      if (name.startsWith('index.')) mkdirSync(join(dir, name));
      else writeFileSync(join(dir, name), 'x');
    }
    const removed = await removeStaleTempFiles(dir);
    expect(removed.sort()).toEqual([names[0], names[2], names[1]].map((n) => join(dir, n!)).sort());
    expect(readdirSync(dir).sort()).toEqual([names[3], names[4], names[5]].sort());
    expect(await removeStaleTempFiles(join(dir, 'missing'))).toEqual([]);
  });

  it('removes a tracked temporary folder when the process ends by SIGTERM, and still ends by that signal', async () => {
    const temp = join(dir, `work.tmp-0-00000000`);
    const source = join(__dirname, 'temp-files.ts');
    const child = spawn(
      process.execPath,
      ['--conditions=@doctree/source', '--import', pathToFileURL(join(__dirname, '..', '..', '..', '..', 'tools', 'scripts', 'typescript-loader.mjs')).href, '--input-type=module', '-e', `
        import { mkdirSync } from 'node:fs';
        const { trackTempPath } = await import(${JSON.stringify(pathToFileURL(source).href)});
        mkdirSync(${JSON.stringify(temp)});
        trackTempPath(${JSON.stringify(temp)});
        console.log('ready');
        setInterval(() => undefined, 1000);
      `],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    expect(existsSync(temp)).toBe(true);
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    expect(existsSync(temp)).toBe(false);
  }, 20_000);

  it('installs no signal listener while nothing is tracked', () => {
    const before = process.listenerCount('SIGINT');
    const untrack = trackTempPath(join(dir, 'a'));
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    untrack();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
