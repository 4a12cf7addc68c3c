import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { chromium } from 'playwright-core';

import { sampleRun } from '../__fixtures__/sample-run.js';
import type { EvaluationResult } from '../runner/run-evaluation.js';
import { CHROMIUM_HEADLESS_ARGS, findChromiumExecutable } from '../testing/find-chromium.js';
import { COMPARISON_FILES, mergeComparisonRuns, renderComparisonHtml, renderComparisonMarkdown, writeComparisonReports } from './comparison-report.js';
import type { ComparisonReport } from './comparison-report.js';
import { formatSummaryTable } from './summary-table.js';

let dir: string;
let result: EvaluationResult;
let report: ComparisonReport;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'doctree-eval-comparison-'));
  result = await sampleRun(join(dir, 'run'));
  // The same run under two configuration names: two columns of the comparison that must stay apart.
  report = {
    title: 'Experiment <b>dev</b>',
    command: 'doctree-eval-runner examples/experiments/dev.json',
    generatedAt: '2024-01-02T03:04:05.000Z',
    notes: ['hashing: feature hashing d512; sif: SIF word vectors.'],
    runs: [
      { dataset: 'fixture', config: 'hashing', metrics: result.metrics, reportDir: 'fixture/hashing' },
      { dataset: 'fixture', config: 'sif', metrics: result.metrics, reportDir: 'fixture/sif' },
    ],
  };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('formatSummaryTable', () => {
  it('prints one aligned line per system with recall@k, MRR, accuracy and latency, ablations indented', () => {
    const text = formatSummaryTable(result.metrics);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('fixture: 4 questions, 3 systems');
    expect(lines[1]).toMatch(/^System\s+R@1\s+R@3\s+R@5\s+R@10\s+MRR\s+Accuracy\s+F1\s+p50\s+p95\s+Build\s+Errors$/);
    expect(lines).toHaveLength(6);
    // doctree: recall@1 = (1 + 0.5 + 0) / 3 = 50 %, MRR 0.833 (hand-computed in report.spec.ts).
    expect(lines[3]).toMatch(/^DocTree\s+50\.0%\s+100\.0%\s+100\.0%\s+100\.0%\s+0\.833\s/);
    expect(lines[4]).toMatch(/^ {2}DocTree − REPLAN\s/);
    expect(new Set(lines.slice(1).map((l) => l.length)).size).toBeLessThanOrEqual(2);
  });
});

describe('comparison report', () => {
  it('merges the runs of a dataset with configuration-prefixed systems, keeping ablations under their own base', () => {
    const [merged] = mergeComparisonRuns(report);
    expect(merged!.dataset).toBe('fixture');
    expect(merged!.file.systems.map((m) => [m.system, m.label, m.ablation_of])).toEqual([
      ['hashing/doctree', 'hashing · DocTree', undefined],
      ['hashing/doctree-no-replan', 'hashing · DocTree − REPLAN', 'hashing/doctree'],
      ['hashing/rag', 'hashing · RAG hybrid (dense + BM25 chunks, reciprocal rank fusion)', undefined],
      ['sif/doctree', 'sif · DocTree', undefined],
      ['sif/doctree-no-replan', 'sif · DocTree − REPLAN', 'sif/doctree'],
      ['sif/rag', 'sif · RAG hybrid (dense + BM25 chunks, reciprocal rank fusion)', undefined],
    ]);
    const single = mergeComparisonRuns({ ...report, runs: report.runs.slice(0, 1) });
    expect(single[0]!.file.systems.map((m) => m.system)).toEqual(['doctree', 'doctree-no-replan', 'rag']);
  });

  it('shows the command, an overview row per configuration and system, and the run tables side by side (Markdown)', () => {
    const md = renderComparisonMarkdown(report);
    expect(md).toContain('# Experiment <b>dev</b>');
    expect(md).toContain('```sh\ndoctree-eval-runner examples/experiments/dev.json\n```');
    expect(md).toContain('| Dataset | Configuration | System | Questions | Recall@1 | Recall@3 | Recall@5 | Recall@10 | MRR | Accuracy | F1 | Latency p50 | Latency p95 | Index build | Run |');
    expect(md).toMatch(/\| fixture \| hashing \| DocTree \| 4 \| 50\.0% \| 100\.0% \| 100\.0% \| 100\.0% \| 0\.833 \|/);
    expect(md).toMatch(/\| fixture \| sif \| DocTree − REPLAN \(ablates doctree\) \|/);
    expect(md).toContain('| fixture/sif |');
    expect(md).toMatch(/## fixture\n\n### Evidence-page retrieval\n/);
    expect(md).toMatch(/### Ablations\n\n\| System \| Ablates \|[^\n]*\n[^\n]*\n\| hashing · DocTree \| \(full system\) \|/);
    expect(md).toMatch(/\| sif · DocTree − REPLAN \| sif · DocTree \|/);
  });

  it('writes comparison.json, .md and a self-contained .html atomically', async () => {
    const out = join(dir, 'comparison');
    const files = await writeComparisonReports(report, out);
    expect(files.html).toBe(join(out, COMPARISON_FILES.html));
    const json = JSON.parse(await readFile(files.json, 'utf8'));
    expect(json).toMatchObject({ format: 'doctree.eval-comparison', version: 1, command: report.command, runs: [{ dataset: 'fixture', config: 'hashing', report_dir: 'fixture/hashing' }, { config: 'sif' }] });
    expect(json.runs[0].metrics.systems).toHaveLength(3);
    expect(await readFile(files.markdown, 'utf8')).toBe(renderComparisonMarkdown(report));
    const html = await readFile(files.html, 'utf8');
    expect(html).toBe(renderComparisonHtml(report));
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain('<h1>Experiment &lt;b&gt;dev&lt;/b&gt;</h1>');
    expect(html).toContain('<pre data-command>doctree-eval-runner examples/experiments/dev.json</pre>');
  });

  const lookup = findChromiumExecutable();
  const title = 'renders one recall@k series per configuration and system in headless Chromium, offline';
  (lookup.found ? it : it.skip)(
    lookup.found ? title : `${title} — SKIPPED: ${lookup.reason}`,
    async () => {
      const out = join(dir, 'browser');
      const { html } = await writeComparisonReports(report, out);
      const browser = await chromium.launch({ executablePath: lookup.found ? lookup.path : '', args: [...CHROMIUM_HEADLESS_ARGS] });
      try {
        const page = await browser.newPage();
        const problems: string[] = [];
        const requests: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('request', (request) => requests.push(request.url()));
        const url = pathToFileURL(html).href;
        await page.goto(url, { waitUntil: 'load' });
        const series = page.locator('section[data-dataset="fixture"] svg[data-chart="recall-at-k"] g[data-series]');
        expect(await series.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-series')))).toEqual(mergeComparisonRuns(report)[0]!.file.systems.map((m) => m.system));
        const box = await series.first().locator('polyline').boundingBox();
        expect(box !== null && box.width > 0).toBe(true);
        expect(await page.locator('table[data-table="overview"] tbody tr').count()).toBe(6);
        expect(await page.locator('[data-table="d0-ablations"] tbody tr').count()).toBe(4);
        expect(problems).toEqual([]);
        expect(requests).toEqual([url]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
