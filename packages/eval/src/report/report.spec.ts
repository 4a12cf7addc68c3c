import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sampleRun } from '../__fixtures__/sample-run.js';
import type { EvaluationResult } from '../runner/run-evaluation.js';
import { renderHtmlReport } from './html-report.js';
import { renderMarkdownReport } from './markdown-report.js';
import { accuracyBySourceSvg, recallChartSvg, reliabilityDiagramSvg } from './svg-charts.js';
import { writeReports } from './write-reports.js';

let dir: string;
let result: EvaluationResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'doctree-eval-report-'));
  result = await sampleRun(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Markdown report', () => {
  it('shows every system side by side with recall@k, MRR, accuracy, F1, latency and tokens', async () => {
    const md = await readFile(join(dir, 'report.md'), 'utf8');
    expect(md).toBe(renderMarkdownReport(result.metrics, result.predictions as never));
    expect(md).toContain('# Evaluation: fixture');
    expect(md).toContain('| System | Questions with gold pages | Recall@1 | Recall@3 | Recall@5 | Recall@10 | Hit@1 | Hit@3 | Hit@5 | Hit@10 | MRR |');
    // doctree: recall@1 = (1 + 0.5 + 0) / 3; MRR = (1 + 1 + 1/2) / 3
    expect(md).toContain('| DocTree | 3 | 50.0% | 100.0% | 100.0% | 100.0% | 66.7% | 100.0% | 100.0% | 100.0% | 0.833 |');
    expect(md).toMatch(/## Accuracy by evidence source\n\n\| Evidence source \| Questions \| DocTree \| DocTree − REPLAN \| RAG hybrid \(dense \+ BM25 chunks, reciprocal rank fusion\) \|/);
    expect(md).toMatch(/\| financial-statement \| 1 \| 100\.0% \| 100\.0% \| 100\.0% \|/);
    expect(md).toMatch(/## Accuracy by answer format/);
    expect(md).toMatch(/## Latency and cost\n/);
    // Whether confidence means the chance of being right, and how often each system declined.
    expect(md).toMatch(/## Confidence and abstention\n\n\| System \| ECE \| AUROC \(right vs wrong\) \| Brier \| Unanswerable declined \| Answerable declined \|/);
    expect(md).toMatch(/## Reliability diagram\n/);
  });

  it('says how many LLM calls failed and how many questions were answered offline instead, when the run used an LLM', () => {
    const first = result.metrics.systems[0]!;
    const failing = { ...result.metrics, systems: [{ ...first, llm_failures: { calls: 12, failed_calls: 12, questions_fallen_back: 3, questions: 3, codes: { LLM_UNAVAILABLE: 12 } } }, ...result.metrics.systems.slice(1)] };
    const md = renderMarkdownReport(failing);
    expect(md).toMatch(/\| System \| Questions \| Accuracy \| F1 \| Errors \| Failed LLM calls \| Questions answered offline \|/);
    expect(md).toMatch(/\| 12 of 12 \| 3 of 3 \|/);
    expect(renderMarkdownReport(result.metrics)).not.toMatch(/Failed LLM calls/);
  });

  it('groups ablations under their base with deltas', async () => {
    const md = await readFile(join(dir, 'report.md'), 'utf8');
    expect(md).toMatch(/## Ablations\n\n\| System \| Ablates \| Recall@5 \| Δ Recall@5 \|/);
    expect(md).toMatch(/\| DocTree \| \(full system\) \| 100\.0% \|/);
    expect(md).toMatch(/\| DocTree − REPLAN \| DocTree \| 83\.3% \| −16\.7 pp \|/);
    expect(md).not.toContain('LLM judge'); // no judge in this run
  });
});

describe('HTML report', () => {
  it('is self-contained: inline CSS and SVG, no scripts, no external resources, escaped answers', async () => {
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).toBe(renderHtmlReport(result.metrics, result.predictions as never));
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script|<link|<img|\bsrc=|href="http/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html.match(/<tr data-question=/g)).toHaveLength(4);
  });

  it('draws one recall series per system and one bar per system and evidence source', () => {
    const recall = recallChartSvg(result.metrics);
    expect(recall.match(/<g data-series=/g)).toHaveLength(3);
    expect(recall.match(/<circle data-point/g)).toHaveLength(3 * 4);
    const bars = accuracyBySourceSvg(result.metrics);
    const groups = Object.keys(result.metrics.systems[0]!.by_source);
    expect(groups).toEqual(['text', 'table', 'chart', 'financial-statement', 'unanswerable']);
    expect(bars.match(/<rect data-bar/g)).toHaveLength(3 * groups.length);
    expect(bars).toContain('data-system="rag" data-value="0.0000"'); // a zero bar is still drawn (as a hairline)
  });

  it('draws a reliability diagram: the diagonal and, per system, one point per non-empty confidence bin', () => {
    const svg = reliabilityDiagramSvg(result.metrics);
    expect(svg).toContain('<line data-diagonal');
    expect(svg.match(/<g data-series=/g)).toHaveLength(3);
    const nonEmpty = result.metrics.systems.reduce((a, m) => a + m.calibration!.bins.filter((b) => b.n > 0).length, 0);
    expect(svg.match(/<circle data-bin/g)).toHaveLength(nonEmpty);
    expect(nonEmpty).toBeGreaterThan(0);
    expect(renderHtmlReport(result.metrics, result.predictions as never)).toContain('data-chart="reliability"');
  });

  it('writeReports rewrites both files from metrics and predictions', async () => {
    const other = await mkdtemp(join(tmpdir(), 'doctree-eval-report-'));
    try {
      const written = await writeReports(result.metrics, result.predictions, other);
      expect(await readFile(written.html, 'utf8')).toBe(await readFile(join(dir, 'report.html'), 'utf8'));
      await expect(writeReports(result.metrics, [{ ...result.predictions[0]!, score: undefined }], other)).rejects.toMatchObject({ code: 'SCHEMA_INVALID' });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
