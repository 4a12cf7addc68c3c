/**
 * The speed patches `@doctree/ingest` applies to unpdf's pdf.js at run time (`PDFJS_PATCHES`: loaded from memory
 * through a `data:` URL, which Jest cannot import) are checked here, where the built CLI runs in plain Node: the
 * patches are in effect, and ingest output is byte-identical to unpdf's stock pdf.js (`DOCTREE_PDFJS_PATCHES=off`).
 * Needs built dist/ folders (this project's test target depends on `^build`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

async function doctree(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [cli, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env },
    timeout: TIMEOUT,
    maxBuffer: 32 * 1024 * 1024,
  });
  return stdout;
}

/** A generated statement page: a title, a ruled table with parenthesised negatives, and body text (saved graphics states). */
function statementPdf(): Uint8Array {
  const rows = [
    ['(Millions)', '2023', '2022'],
    ['Net sales', '1,204.5', '1,118.0'],
    ['Purchases of property, plant and equipment', '(37.5)', '(41.2)'],
    ['Net cash provided by operating activities', '92.8', '88.1'],
  ];
  const text = [
    { text: 'Consolidated Statement of Cash Flows', x: 72, y: 80, size: 16, bold: true },
    // Figures as hex strings (`<3132…>`), as many 10-K producers write every glyph.
    ...rows.flatMap((row, r) => row.map((cell, c) => ({ text: cell, x: c === 0 ? 80 : 380 + (c - 1) * 90, y: 140 + r * 22, size: 10, hex: c > 0 }))),
    { text: 'The accompanying notes are an integral part of this statement.', x: 72, y: 260, size: 10 },
  ];
  const shapes = rows.map((_, r) => ({ kind: 'line' as const, x: 72, y: 148 + r * 22, width: 488, height: 0 }));
  return writeSimplePdf([{ runs: text, shapes }]);
}

describe('pdf.js speed patches', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-pdfjs-patches-'));
    writeFileSync(join(dir, 'statement.pdf'), statementPdf());
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are in effect in the built CLI, and off with DOCTREE_PDFJS_PATCHES=off', async () => {
    const patched = JSON.parse(await doctree(['doctor', '--json'], {}));
    expect(patched.pdf.patches).toEqual(['text-state-clone', 'sync-flate', 'stream-chunks-uncloned', 'text-transform-fused', 'hex-string-codes']);
    const stock = JSON.parse(await doctree(['doctor', '--json'], { DOCTREE_PDFJS_PATCHES: 'off' }));
    expect(stock.pdf).toMatchObject({ ok: true, patches: [] });
  }, TIMEOUT);

  it.each([
    ['the bundled sample report', join(root, 'data', 'samples', 'northwind-annual-report-2023.pdf'), 'Industrial Sensors'],
    ['a generated statement page', 'statement.pdf', '1,204.5'],
  ])('leave the ingest output of %s byte-identical', async (_name, file, expected) => {
    const input = file.startsWith('/') ? file : join(dir, file);
    const runs: Record<string, string> = {};
    for (const [mode, env] of [['patched', {}], ['stock', { DOCTREE_PDFJS_PATCHES: 'off' }]] as const) {
      const summary = JSON.parse(await doctree(['ingest', input, '--out', join(dir, mode), '--doc-id', 'doc', '--json'], env));
      expect(summary.summary.pages).toBeGreaterThan(0);
      runs[mode] = OUTPUTS.map((name) => readFileSync(join(dir, mode, 'doc', name), 'utf8')).join('\n');
    }
    expect(runs['patched']).toContain(expected);
    expect(runs['patched']).toBe(runs['stock']);
  }, TIMEOUT);
});
