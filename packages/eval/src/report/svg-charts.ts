import type { MetricsFile } from '@doctree/schema';

import { escapeHtml } from './html-escape.js';
import { breakdownGroup, groupKeys, seriesColor, systemLabel } from './report-format.js';

const FONT = 'font-family="system-ui, sans-serif" font-size="12"';

/** Width the legend needs for its longest label (12 px font, ~6.6 px per character), at least 180. */
function legendWidthFor(labels: readonly string[]): number {
  return Math.max(180, 24 + Math.ceil(Math.max(0, ...labels.map((l) => l.length)) * 6.6));
}

function legend(labels: readonly string[], x: number, y: number): string {
  return labels
    .map((label, i) => {
      const ly = y + i * 18;
      return `<g data-legend="${escapeHtml(label)}"><rect x="${x}" y="${ly - 9}" width="12" height="12" fill="${seriesColor(i)}"/><text x="${x + 18}" y="${ly + 1}" ${FONT}>${escapeHtml(label)}</text></g>`;
    })
    .join('');
}

function yAxis(left: number, top: number, plotWidth: number, plotHeight: number): string {
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return ticks
    .map((t) => {
      const y = top + plotHeight * (1 - t);
      return `<line x1="${left}" x2="${left + plotWidth}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="${left - 6}" y="${y + 4}" text-anchor="end" ${FONT}>${Math.round(t * 100)}%</text>`;
    })
    .join('');
}

/**
 * Inline SVG line chart of evidence-page recall@k per system (x: k, y: recall). Each system is a
 * `<g data-series="<id>">` holding a polyline and one `<circle data-point>` per k.
 */
export function recallChartSvg(file: MetricsFile): string {
  const height = 320;
  const left = 48;
  const top = 16;
  const legendWidth = legendWidthFor(file.systems.map(systemLabel));
  const plotWidth = 428;
  const width = left + plotWidth + legendWidth + 24;
  const plotHeight = height - top - 48;
  const xs = file.ks.map((_, i) => left + (file.ks.length === 1 ? plotWidth / 2 : (plotWidth * i) / (file.ks.length - 1)));
  const yOf = (v: number): number => top + plotHeight * (1 - Math.min(1, Math.max(0, v)));
  const series = file.systems
    .map((m, si) => {
      const points = file.ks.map((k, i) => ({ x: xs[i]!, y: yOf(m.overall.recall_at[String(k)] ?? 0), k, v: m.overall.recall_at[String(k)] ?? 0 }));
      const circles = points
        .map((p) => `<circle data-point data-k="${p.k}" cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="4" fill="${seriesColor(si)}"><title>${escapeHtml(systemLabel(m))} recall@${p.k}: ${(p.v * 100).toFixed(1)}%</title></circle>`)
        .join('');
      return `<g data-series="${escapeHtml(m.system)}"><polyline fill="none" stroke="${seriesColor(si)}" stroke-width="2" points="${points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')}"/>${circles}</g>`;
    })
    .join('');
  const xLabels = file.ks.map((k, i) => `<text x="${xs[i]}" y="${top + plotHeight + 18}" text-anchor="middle" ${FONT}>k=${k}</text>`).join('');
  return [
    `<svg data-chart="recall-at-k" role="img" aria-label="Evidence-page recall@k per system" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    yAxis(left, top, plotWidth, plotHeight),
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotHeight}" stroke="#888"/>`,
    xLabels,
    `<text x="${left + plotWidth / 2}" y="${height - 6}" text-anchor="middle" ${FONT}>k (top-k ranked pages)</text>`,
    series,
    legend(file.systems.map(systemLabel), left + plotWidth + 28, top + 12),
    '</svg>',
  ].join('');
}

/**
 * Inline SVG grouped bar chart of answer accuracy by evidence source: one `<g data-group="<source>">` per source with
 * one `<rect data-bar data-system="<id>">` per system. A zero is drawn as a hairline so that it stays visible.
 */
