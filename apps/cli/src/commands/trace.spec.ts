/// <reference lib="dom" />
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_HEADLESS_ARGS, findChromiumExecutable } from '@doctree/eval/testing';
import { writeSimplePdf } from '@doctree/ingest';
import { TraceSchema } from '@doctree/schema';
import { chromium, type Browser } from 'playwright-core';
import { captureIo as capture } from '../__fixtures__/capture-io.js';
import { run } from '../main.js';

const HASHING = { DOCTREE_EMBEDDER: 'hashing' };
/** Document text that tries to close the viewer's style and script elements: it must stay text. */
const HOSTILE = 'Reviewer note </style></script><script>window.__pwned = 1</script> end';
const QUESTION = 'How many stores did Harbor Lane Outfitters operate at year end 2023?';

/** A generated two-page report: the answer on page 1, a hostile line, and filler on page 2. */
function writeFixturePdf(path: string): void {
  const bytes = writeSimplePdf(
    [
      {
        runs: [
          { text: 'Harbor Lane Outfitters Annual Report 2023', x: 72, y: 80, size: 18, bold: true },
          { text: 'Store network', x: 72, y: 130, size: 14, bold: true },
          { text: 'At year end 2023 Harbor Lane Outfitters operated 318 stores in four countries.', x: 72, y: 160, size: 11 },
          { text: 'The company opened 21 stores and closed 6 stores during the year.', x: 72, y: 178, size: 11 },
          { text: HOSTILE, x: 72, y: 230, size: 11 },
        ],
      },
      {
        runs: [
          { text: 'Outlook', x: 72, y: 80, size: 14, bold: true },
          { text: 'Management expects to open about 15 new stores in 2024 in existing markets.', x: 72, y: 110, size: 11 },
        ],
      },
    ],
    { title: 'Harbor Lane Outfitters Annual Report 2023' },
  );
  writeFileSync(path, bytes);
}

const lookup = findChromiumExecutable();
const browserTitle = 'the viewer of a real ask renders in headless Chromium: page image loaded, highlight over it, no console error, no network';
const browserIt = lookup.found ? it : it.skip;
if (!lookup.found) process.stderr.write(`\n[cli] skipping the trace viewer browser check: ${lookup.reason}\n`);

