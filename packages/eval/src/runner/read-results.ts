import { readFile } from 'node:fs/promises';

import { DocTreeError, MetricsFileSchema, parseWith, PredictionSchema } from '@doctree/schema';
import type { MetricsFile, Prediction } from '@doctree/schema';

import { readJsonLinesFile } from './jsonl-store.js';

/**
 * Reads a `predictions.jsonl` written by `runEvaluation`; for a (system, question) pair written twice (an answer retried
 * after an error) the last line wins. A cut-short last line is dropped. Bad lines throw `SCHEMA_INVALID` naming the line.
 */
export async function readPredictions(path: string): Promise<Prediction[]> {
  const { records } = await readJsonLinesFile(path, PredictionSchema, 'prediction');
  const latest = new Map<string, Prediction>();
  for (const p of records) latest.set(`${p.system}\u0000${p.id}`, p);
  return [...latest.values()];
}

/** Reads and validates a `metrics.json` (format `doctree.eval-metrics`, version 1). */
export async function readMetrics(path: string): Promise<MetricsFile> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DocTreeError('INPUT_NOT_FOUND', `metrics file not found: ${path}`, { file: path });
    throw new DocTreeError('SCHEMA_INVALID', `cannot read ${path}: ${(error as Error).message}`, { file: path, cause: error });
  }
  const header = value as { format?: unknown; version?: unknown } | null;
  if (header?.format === 'doctree.eval-metrics' && header.version !== 1) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `${path} has version ${String(header.version)}; this DocTree reads version 1`, { file: path });
  }
  return parseWith(MetricsFileSchema, value, { file: path, what: 'metrics file' });
}
