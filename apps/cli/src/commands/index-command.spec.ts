import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../main.js';
import { captureIo as capture } from '../__fixtures__/capture-io.js';
import type { CapturedIo } from '@doctree/pipeline/testing';

const SAMPLE_PDF = join(__dirname, '../../../../data/samples/northwind-annual-report-2023.pdf');

// The hashing embedder keeps these tests light (the SIF default is covered by @doctree/index and @doctree/pipeline).
const HASHING = { DOCTREE_EMBEDDER: 'hashing' };

const captureIo = (cwd: string, env: Record<string, string | undefined> = HASHING, isTty = false): CapturedIo => capture(cwd, env, isTty);

describe('doctree index', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-index-'));
    copyFileSync(SAMPLE_PDF, join(dir, 'northwind.pdf'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ingests and indexes a PDF into data/default/<doc_id>, then reports a no-op for the document folder', async () => {
    const io = captureIo(dir);
    expect(await run(['index', 'northwind.pdf'], io)).toBe(0);
    const docDir = join(dir, 'data', 'default', 'northwind');
    expect(io.out).toMatch(new RegExp(`^Indexed ${docDir.replace(/[/\\]/g, '.')}\n`));
    expect(io.out).toMatch(/3 pages, ingested now; embedder hashing-v1:d512\S* \(d=512\), vector backend (faiss|exact)/);
    expect(io.out).toMatch(/records: summary\.json \d+, dense_coarse\.jsonl \d+, dense_leaf\.jsonl \d+/);
    expect(io.out).toMatch(/vectors: coarse \d+, leaf \d+, leaf_raw \d+/);
    expect(io.out).toMatch(/bytes: [\d.]+ KB in \d+ files \([\d.]+ KB per page\)/);
    expect(io.out).toMatch(/build steps: summaries \d+ ms, records \d+ ms, embed \d+ ms/);
    expect(existsSync(join(docDir, 'index', 'manifest.json'))).toBe(true);
    expect(io.err).toBe('');

    const again = captureIo(dir);
    expect(await run(['index', join('data', 'default', 'northwind')], again)).toBe(0);
    expect(again.out).toMatch(/is up to date: nothing rebuilt/);
    expect(again.out).toMatch(/tree reused/);
  });

  it('prints JSON with counts, bytes and timings, and rebuilds with --force or another --embedder', async () => {
    const first = captureIo(dir);
    expect(await run(['index', 'northwind.pdf', '--json', '--backend', 'exact'], first)).toBe(0);
    const report = JSON.parse(first.out);
    expect(report).toMatchObject({ docId: 'northwind', pages: 3, rebuilt: true, ingested: true, vectorBackend: 'exact', summaries: { method: 'extractive' } });
    expect(report.vectors.coarse).toBeGreaterThan(0);
    expect(report.records['dense_leaf.jsonl']).toBe(report.vectors.leaf);
    expect(report.bytes.total).toBe(Object.values(report.bytes.files as Record<string, number>).reduce((a, b) => a + b, 0));
    expect(report.bytes.files['coarse.vectors']).toBeGreaterThan(0);

    const noop = captureIo(dir);
    await run(['index', 'northwind.pdf', '--json', '--backend', 'exact'], noop);
    expect(JSON.parse(noop.out)).toMatchObject({ rebuilt: false, ingested: false });
    const forced = captureIo(dir);
    await run(['index', 'northwind.pdf', '--json', '--backend', 'exact', '--force'], forced);
    expect(JSON.parse(forced.out)).toMatchObject({ rebuilt: true, ingested: true });
    const other = captureIo(dir);
    writeFileSync(join(dir, 'doctree.config.json'), JSON.stringify({ embedder: { dimension: 128 } }));
    await run(['index', 'northwind.pdf', '--json', '--backend', 'exact'], other);
    expect(JSON.parse(other.out)).toMatchObject({ rebuilt: true, ingested: false, embedder: { dimension: 128 } });
  });

  it('shows progress on a terminal only, on stderr', async () => {
    const tty = captureIo(dir, HASHING, true);
    expect(await run(['index', 'northwind.pdf'], tty)).toBe(0);
    expect(tty.err).toMatch(/\[(ingest|index)\]/);
  });

  it('answers bad arguments with a one-line usage error', async () => {
    const io = captureIo(dir);
    expect(await run(['index'], io)).toBe(2);
    expect(io.err).toMatch(/^doctree: \[USAGE\] index takes exactly one/);
    const bad = captureIo(dir);
    expect(await run(['index', 'northwind.pdf', '--embedder', 'word2vec'], bad)).toBe(2);
    expect(bad.err).toMatch(/--embedder must be hashing, sif or openai/);
    const missing = captureIo(dir);
    expect(await run(['index', 'missing.pdf'], missing)).toBe(4);
    expect(missing.err).toMatch(/^doctree: \[INPUT_NOT_FOUND\].*missing\.pdf/);
    expect(missing.err).not.toMatch(/\n\s+at /);
  });
});