describe('doctree trace', () => {
  // End-to-end runs of the agent and page rendering: a safety bound for a loaded machine, not a speed test.
  jest.setTimeout(120_000);
  let dir: string;
  let browser: Browser | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-trace-'));
    writeFixturePdf(join(dir, 'harbor.pdf'));
    const io = capture(dir, HASHING);
    expect(await run(['ask', 'harbor.pdf', QUESTION, '--trace', 'trace.json'], io)).toBe(0);
    if (lookup.found) browser = await chromium.launch({ executablePath: lookup.path, args: [...CHROMIUM_HEADLESS_ARGS] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the trace file carries the final answer and the text of the first hits, and stays small', () => {
    const text = readFileSync(join(dir, 'trace.json'), 'utf8');
    const trace = TraceSchema.parse(JSON.parse(text));
    expect(trace.answer).toMatchObject({ answer: 318, pages: [1] });
    expect(trace.answer!.support[0]!.bbox).not.toBeNull();
    const calls = trace.events.filter((e) => e.type === 'tool_call' && (e.hits?.length ?? 0) > 0);
    expect(calls.some((e) => e.hits!.some((h) => h.snippet?.includes('318 stores')))).toBe(true);
    for (const e of trace.events) expect((e.hits ?? []).slice(8).every((h) => h.snippet === undefined)).toBe(true);
    expect(text.length).toBeLessThan(200_000);
  });

  it('prints the whole path: answer, route, plan, tool calls with arguments and hit text, evidence, reader, judger, replans', async () => {
    const io = capture(dir, HASHING);
    expect(await run(['trace', 'trace.json'], io)).toBe(0);
    const out = io.out;
    expect(out).toContain(`Question: ${QUESTION}`);
    expect(out).toMatch(/^Answer: 318 {2}\(Int\)/m);
    expect(out).toMatch(/^Confidence: 0\.\d\d \(probability the answer is right\) · pages 1$/m);
    expect(out).toMatch(/^ {2}support \S+ p\.1 \([\d.]+\) ".*318 stores/m);
    expect(out).toMatch(/^Route: \w+ \(rules, confidence [\d.]+\)/m);
    expect(out).toMatch(/^Plan: \w+ \(templates\)\n {2}stage 1\. \w+/m);
    expect(out).toMatch(/^1\. \S+\.search ok \d+ hits [\d.]+ ms \{"query":/m);
    expect(out).toMatch(/^ {3}→ \S+ p\.1 \([\d.]+\) ".*318 stores/m);
    expect(out).toMatch(/^Evidence: \d+ item\(s\), \d+ of \d+ tokens, coverage [\d.]+/m);
    expect(out).toMatch(/^Reader:\n {2}\S+: 318/m);
    expect(out).toMatch(/^Judger:\n/m);
    expect(out).toMatch(/^Replans: none$/m);
    expect(io.err).toBe('');
  });

  it('--html without --doc finds the document doctree ask prepared; --doc must name the trace\'s document', async () => {
    const io = capture(dir, HASHING);
    expect(await run(['trace', 'trace.json', '--html', 'auto.html'], io)).toBe(0);
    expect(io.err).toMatch(/^doctree: wrote .*auto\.html \(pages 1\b.* rendered/);
    expect(readFileSync(join(dir, 'auto.html'), 'utf8')).toContain('data:image/png;base64,');
    const bad = capture(dir, HASHING);
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8')), doc_id: 'another-document' }));
    expect(await run(['trace', 'other.json', '--html', 'other.html', '--doc', join(dir, 'data', 'default', 'harbor')], bad)).toBe(2);
    expect(bad.err).toMatch(/USAGE.*the trace is about document "another-document"/);
    expect(existsSync(join(dir, 'other.html'))).toBe(false);
    const noHtml = capture(dir, HASHING);
    expect(await run(['trace', 'trace.json', '--doc', 'harbor.pdf'], noHtml)).toBe(2);
    expect(noHtml.err).toMatch(/--doc goes with --html/);
  });

  it('doctree eval links every question of its reports to a viewer page next to its trace, with the evidence pages drawn', async () => {
    const samples = join(__dirname, '../../../../data/samples');
    mkdirSync(join(dir, 'set'), { recursive: true });
    copyFileSync(join(samples, 'northwind-annual-report-2023.pdf'), join(dir, 'set', 'northwind-annual-report-2023.pdf'));
    copyFileSync(join(samples, 'northwind-questions.jsonl'), join(dir, 'set', 'questions.jsonl'));
    const io = capture(dir, HASHING);
    expect(await run(['eval', '--questions', 'set/questions.jsonl', '--systems', 'doctree,bm25-pages', '--out', 'run', '--limit', '2'], io)).toBe(0);
    const predictions = readFileSync(join(dir, 'run', 'predictions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; system: string; trace_path?: string });
    expect(predictions).toHaveLength(4);
    const report = readFileSync(join(dir, 'run', 'report.html'), 'utf8');
    const markdown = readFileSync(join(dir, 'run', 'report.md'), 'utf8');
    for (const p of predictions) {
      const viewer = p.trace_path!.replace(/\.json$/, '.html');
      expect(report).toContain(`href="${viewer}"`);
      expect(markdown).toContain(`](${viewer})`);
      const html = readFileSync(join(dir, 'run', viewer), 'utf8');
      expect(html).toContain('<h2>Path');
      if (p.system === 'doctree') {
        expect(html).toContain('data:image/png;base64,');
        expect(html).toMatch(/class="box support"/);
      }
    }
  });

  browserIt(lookup.found ? browserTitle : `${browserTitle} — SKIPPED: ${lookup.reason}`, async () => {
    const io = capture(dir, HASHING);
    expect(await run(['trace', 'trace.json', '--html', 'viewer.html', '--doc', 'harbor.pdf'], io)).toBe(0);
    const html = readFileSync(join(dir, 'viewer.html'), 'utf8');
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).toContain('&lt;/style&gt;&lt;/script&gt;&lt;script&gt;window.__pwned'); // the hostile line is shown, as text
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    const url = pathToFileURL(join(dir, 'viewer.html')).href;
    await page.goto(url, { waitUntil: 'load' });
    // The page image loaded.
    const img = page.locator('#page-1 img');
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    // The supporting box is drawn inside the page image, with a real size.
    const imgBox = (await img.boundingBox())!;
    const support = page.locator('#page-1 .box.support').first();
    const box = (await support.boundingBox())!;
    expect(box.width).toBeGreaterThan(5);
    expect(box.height).toBeGreaterThan(3);
    expect(box.x).toBeGreaterThanOrEqual(imgBox.x - 1);
    expect(box.y).toBeGreaterThanOrEqual(imgBox.y - 1);
    expect(box.x + box.width).toBeLessThanOrEqual(imgBox.x + imgBox.width + 1);
    expect(box.y + box.height).toBeLessThanOrEqual(imgBox.y + imgBox.height + 1);
    // The box sits in the upper part of the page, where the answer line is (y 160 of 792 points).
    expect((box.y - imgBox.y) / imgBox.height).toBeLessThan(0.4);
    // The hostile line stayed text, and no script of it ran.
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // Plan steps, tool calls with hits, the evidence with its snippet.
    expect(await page.locator('ol.plan li').count()).toBeGreaterThan(0);
    expect(await page.locator('li.step.call').count()).toBeGreaterThan(0);
    expect(await page.locator('#evidence ol.evidence li').count()).toBeGreaterThan(0);
    // A non-blank screenshot: the pixels vary (text, the page image, the highlight).
    const shot = await page.screenshot({ fullPage: false });
    expect(await pixelSpread(browser!, shot)).toBeGreaterThan(10);
    expect(problems).toEqual([]);
    expect(requests.filter((r) => !r.startsWith('file:') && !r.startsWith('data:'))).toEqual([]);
    await page.close();
  });
});

/** Standard deviation of the gray levels of a screenshot, decoded by the browser itself: about 0 for a blank image. */
async function pixelSpread(browser: Browser, png: Buffer): Promise<number> {
  const page = await browser.newPage();
  try {
    await page.setContent('<canvas id="c"></canvas>');
    return await page.evaluate(async (src: string) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.getElementById('c') as HTMLCanvasElement;
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let sum = 0;
      let squares = 0;
      const n = data.length / 4;
      for (let i = 0; i < data.length; i += 4) {
        const gray = (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
        sum += gray;
        squares += gray * gray;
      }
      const mean = sum / n;
      return Math.sqrt(Math.max(0, squares / n - mean * mean));
    }, `data:image/png;base64,${png.toString('base64')}`);
  } finally {
    await page.close();
  }
}
