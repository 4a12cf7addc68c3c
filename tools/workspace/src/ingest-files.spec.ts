/**
 * `doctree ingest` with several files on the built CLI, where the compiled worker script exists and files are read side
 * by side in worker threads: the trees are byte-identical to reading the files one after the other (`--jobs 1`), a
 * failing file is reported by name and the others are written. Needs built dist/ folders (test target depends on `^build`).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeSimplePdf } from '@doctree/ingest';
import { findWorkspaceRoot } from './index.js';

const execFileAsync = promisify(execFile);
const root = findWorkspaceRoot(__dirname);
const cli = join(root, 'apps', 'cli', 'bin', 'doctree.js');
const TIMEOUT = 120_000;
const OUTPUTS = ['content_list.adapted.json', 'content_list.enhanced.json', 'doctree.mm.json'];

async function doctree(args: string[], cwd: string): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [cli, ...args], { cwd, env: { PATH: process.env['PATH'], HOME: process.env['HOME'] }, timeout: TIMEOUT });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { status: typeof failure.code === 'number' ? failure.code : -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

describe('doctree ingest with several files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-ingest-files-'));
    copyFileSync(join(root, 'data', 'samples', 'northwind-annual-report-2023.pdf'), join(dir, 'northwind.pdf'));
    const pages = ['Scope', 'Method', 'Findings', 'Outlook'].map((heading, i) => ({
      runs: [
        { text: `${i + 1} ${heading}`, x: 72, y: 90, size: 16, bold: true },
        { text: `The ${heading.toLowerCase()} section explains how the survey was run and what it found.`, x: 72, y: 120, size: 11 },
      ],
    }));
    writeFileSync(join(dir, 'survey.pdf'), writeSimplePdf(pages));
    writeFileSync(join(dir, 'notes.md'), '# Notes\n\n## Sensors\n\nThe sensor line grew 12% in 2023.\n');
    writeFileSync(join(dir, 'broken.pdf'), '%PDF-1.7\nnot really a PDF\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same trees reading files side by side as one after the other, and names the file that failed', async () => {
    const inputs = ['northwind.pdf', 'broken.pdf', 'survey.pdf', 'notes.md'];
    const runs: Record<string, string> = {};
    for (const jobs of ['1', '2']) {
      const run = await doctree(['ingest', ...inputs, '--out', `out-${jobs}`, '--jobs', jobs], dir);
      expect(run.status).not.toBe(0);
      expect(run.stderr).toMatch(/\[PDF_CORRUPT\] \S*broken\.pdf/);
      expect(run.stdout).toMatch(/Ingested 3 of 4 files/);
      const docs = readdirSync(join(dir, `out-${jobs}`)).sort();
      expect(docs).toEqual(['northwind', 'notes', 'survey']);
      runs[jobs] = docs.flatMap((doc) => OUTPUTS.map((name) => readFileSync(join(dir, `out-${jobs}`, doc, name), 'utf8'))).join('\n');
    }
    expect(runs['2']).toContain('Industrial Sensors');
    expect(runs['2']).toBe(runs['1']);
  }, TIMEOUT);
});
