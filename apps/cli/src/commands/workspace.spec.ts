import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSimplePdf } from '@doctree/ingest';
import { run } from '../main.js';
import { captureIo } from '../__fixtures__/capture-io.js';

jest.setTimeout(60_000);

const PARAGRAPHS = [
  'Orchard Lane Library opened a repair cafe in 2019. Volunteers fixed 1,150 household items in its first year, most of them lamps, toasters and bicycles.',
  'Visits to the library rose by 12 percent after the repair cafe opened, because people waiting for repairs browsed the shelves and joined reading groups.',
];

describe('doctree workspace', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-ws-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the golden path from init to export and prints the query JSON the issue fixes', async () => {
    const io = captureIo(dir);
    expect(await run(['workspace', 'init', 'thesis'], io)).toBe(0);
    const ws = join(dir, 'thesis');
    const configPath = join(ws, 'workspace.config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8'));
    expect(config.verify_citations).toEqual({ k: 10, threshold: 0.55 });
    config.embedding.kind = 'hashing';
    writeFileSync(configPath, JSON.stringify(config));
    mkdirSync(join(ws, 'raw/evidence'), { recursive: true });
    writeFileSync(
      join(ws, 'raw/evidence/orchard-lane-2020.pdf'),
      writeSimplePdf([{ runs: PARAGRAPHS.flatMap((p, i) => [{ text: p.slice(0, 90), x: 72, y: 100 + i * 60, size: 10 }, { text: p.slice(90), x: 72, y: 114 + i * 60, size: 10 }]) }]),
    );
    writeFileSync(join(ws, 'raw/instruction/guidance/rubric.md'), '# Rubric\n\nEvery claim must cite a source. Essays should stay under 3000 words.\n');
    for (const step of ['parse', 'chunk', 'embed', 'build-bm25']) expect(await run(['workspace', step, '--workspace', ws], io)).toBe(0);
    const before = io.out.length;
    expect(await run(['workspace', 'query', 'How many items did volunteers fix?', '--workspace', ws, '--json'], io)).toBe(0);
    const printed = JSON.parse(io.out.slice(before));
    expect(Object.keys(printed).sort()).toEqual(['build_id', 'evidence', 'query_id']);
    expect(Object.keys(printed.evidence[0]).sort()).toEqual(['char_end', 'char_start', 'citation_key', 'doc_uid', 'exact_quote', 'page', 'score']);
    expect(printed.evidence[0]).toMatchObject({ doc_uid: 'orchard-lane-2020', page: 1 });
    expect(existsSync(join(ws, 'meta/query_runs', `${printed.query_id}.json`))).toBe(true);
    expect(readFileSync(join(ws, 'meta/instruction_brief.md'), 'utf8')).toContain('Every claim must cite a source.');
    expect(await run(['workspace', 'export-used-sources', '--workspace', ws], io)).toBe(0);
    expect(readFileSync(join(ws, 'outputs/used_sources_v001.bib'), 'utf8')).toContain('@misc{orchardLane2020,');
  });

  it('fails verify-citations when the draft cites instruction material, and refuses a bad date without a stack trace', async () => {
    const ws = join(dir, 'thesis');
    const draft = join(dir, 'draft.md');
    writeFileSync(draft, 'Volunteers fixed 1,150 household items in the first year {#orchard-lane-2020}. Essays stay short {#rubric}.\n');
    const io = captureIo(dir);
    expect(await run(['workspace', 'verify-citations', draft, '--workspace', ws, '--json'], io)).toBe(1);
    const result = JSON.parse(io.out);
    expect(result.checks.map((c: { doc_uid: string; status: string }) => `${c.doc_uid}:${c.status}`)).toEqual(['orchard-lane-2020:OK', 'rubric:NOT_CITABLE']);
    const bad = captureIo(dir);
    expect(await run(['workspace', 'meta', 'set', '--doc-uid', 'orchard-lane-2020', '--accessed-at', '2024-02-30', '--workspace', ws], bad)).toBe(2);
    expect(bad.err).toContain('calendar date');
    expect(bad.err).not.toMatch(/\n\s+at /);
  });
});