export function accuracyBySourceSvg(file: MetricsFile): string {
  const groups = groupKeys(file, 'by_source');
  const systems = file.systems;
  const top = 16;
  const legendWidth = legendWidthFor(systems.map(systemLabel));
  const barWidth = 16;
  const groupGap = 22;
  const groupWidth = Math.max(Math.max(1, systems.length) * barWidth + groupGap, 56);
  const plotWidth = Math.max(240, groups.length * groupWidth);
  const plotHeight = 220;
  const labels = groups.map((group) => `${group} (n=${Math.max(0, ...systems.map((m) => breakdownGroup(m, 'by_source', group)?.n ?? 0))})`);
  // Room on the left for the first turned label.
  const left = Math.max(48, Math.ceil((labels[0]?.length ?? 0) * 6.5 * Math.cos((35 * Math.PI) / 180) - groupWidth / 2 + 8));
  // Group labels are turned by 35° so that long ones (financial-statement) do not overlap: make room below.
  const labelDrop = Math.ceil(Math.max(0, ...labels.map((l) => l.length)) * 6.5 * Math.sin((35 * Math.PI) / 180)) + 24;
  const width = left + plotWidth + legendWidth + 24;
  const height = top + plotHeight + labelDrop;
  const bars = groups
    .map((group, gi) => {
      const gx = left + gi * groupWidth + (groupWidth - systems.length * barWidth) / 2;
      const rects = systems
        .map((m, si) => {
          const g = breakdownGroup(m, 'by_source', group);
          const value = g?.accuracy ?? 0;
          const h = Math.max(1.5, plotHeight * Math.min(1, Math.max(0, value)));
          const x = gx + si * barWidth;
          const y = top + plotHeight - h;
          const n = g?.n ?? 0;
          return `<rect data-bar data-system="${escapeHtml(m.system)}" data-value="${value.toFixed(4)}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth - 2}" height="${h.toFixed(1)}" fill="${seriesColor(si)}"><title>${escapeHtml(systemLabel(m))} · ${escapeHtml(group)}: ${(value * 100).toFixed(1)}% (n=${n})</title></rect>`;
        })
        .join('');
      const cx = gx + (systems.length * barWidth) / 2;
      const ly = top + plotHeight + 14;
      return `<g data-group="${escapeHtml(group)}">${rects}<text x="${cx.toFixed(1)}" y="${ly}" text-anchor="end" transform="rotate(-35 ${cx.toFixed(1)} ${ly})" ${FONT}>${escapeHtml(labels[gi]!)}</text></g>`;
    })
    .join('');
  return [
    `<svg data-chart="accuracy-by-source" role="img" aria-label="Answer accuracy by evidence source" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    yAxis(left, top, plotWidth, plotHeight),
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotHeight}" stroke="#888"/>`,
    bars,
    legend(systems.map(systemLabel), left + plotWidth + 28, top + 12),
    '</svg>',
  ].join('');
}

/**
 * Inline SVG reliability diagram: per system, the share of right outputs (y) against the mean confidence (x) of each
 * non-empty confidence bin, over the diagonal of perfect calibration. Each system is a `<g data-series="<id>">` with one
 * `<circle data-bin>` per bin (radius by the bin's size). Empty when no system has calibration metrics.
 */
export function reliabilityDiagramSvg(file: MetricsFile): string {
  const systems = file.systems.map((m, i) => ({ m, i })).filter(({ m }) => m.calibration !== undefined);
  if (systems.length === 0) return '';
  const size = 300;
  const left = 48;
  const top = 16;
  const legendWidth = legendWidthFor(systems.map(({ m }) => systemLabel(m)));
  const width = left + size + legendWidth + 24;
  const height = top + size + 48;
  const xOf = (v: number): number => left + size * Math.min(1, Math.max(0, v));
  const yOf = (v: number): number => top + size * (1 - Math.min(1, Math.max(0, v)));
  const series = systems
    .map(({ m, i }) => {
      const c = m.calibration!;
      const points = c.bins.filter((b) => b.n > 0 && b.mean_confidence !== null && b.accuracy !== null);
      const circles = points
        .map((b) => {
          const r = 3 + 9 * Math.sqrt(b.n / Math.max(1, c.n));
          return `<circle data-bin data-lo="${b.lo.toFixed(2)}" cx="${xOf(b.mean_confidence!).toFixed(1)}" cy="${yOf(b.accuracy!).toFixed(1)}" r="${r.toFixed(1)}" fill="${seriesColor(i)}" fill-opacity="0.7"><title>${escapeHtml(systemLabel(m))} · confidence ${b.lo.toFixed(1)}–${b.hi.toFixed(1)}: ${(b.accuracy! * 100).toFixed(1)}% right at ${(b.mean_confidence! * 100).toFixed(1)}% confidence (n=${b.n})</title></circle>`;
        })
        .join('');
      const line = points.length > 1 ? `<polyline fill="none" stroke="${seriesColor(i)}" stroke-width="1.5" points="${points.map((b) => `${xOf(b.mean_confidence!).toFixed(1)},${yOf(b.accuracy!).toFixed(1)}`).join(' ')}"/>` : '';
      return `<g data-series="${escapeHtml(m.system)}">${line}${circles}</g>`;
    })
    .join('');
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map((t) => `<text x="${xOf(t)}" y="${top + size + 18}" text-anchor="middle" ${FONT}>${Math.round(t * 100)}%</text>`).join('');
  return [
    `<svg data-chart="reliability" role="img" aria-label="Reliability diagram: share right against confidence" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    yAxis(left, top, size, size),
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + size}" stroke="#888"/>`,
    `<line data-diagonal x1="${xOf(0)}" y1="${yOf(0)}" x2="${xOf(1)}" y2="${yOf(1)}" stroke="#999" stroke-dasharray="4 4"/>`,
    xTicks,
    `<text x="${left + size / 2}" y="${height - 6}" text-anchor="middle" ${FONT}>confidence</text>`,
    series,
    legend(systems.map(({ m }) => systemLabel(m)), left + size + 28, top + 12),
    '</svg>',
  ].join('');
}
