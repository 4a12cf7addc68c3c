import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { extractPdfPages } from '@doctree/ingest';
import { HashingEmbedder } from '@doctree/index';
import { HARBOR_PAGES, RAIL_PAGES, tempDir, writeParagraphPdf } from './__fixtures__/workspace-fixtures.js';
import { verbatimForm } from './quotes.js';
import { EvidenceWorkspace } from './workspace.js';

jest.setTimeout(60_000);

describe('evidence workspace end to end', () => {
  let root: string;
  beforeAll(async () => {
    root = await tempDir();
    await EvidenceWorkspace.init(root);
    writeParagraphPdf(join(root, 'raw/evidence/harbor-light-review-2022.pdf'), HARBOR_PAGES, 'Harbor Light Cooperative - Annual Review');
    writeParagraphPdf(join(root, 'raw/evidence/valley-rail-2021.pdf'), RAIL_PAGES, 'Valley Rail Line - Operations Report');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('parses, chunks, embeds and answers with quotes that occur verbatim on the cited page', async () => {
    const ws = await EvidenceWorkspace.open(root, { embedder: new HashingEmbedder({ dimension: 256 }), pdfWorkers: 0 });
    const parsed = await ws.parse();
    expect(parsed.failed).toEqual([]);
    await ws.chunk();
    await ws.embed();
    await ws.buildBm25();
    const result = await ws.query('Why did membership fees rise?');
    expect(result.run.evidence.length).toBeGreaterThan(0);
    const first = result.run.evidence[0]!;
    expect(first.doc_uid).toBe('harbor-light-review-2022');
    expect(first.page).toBe(1);
    expect(first.exact_quote).toContain('Membership fees rose to 240 euros');
    const pdf = await readFile(join(root, 'raw/evidence/harbor-light-review-2022.pdf'));
    const pages = await extractPdfPages(new Uint8Array(pdf), { filename: 'harbor-light-review-2022.pdf' });
    // Verbatim as docs/workspace.md defines it: on the cited page, after NFKC, soft hyphens out and whitespace collapsed.
    for (const e of result.run.evidence.filter((x) => x.doc_uid === 'harbor-light-review-2022')) {
      const pageText = verbatimForm(pages[e.page! - 1]!.lines.map((l) => l.text).join(' '));
      expect(pageText).toContain(verbatimForm(e.exact_quote));
      expect(verbatimForm(pages[e.page === 1 ? 1 : 0]!.lines.map((l) => l.text).join(' '))).not.toContain(verbatimForm(e.exact_quote));
    }
    expect(await readdir(join(root, 'outputs'))).toContain('evidence_pack_v001.md');
  });
});
