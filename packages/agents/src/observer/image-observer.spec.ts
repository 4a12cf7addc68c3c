import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeChatClient } from '../__fixtures__/fake-chat-client.js';
import { reportIndex } from '../__fixtures__/report-tree.js';
import { ImageObserver } from './image-observer.js';
import type { ObserveWarning } from './observer-types.js';
import { PdfRegionRenderer } from './page-region-renderer.js';

const SAMPLE_PDF = join(__dirname, '..', '..', '..', '..', 'data', 'samples', 'northwind-annual-report-2023.pdf');
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
const pngSize = (png: Uint8Array): [number, number] => {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
};

describe('ImageObserver offline', () => {
  const index = reportIndex();

  it('describes a chart from its caption, the labels printed in its box and the text that refers to it', async () => {
    const observation = await new ImageObserver().observe(index.view.node('img_1')!, index);
    expect(observation).toMatchObject({ node_id: 'img_1', modality: 'chart', page: 1, bbox: [72, 200, 540, 420] });
    const p = observation.payload;
    if (p.kind !== 'image') throw new Error('expected an image payload');
    expect(p).toMatchObject({ caption: 'Figure 1: Net sales by year, bar chart (in millions)', source: 'caption', chart_type: 'bar' });
    expect(p.description).toContain('Chart (Figure 1), bar, on page 1, in "Management’s Discussion and Analysis".');
    expect(p.description).toContain('Labels and legend printed in it: 2016 2017 2018');
    expect(p.description).toContain('Net sales increased 4.2% to $28,436 million in 2018');
    expect(index.tree.text.slice(p.char_span![0], p.char_span![1])).toBe(p.caption);
  });

  it('uses OCR text stored on the node', async () => {
    const withOcr = reportIndex();
    (withOcr.view.node('img_2') as { text: string }).text = 'NORTHWIND OHIO PLANT — opened 2018';
    const p = (await new ImageObserver().observe(withOcr.view.node('img_2')!, withOcr)).payload;
    expect(p).toMatchObject({ kind: 'image', source: 'ocr' });
    if (p.kind === 'image') expect(p.description).toContain('OCR text: NORTHWIND OHIO PLANT — opened 2018');
  });
});

describe('ImageObserver with a VLM', () => {
  let docDir: string;
  beforeAll(() => {
    docDir = mkdtempSync(join(tmpdir(), 'doctree-agents-image-'));
    copyFileSync(SAMPLE_PDF, join(docDir, 'source.pdf'));
  });
  afterAll(() => rmSync(docDir, { recursive: true, force: true }));

  it('renders the figure region (box + margin) of the source PDF to PNG and puts the model’s description first', async () => {
    const index = reportIndex(docDir);
    const vlm = new FakeChatClient(['A bar chart of net sales for 2016, 2017 and 2018; the 2018 bar is the tallest.']);
    const renderer = new PdfRegionRenderer();
    const observation = await new ImageObserver({ vlm, renderer, scale: 2, marginPt: 12 }).observe(index.view.node('img_1')!, index, { question: 'Which year had the highest net sales?' });
    await renderer.close();
    const p = observation.payload;
    if (p.kind !== 'image') throw new Error('expected an image payload');
    expect(p.source).toBe('vlm');
    expect(p.description.startsWith('A bar chart of net sales')).toBe(true);
    expect(p.description).toContain('Labels and legend printed in it');
    const request = vlm.requests[0]!;
    expect(request.purpose).toBe('vlm');
    const png = request.images![0]!;
    expect([...png.subarray(0, 4)]).toEqual(PNG_SIGNATURE);
    // [72, 200, 540, 420] plus 12 pt on each side, at 2 px per point.
    expect(pngSize(png)).toEqual([(540 - 72 + 24) * 2, (420 - 200 + 24) * 2]);
    expect(request.messages[1]!.content).toContain('<<<CONTEXT');
    expect(request.messages[1]!.content).toContain('Which year had the highest net sales?');
  });

  it('falls back to the offline description, with a warning, when the PDF is missing or the model fails', async () => {
    const warnings: ObserveWarning[] = [];
    const vlm = new FakeChatClient(['never used']);
    const missing = reportIndex(join(docDir, 'no-such-folder'));
    const offline = await new ImageObserver({ vlm }).observe(missing.view.node('img_1')!, missing, { onWarning: (w) => warnings.push(w) });
    expect(offline.payload).toMatchObject({ kind: 'image', source: 'caption' });
    expect(vlm.requests).toHaveLength(0);
    expect(warnings[0]).toMatchObject({ code: 'vlm_unavailable', nodeId: 'img_1' });

    const failing = new FakeChatClient([new Error('503 Service Unavailable')]);
    const index = reportIndex(docDir);
    const failed = await new ImageObserver({ vlm: failing }).observe(index.view.node('img_1')!, index, { onWarning: (w) => warnings.push(w) });
    expect(failed.payload).toMatchObject({ kind: 'image', source: 'caption' });
    expect(warnings[1]).toMatchObject({ code: 'vlm_failed', nodeId: 'img_1' });
  });
});
