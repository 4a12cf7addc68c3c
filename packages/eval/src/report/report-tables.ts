import type { MetricGroup, MetricsFile } from '@doctree/schema';

import { ablationGroups, breakdownGroup, count, delta, groupKeys, headlineK, milliseconds, percent, systemLabel } from './report-format.js';

/** A table of a report, rendered as Markdown or HTML. */
export interface ReportTable {
  id: string;
  title: string;
  headers: string[];
  rows: string[][];
  /** A sentence under the table. */
  note?: string;
}

function retrieval(group: MetricGroup | undefined, k: number): string {
  return group && (group.n_retrieval ?? group.n) > 0 && group.recall_at[String(k)] !== undefined ? percent(group.recall_at[String(k)]) : '–';
}

/** The tables every report shows, in order. */
export function reportTables(file: MetricsFile): ReportTable[] {
  const k = headlineK(file);
  const tables: ReportTable[] = [];
  tables.push({
    id: 'retrieval',
    title: 'Evidence-page retrieval',
    headers: ['System', 'Questions with gold pages', ...file.ks.map((x) => `Recall@${x}`), ...file.ks.map((x) => `Hit@${x}`), 'MRR'],
    rows: file.systems.map((m) => [
      systemLabel(m),
      count(m.overall.n_retrieval ?? m.overall.n),
      ...file.ks.map((x) => retrieval(m.overall, x)),
      ...file.ks.map((x) => ((m.overall.n_retrieval ?? m.overall.n) > 0 ? percent(m.overall.hit_at[String(x)]) : '–')),
      (m.overall.n_retrieval ?? m.overall.n) > 0 ? m.overall.mrr.toFixed(3) : '–',
    ]),
    note: 'Recall@k: share of a question’s gold evidence pages among the first k distinct pages the system ranked, averaged over questions that have gold pages. Hit@k: at least one gold page in the first k. MRR: mean of 1/rank of the first gold page.',
  });
  const judged = file.systems.some((m) => m.overall.llm_judged_accuracy !== undefined);
  const llmRun = file.systems.some((m) => m.llm_failures !== undefined && m.llm_failures.calls > 0);
  tables.push({
    id: 'answers',
    title: 'Answers',
    headers: ['System', 'Questions', 'Accuracy', 'F1', ...(judged ? ['LLM-judged accuracy', 'Judge fallbacks'] : []), 'Errors', ...(llmRun ? ['Failed LLM calls', 'Questions answered offline'] : [])],
    rows: file.systems.map((m) => [
      systemLabel(m),
      count(m.overall.n),
      percent(m.overall.accuracy),
      percent(m.overall.f1),
      ...(judged ? [percent(m.overall.llm_judged_accuracy), count(m.judge?.fallbacks)] : []),
      count(m.errors ?? 0),
      ...(llmRun ? [m.llm_failures ? `${m.llm_failures.failed_calls} of ${m.llm_failures.calls}` : '–', m.llm_failures ? `${m.llm_failures.questions_fallen_back} of ${m.llm_failures.questions}` : '–'] : []),
    ]),
    note: 'Accuracy and F1 follow MMLongBench-Doc’s rules per answer format (Int exact, Float within 1 %, Str by ANLS ≥ 0.5, List item by item, None for unanswerable); open (FinanceBench) answers are matched on their numbers with units and scale.',
  });
  tables.push({
    id: 'cost',
    title: 'Latency and cost',
    headers: ['System', 'Latency p50', 'Latency p95', 'LLM calls / question', 'Tokens / question', 'Index build (documents)'],
    rows: file.systems.map((m) => [
      systemLabel(m),
      milliseconds(m.latency_ms.p50),
      milliseconds(m.latency_ms.p95),
      count(m.llm.calls_per_question),
      count(m.llm.tokens_per_question),
      m.index_build_ms === undefined ? '–' : `${milliseconds(m.index_build_ms)} (${m.index_build_docs ?? '?'})`,
    ]),
  });
  for (const [breakdown, title] of [
    ['by_source', 'evidence source'],
    ['by_format', 'answer format'],
  ] as const) {
    const keys = groupKeys(file, breakdown);
    tables.push({
      id: `accuracy-${breakdown}`,
      title: `Accuracy by ${title}`,
      headers: [title[0]!.toUpperCase() + title.slice(1), 'Questions', ...file.systems.map(systemLabel)],
      rows: keys.map((key) => [key, count(Math.max(...file.systems.map((m) => breakdownGroup(m, breakdown, key)?.n ?? 0))), ...file.systems.map((m) => percent(breakdownGroup(m, breakdown, key)?.accuracy))]),
      ...(breakdown === 'by_source' ? { note: 'A question with several evidence sources counts in each (as in MMLongBench-Doc). FinanceBench questions have no source annotation and are grouped as financial-statement.' } : {}),
    });
    tables.push({
      id: `recall-${breakdown}`,
      title: `Recall@${k} by ${title}`,
      headers: [title[0]!.toUpperCase() + title.slice(1), ...file.systems.map(systemLabel)],
      rows: keys.filter((key) => file.systems.some((m) => (breakdownGroup(m, breakdown, key)?.n_retrieval ?? 0) > 0)).map((key) => [key, ...file.systems.map((m) => retrieval(breakdownGroup(m, breakdown, key), k))]),
    });
  }
  const calibrated = file.systems.filter((m) => m.calibration !== undefined);
  if (calibrated.length > 0) {
    tables.push({
      id: 'calibration',
      title: 'Confidence and abstention',
      headers: ['System', 'ECE', 'AUROC (right vs wrong)', 'Brier', 'Unanswerable declined', 'Answerable declined'],
      rows: calibrated.map((m) => {
        const c = m.calibration!;
        return [systemLabel(m), c.ece.toFixed(3), c.auroc === null ? '–' : c.auroc.toFixed(3), c.brier.toFixed(3), percent(c.unanswerable_declined ?? undefined), percent(c.answerable_declined ?? undefined)];
      }),
      note: 'A prediction is right when its rule score is at least 0.5. ECE: the size-weighted gap between accuracy and mean confidence over ten equal-width confidence bins (0 = confidence means what it says). AUROC: the chance that a right output has the higher confidence. Declined: answered "Not answerable".',
    });
    const bins = calibrated[0]!.calibration!.bins;
    tables.push({
      id: 'reliability',
      title: 'Reliability diagram',
      headers: ['Confidence', ...calibrated.map(systemLabel)],
      rows: bins.map((bin, i) => [
        `${bin.lo.toFixed(1)}–${bin.hi.toFixed(1)}`,
        ...calibrated.map((m) => {
          const b = m.calibration!.bins[i];
          return b && b.n > 0 && b.accuracy !== null && b.mean_confidence !== null ? `${percent(b.accuracy)} right at ${percent(b.mean_confidence)} (n=${b.n})` : '–';
        }),
      ]),
      note: 'Per confidence bin: the share of outputs that were right, at the bin’s mean confidence. Calibrated confidence puts the two close together.',
    });
  }
  const groups = ablationGroups(file);
  if (groups.length > 0) {
    tables.push({
      id: 'ablations',
      title: 'Ablations',
      headers: ['System', 'Ablates', `Recall@${k}`, `Δ Recall@${k}`, 'MRR', 'Accuracy', 'Δ Accuracy', 'Latency p50'],
      rows: groups.flatMap((g) => [
        ...(g.base ? [[systemLabel(g.base), '(full system)', retrieval(g.base.overall, k), '', g.base.overall.mrr.toFixed(3), percent(g.base.overall.accuracy), '', milliseconds(g.base.latency_ms.p50)]] : []),
        ...g.ablations.map((m) => [
          systemLabel(m),
          g.base ? systemLabel(g.base) : g.baseId,
          retrieval(m.overall, k),
          delta(m.overall.recall_at[String(k)], g.base?.overall.recall_at[String(k)]),
          m.overall.mrr.toFixed(3),
          percent(m.overall.accuracy),
          delta(m.overall.accuracy, g.base?.overall.accuracy),
          milliseconds(m.latency_ms.p50),
        ]),
      ]),
      note: 'Each ablation is a separate system that differs from its base in one component; Δ is in percentage points against the base.',
    });
  }
  return tables;
}
