import { deflateSync } from 'node:zlib';
import { adaptPdf } from './pdf-adapter.js';
import { scanPdfStreams } from './pdf-stream-guard.js';
import { writePdfWithStreams, writeSimplePdf } from './simple-pdf-writer.js';

const pdfWithStreams = (streams: Array<{ dict: string; data: Buffer }>, content?: string): Uint8Array => new Uint8Array(writePdfWithStreams(streams, content));

const MiB = 1024 ** 2;
const bomb = (bytes: number): Buffer => deflateSync(Buffer.alloc(bytes), { level: 9 });

describe('scanPdfStreams', () => {
  it('inflates Flate streams of an ordinary PDF and finds nothing to refuse', async () => {
    const scan = await scanPdfStreams(writeSimplePdf([{ runs: [{ text: 'Plain page', x: 72, y: 90 }], images: [{ x: 72, y: 200, width: 50, height: 50 }] }]), { filename: 'plain.pdf' });
    expect(scan.largeImages).toEqual([]);
    expect(scan.decodedBytes).toBeLessThan(MiB);
  });

  it('refuses a stream that decodes past maxStreamBytes with one INPUT_UNSUPPORTED line naming the setting', async () => {
    const bytes = pdfWithStreams([{ dict: '/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Filter /FlateDecode', data: bomb(40 * MiB) }]);
    expect(bytes.length).toBeLessThan(64 * 1024);
    // Past 8 MiB a stream is counted chunk by chunk (16 MiB cap), below it at once (4 MiB cap): both refuse.
    await expect(scanPdfStreams(bytes, { filename: 'bomb.pdf', maxStreamBytes: 16 * MiB })).rejects.toMatchObject({ code: 'INPUT_UNSUPPORTED' });
    let caught: unknown;
    try {
      await scanPdfStreams(bytes, { filename: 'bomb.pdf', maxStreamBytes: 4 * MiB });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'INPUT_UNSUPPORTED', file: 'bomb.pdf' });
    expect((caught as Error).message).toMatch(/decompression bomb/);
    expect((caught as { hint: string }).hint).toMatch(/ingest\.limits\.max_stream_bytes/);
  });

  it('refuses streams that together decode past maxDecodedRatio × the file size', async () => {
    const streams = Array.from({ length: 3 }, () => ({ dict: '/Filter [/FlateDecode]', data: bomb(2 * MiB) }));
    const bytes = pdfWithStreams(streams);
    const scan = await scanPdfStreams(bytes, { filename: 'many.pdf', maxStreamBytes: 4 * MiB });
    expect(scan.decodedBytes).toBe(6 * MiB);
    await expect(scanPdfStreams(bytes, { filename: 'many.pdf', maxStreamBytes: 4 * MiB, maxDecodedRatio: 10, decodedBytesAllowance: MiB })).rejects.toMatchObject({
      code: 'INPUT_UNSUPPORTED',
      hint: expect.stringMatching(/max_decoded_ratio/),
    });
    // A large stream under the cap is counted exactly, chunk by chunk.
    const large = await scanPdfStreams(pdfWithStreams([{ dict: '/Filter /FlateDecode', data: bomb(20 * MiB) }]), { filename: 'large.pdf' });
    expect(large.decodedBytes).toBe(20 * MiB);
  });

  it('counts images beyond the pixel cap by their dictionary, without decoding them', async () => {
    const image = { dict: '/Type /XObject /Subtype /Image /Width 20000 /Height 20000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', data: deflateSync(Buffer.alloc(1000)) };
    expect((await scanPdfStreams(pdfWithStreams([image]), { filename: 'huge.pdf' })).largeImages).toEqual([{ width: 20000, height: 20000 }]);
  });
});

describe('adaptPdf resource limits', () => {
  it('refuses a Flate bomb before pdf.js expands it, in bounded time', async () => {
    const bytes = pdfWithStreams([{ dict: '/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Filter /FlateDecode', data: bomb(16 * MiB) }]);
    const started = performance.now();
    await expect(adaptPdf(bytes, { docId: 'bomb', filename: 'bomb.pdf', maxStreamBytes: 8 * MiB, ocr: false })).rejects.toMatchObject({ code: 'INPUT_UNSUPPORTED', file: 'bomb.pdf' });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses a PDF with more pages than maxPages right after opening it, before any page is read', async () => {
    const bytes = writeSimplePdf(Array.from({ length: 12 }, () => ({ runs: [{ text: 'Page', x: 72, y: 90 }] })));
    const pages: number[] = [];
    await expect(adaptPdf(bytes, { docId: 'long', filename: 'long.pdf', maxPages: 10, onPage: (done) => pages.push(done) })).rejects.toMatchObject({
      code: 'SCHEMA_INVALID',
      file: 'long.pdf',
      message: 'the document has 12 pages, more than the maximum page count 10',
      hint: expect.stringMatching(/ingest\.limits\.max_pages/),
    });
    expect(pages).toEqual([]);
  });

  it('skips a page image beyond maxImagePixels with one IMAGE_TOO_LARGE warning and still reads the text', async () => {
    const side = 3000;
    const image = { dict: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, data: bomb(side * side) };
    const bytes = pdfWithStreams([image], 'BT /F1 12 Tf 72 720 Td (Hello image) Tj ET q 100 0 0 100 72 400 cm /X6 Do Q');
    const list = await adaptPdf(bytes, { docId: 'huge', filename: 'huge.pdf', maxImagePixels: 1_000_000, ocr: false });
    expect(list.warnings.filter((w) => w.code === 'IMAGE_TOO_LARGE')).toEqual([{ code: 'IMAGE_TOO_LARGE', message: expect.stringMatching(/1 image\(s\) exceed 1000000 pixels \(largest 3000×3000\)/) }]);
    expect(JSON.stringify(list.blocks)).toMatch(/Hello image/);
  });
});
