import type { MetricGroup, Metrics, MetricsFile } from '@doctree/schema';

/** Series colours of the charts (colour-blind friendly order). */
export const SERIES_COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

/** Colour of the i-th system. */
export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length]!;
}

/** A ratio in [0, 1] as a percentage with one decimal, e.g. `62.5%`; `–` when undefined. */
export function percent(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? '–' : `${(value * 100).toFixed(1)}%`;
}

/** Milliseconds for people: `850 ms`, `3.42 s`. */
export function milliseconds(value: number | undefined): string {
  if (value === undefined) return '–';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;
}

/** A count with at most one decimal. */
export function count(value: number | undefined): string {
  if (value === undefined) return '–';
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The label of a system in reports. */
export function systemLabel(metrics: Metrics): string {
  return metrics.label ?? metrics.system;
}

/** The k that single-k tables show (5 when reported, else the middle k). */
export function headlineK(file: MetricsFile): number {
  return file.ks.includes(5) ? 5 : file.ks[Math.floor(file.ks.length / 2)]!;
}

/** An ablation group: a base system and the systems that ablate it. */
export interface AblationGroup {
  base: Metrics | undefined;
  baseId: string;
  ablations: Metrics[];
}

/** Systems grouped by the system they ablate (only groups with at least one ablation). */
export function ablationGroups(file: MetricsFile): AblationGroup[] {
  const groups = new Map<string, Metrics[]>();
  for (const m of file.systems) {
    if (m.ablation_of === undefined) continue;
    const list = groups.get(m.ablation_of);
    if (list) list.push(m);
    else groups.set(m.ablation_of, [m]);
  }
  return [...groups.entries()].map(([baseId, ablations]) => ({ baseId, base: file.systems.find((m) => m.system === baseId), ablations }));
}

/** A signed difference of two ratios in percentage points, e.g. `+3.1 pp`. */
export function delta(value: number | undefined, base: number | undefined): string {
  if (value === undefined || base === undefined) return '–';
  const d = (value - base) * 100;
  return `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(1)} pp`;
}

/**
 * The group `key` of a system's breakdown, or undefined when the system has none: own entries only, since group labels
 * come from datasets (a source `constructor` must not find `Object.prototype.constructor`).
 */
export function breakdownGroup(system: Metrics, breakdown: 'by_source' | 'by_format', key: string): MetricGroup | undefined {
  const groups = system[breakdown];
  return Object.hasOwn(groups, key) ? groups[key] : undefined;
}

/** Labels of the groups a breakdown has across systems, in the order of the first system that has them. */
export function groupKeys(file: MetricsFile, breakdown: 'by_source' | 'by_format'): string[] {
  const keys: string[] = [];
  for (const m of file.systems) for (const key of Object.keys(m[breakdown])) if (!keys.includes(key)) keys.push(key);
  return keys;
}
