import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestFile } from './ingest-file.js';

describe('ingestFile into a document folder', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'doctree-doc-folder-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('warns DOC_REPLACED when another file with the same derived id replaces a document (c1/report.md, c2/report.md)', async () => {
    for (const folder of ['c1', 'c2']) {
      mkdirSync(join(root, folder));
      writeFileSync(join(root, folder, 'report.md'), `# Report ${folder}\n\nText of ${folder}.\n`);
    }
    const out = join(root, 'out');
    const first = await ingestFile(join(root, 'c1', 'report.md'), { outDir: out });
    expect(first.summary.warnings.filter((w) => w.code === 'DOC_REPLACED')).toEqual([]);
    const again = await ingestFile(join(root, 'c1', 'report.md'), { outDir: out });
    expect(again.summary.warnings.filter((w) => w.code === 'DOC_REPLACED')).toEqual([]);
    const second = await ingestFile(join(root, 'c2', 'report.md'), { outDir: out });
    expect(second.summary.warnings.filter((w) => w.code === 'DOC_REPLACED')).toEqual([
      { code: 'DOC_REPLACED', message: expect.stringMatching(/^The document folder report held report\.md \(sha256 [0-9a-f]{12}…\); it now holds report\.md .*--doc-id/) },
    ]);
  });

  it('removes temporaries a killed ingest left in the folder, and a rerun gives the files of a clean run', async () => {
    writeFileSync(join(root, 'notes.md'), '# Notes\n\nSome text.\n');
    const out = join(root, 'out');
    const clean = await ingestFile(join(root, 'notes.md'), { outDir: out });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(clean.docDir, `doctree.mm.json.tmp-${dead}-0a1b2c3d`), '{"partial');
    await ingestFile(join(root, 'notes.md'), { outDir: out });
    expect(readdirSync(clean.docDir).sort()).toEqual(['content_list.adapted.json', 'content_list.enhanced.json', 'doctree.mm.json', 'source.md']);
  });
});
