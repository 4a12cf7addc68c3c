import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

import { sampleRun } from '../__fixtures__/sample-run.js';
import type { EvaluationResult } from '../runner/run-evaluation.js';
import { CHROMIUM_HEADLESS_ARGS, findChromiumExecutable } from '../testing/find-chromium.js';

const lookup = findChromiumExecutable();
const title = 'renders the recall@k curves, the accuracy bars and the tables in headless Chromium, offline and without errors';
// Without a browser the check is registered as skipped, with the reason in its name (npm run setup installs Debian chromium as root).
const browserIt = lookup.found ? it : it.skip;
const name = lookup.found ? title : `${title} — SKIPPED: ${lookup.reason}`;
if (!lookup.found) process.stderr.write(`\n[eval] skipping the HTML report browser check: ${lookup.reason}\n`);

describe('HTML report in a browser', () => {
  let dir: string;
  let result: EvaluationResult;
  let browser: Browser | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-eval-browser-'));
    result = await sampleRun(dir);
    if (lookup.found) browser = await chromium.launch({ executablePath: lookup.path, args: [...CHROMIUM_HEADLESS_ARGS] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  browserIt(
    name,
    async () => {
      const page = await browser!.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('request', (request) => requests.push(request.url()));
      const url = pathToFileURL(join(dir, 'report.html')).href;
      await page.goto(url, { waitUntil: 'load' });

      const systems = result.metrics.systems.map((m) => m.system);
      const ks = result.metrics.ks;
      const sources = Object.keys(result.metrics.systems[0]!.by_source);

      // Recall@k: one series per system, each with a visible line and one visible point per k.
      const series = page.locator('svg[data-chart="recall-at-k"] g[data-series]');
      expect(await series.count()).toBe(systems.length);
      expect(await series.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-series')))).toEqual(systems);
      for (let i = 0; i < systems.length; i++) {
        const line = await series.nth(i).locator('polyline').boundingBox();
        expect(line !== null && line.width > 0).toBe(true);
        const points = series.nth(i).locator('circle[data-point]');
        expect(await points.count()).toBe(ks.length);
        for (let j = 0; j < ks.length; j++) {
          const box = await points.nth(j).boundingBox();
          expect(box !== null && box.width > 0 && box.height > 0).toBe(true);
        }
      }

      // Accuracy by evidence source: one visible bar per system and source, taller for higher accuracy.
      const groups = page.locator('svg[data-chart="accuracy-by-source"] g[data-group]');
      expect(await groups.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-group')))).toEqual(sources);
      const bars = page.locator('svg[data-chart="accuracy-by-source"] rect[data-bar]');
      expect(await bars.count()).toBe(systems.length * sources.length);
      const heights: Array<{ value: number; height: number }> = [];
      for (let i = 0; i < (await bars.count()); i++) {
        const box = await bars.nth(i).boundingBox();
        expect(box !== null && box.width > 0 && box.height > 0).toBe(true);
        heights.push({ value: Number(await bars.nth(i).getAttribute('data-value')), height: box!.height });
      }
      const full = heights.find((h) => h.value === 1)!;
      const zero = heights.find((h) => h.value === 0)!;
      expect(full.height).toBeGreaterThan(zero.height * 50);

      // Legends show every system's full label inside their chart (long labels widen the chart, never clip).
      for (const chart of ['recall-at-k', 'accuracy-by-source']) {
        const clipped = await page.locator(`svg[data-chart="${chart}"]`).evaluate((svg) => {
          const width = (svg as unknown as { viewBox: { baseVal: { width: number } } }).viewBox.baseVal.width;
          return [...svg.querySelectorAll('g[data-legend] text')]
            .filter((text) => {
              const box = (text as unknown as { getBBox(): { x: number; width: number } }).getBBox();
              return box.x + box.width > width;
            })
            .map((text) => text.textContent);
        });
        expect({ chart, clipped }).toEqual({ chart, clipped: [] });
      }

      // Tables: per-question rows, and the injected markup shown as text, not run.
      expect(await page.locator('table[data-table="questions"] tbody tr').count()).toBe(4);
      expect(await page.locator('table[data-table="retrieval"] tbody tr').count()).toBe(systems.length);
      expect(await page.getByText('<script>alert("x")</script>').count()).toBe(1);

      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      await page.close();
    },
    60_000,
  );
});
