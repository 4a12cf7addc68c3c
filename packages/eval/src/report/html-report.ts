import type { MetricsFile, Prediction } from '@doctree/schema';

import type { ScoredPrediction } from '../metrics/aggregate.js';
import { pyStr } from '../metrics/python-compat.js';
import { escapeHtml } from './html-escape.js';
import { traceViewerPath } from './trace-viewers.js';
import { headlineK, percent, systemLabel } from './report-format.js';
import { reportTables } from './report-tables.js';
import type { ReportTable } from './report-tables.js';
import { accuracyBySourceSvg, recallChartSvg, reliabilityDiagramSvg } from './svg-charts.js';

/** The inline style sheet of the HTML reports. */
export const REPORT_STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1b1f23;line-height:1.4}
h1{font-size:1.6em;margin-bottom:4px}h2{font-size:1.2em;margin-top:32px;border-bottom:1px solid #e1e4e8;padding-bottom:4px}
.meta{color:#586069}.note{color:#586069;font-size:.9em;max-width:60em}
table{border-collapse:collapse;margin:8px 0;font-size:.9em}th,td{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top}
th{background:#f6f8fa;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}
.charts{display:flex;flex-wrap:wrap;gap:24px}.chart{border:1px solid #e1e4e8;border-radius:6px;padding:8px;overflow-x:auto}
.questions{overflow-x:auto}.questions td{max-width:260px;overflow-wrap:anywhere}
.ok{background:#e6ffed}.partial{background:#fff8c5}.bad{background:#ffeef0}.err{background:#f6f8fa;color:#cf222e}
.small{font-size:.85em;color:#586069}pre{background:#f6f8fa;padding:8px;white-space:pre-wrap;border-radius:6px}
`;

/** A report table as an HTML `<section>` with its heading, the table (`data-table` = its id) and the note. */
export function tableHtml(table: ReportTable): string {
  const head = `<tr>${table.headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = table.rows.map((row) => `<tr>${row.map((c, i) => `<td${i > 0 && /^[-+−–\d.]/.test(c) ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('');
  const note = table.note ? `<p class="note">${escapeHtml(table.note)}</p>` : '';
  return `<section id="${escapeHtml(table.id)}"><h2>${escapeHtml(table.title)}</h2><table data-table="${escapeHtml(table.id)}"><thead>${head}</thead><tbody>${body}</tbody></table>${note}</section>`;
}

function short(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function scoreClass(p: Prediction | undefined): string {
  if (p === undefined) return '';
  if (p.error !== undefined) return 'err';
  const s = p.score?.judge?.score ?? p.score?.accuracy ?? 0;
  return s >= 0.999 ? 'ok' : s > 0 ? 'partial' : 'bad';
}

function questionsTable(file: MetricsFile, predictions: readonly ScoredPrediction[]): string {
  const k = headlineK(file);
  const byPair = new Map(predictions.map((p) => [`${p.system}\u0000${p.id}`, p]));
  const ids: ScoredPrediction[] = [];
  const seen = new Set<string>();
  for (const p of predictions) {
    if (!seen.has(p.id)) {
      seen.add(p.id);
      ids.push(p);
    }
  }
  const head = `<tr><th>Question</th><th>Gold</th>${file.systems.map((m) => `<th>${escapeHtml(systemLabel(m))}</th>`).join('')}</tr>`;
  const rows = ids
    .map((q) => {
      const gold = q.gold;
      const goldCell = `<td>${escapeHtml(short(pyStr(gold.answer)))}<div class="small">${escapeHtml(gold.format_label)} · ${escapeHtml(gold.source_labels.join(', '))} · pages ${escapeHtml(gold.evidence_pages.join(', ') || '–')}</div></td>`;
      const cells = file.systems
        .map((m) => {
          const p = byPair.get(`${m.system}\u0000${q.id}`);
          if (p === undefined) return '<td class="small">–</td>';
          const recall = p.score.recall_at[String(k)];
          const detail = p.error
            ? `error ${escapeHtml(p.error.code)}: ${escapeHtml(short(p.error.message, 120))}`
            : `score ${p.score.accuracy.toFixed(2)} (${escapeHtml(p.score.rule)})${p.score.judge ? ` · judge ${p.score.judge.correct ? '✓' : '✗'}${p.score.judge.source === 'rules' ? ' (rules)' : ''}` : ''} · R@${k} ${recall === undefined ? '–' : percent(recall)} · ranked ${escapeHtml(p.ranked_pages.slice(0, 5).join(', ') || '–')}`;
          const viewer = traceViewerPath(p);
          const link = viewer !== undefined ? ` · <a class="trace" href="${escapeHtml(viewer)}">trace</a>` : '';
          return `<td class="${scoreClass(p)}" data-system="${escapeHtml(m.system)}">${escapeHtml(short(pyStr(p.answer)))}<div class="small">${detail}${link}</div></td>`;
        })
        .join('');
      return `<tr data-question="${escapeHtml(q.id)}"><td><b>${escapeHtml(q.id)}</b> ${escapeHtml(short(q.question, 200))}<div class="small">${escapeHtml(q.doc_file)}</div></td>${goldCell}${cells}</tr>`;
    })
    .join('');
  return `<section id="questions"><h2>Per-question results</h2><div class="questions"><table data-table="questions"><thead>${head}</thead><tbody>${rows}</tbody></table></div></section>`;
}

/**
 * The HTML report of a run: one self-contained page (inline CSS and inline SVG charts, no scripts, no external
 * resources; a Content-Security-Policy forbids loading any) with the recall@k curves per system, accuracy by evidence
 * source, the tables of the Markdown report, the per-question results and the judge prompt.
 */
export function renderHtmlReport(file: MetricsFile, predictions: readonly ScoredPrediction[] = []): string {
  const title = `Evaluation: ${file.dataset}`;
  const judge =
    file.judge === null
      ? ''
      : `<section id="judge"><h2>LLM judge</h2><p>Model <code>${escapeHtml(file.judge.model)}</code>. Replies are validated as {correct, score, reason}; an unusable reply falls back to the rule score.</p><h3>System prompt</h3><pre data-judge="system">${escapeHtml(file.judge.system_prompt)}</pre><h3>User message template</h3><pre data-judge="user">${escapeHtml(file.judge.user_template)}</pre></section>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${REPORT_STYLE}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="meta">Generated ${escapeHtml(file.generated_at)} · ${file.n_questions} questions · ${file.systems.length} systems</p>`,
    '<div class="charts">',
    `<figure class="chart"><figcaption>Evidence-page recall@k</figcaption>${recallChartSvg(file)}</figure>`,
    `<figure class="chart"><figcaption>Answer accuracy by evidence source</figcaption>${accuracyBySourceSvg(file)}</figure>`,
    ...(file.systems.some((m) => m.calibration !== undefined) ? [`<figure class="chart"><figcaption>Reliability diagram (share right against confidence)</figcaption>${reliabilityDiagramSvg(file)}</figure>`] : []),
    '</div>',
    ...reportTables(file).map(tableHtml),
    questionsTable(file, predictions),
    judge,
    '</body></html>',
    '',
  ].join('\n');
}
