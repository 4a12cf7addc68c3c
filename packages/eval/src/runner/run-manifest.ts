import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import { DocTreeError, parseWith } from '@doctree/schema';
import type { Question } from '@doctree/schema';
import { z } from 'zod';

/** JSON with object keys sorted, for hashing. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 (hex) of the canonical JSON of a value. */
export function sha256Of(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** A system as recorded in `run.json`. */
const RunSystemSchema = z.object({
  label: z.string().optional(),
  ablation_of: z.string().optional(),
  description: z.string().optional(),
  config: z.unknown().optional(),
  config_sha256: z.string(),
  /** What the system's code is (module hash, package versions), when it says (see `QaSystemDescription.code`). */
  code: z.record(z.string(), z.string()).optional(),
  /** sha256 of the id, configuration and code: answers are reused only under the same fingerprint. Absent in older runs. */
  fingerprint: z.string().optional(),
});

/** `run.json`: what a run in an output folder evaluates, checked when the run is resumed. */
export const RunManifestSchema = z.object({
  format: z.literal('doctree.eval-run'),
  version: z.literal(1),
  dataset: z.string(),
  /** sha256 of the canonical JSON of all questions (before `limit`). */
  questions_sha256: z.string(),
  n_questions: z.number().int().nonnegative(),
  ks: z.array(z.number().int().positive()),
  scoring: z.object({ extract: z.boolean() }),
  judge_model: z.string().nullable(),
  /** Systems by id, in the order they were first run. */
  systems: z.record(z.string(), RunSystemSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A parsed `run.json`. */
export type RunManifest = z.infer<typeof RunManifestSchema>;
/** A system entry of `run.json`. */
export type RunSystem = z.infer<typeof RunSystemSchema>;

/** Hash of a question set. */
export function questionsSha256(questions: readonly Question[]): string {
  return sha256Of(questions);
}

/** Reads `run.json`; undefined when absent. A file of another format or version throws. */
export async function readRunManifest(path: string): Promise<RunManifest | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DocTreeError('INPUT_UNREADABLE', `cannot read ${path}: ${(error as Error).message}`, { file: path, cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('SCHEMA_INVALID', `${path} is not valid JSON`, { file: path, cause, hint: 'Delete the output folder to start the run over.' });
  }
  const header = value as { format?: unknown; version?: unknown };
  if (header?.format === 'doctree.eval-run' && header.version !== 1) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `${path} has version ${String(header.version)}; this DocTree reads version 1`, { file: path, hint: 'Use a new output folder, or the DocTree version that started the run.' });
  }
  return parseWith(RunManifestSchema, value, { file: path, what: 'eval run manifest' });
}

/** The fingerprint of a system: sha256 of its id, its configuration (secrets redacted) and its code. */
export function systemFingerprint(id: string, config: unknown, code: Readonly<Record<string, string>> | undefined): string {
  return sha256Of({ id, config: config ?? {}, code: code ?? {} });
}

/**
 * Systems of `previous` whose answers `next` must not reuse: the same id with another fingerprint (configuration or
 * code changed; a run recorded before fingerprints compares the configuration hash).
 */
export function changedSystems(previous: RunManifest, next: RunManifest): string[] {
  const changed: string[] = [];
  for (const [id, system] of Object.entries(next.systems)) {
    const before = Object.hasOwn(previous.systems, id) ? previous.systems[id] : undefined;
    if (before === undefined) continue;
    const same = before.fingerprint !== undefined && system.fingerprint !== undefined ? before.fingerprint === system.fingerprint : before.config_sha256 === system.config_sha256;
    if (!same) changed.push(id);
  }
  return changed;
}

/**
 * Differences that forbid resuming `previous` with `next` (empty when compatible): dataset, questions, ks, scoring
 * and judge. New systems are allowed; a system whose configuration or code changed is answered again (see
 * {@link changedSystems}), not refused.
 */
export function manifestConflicts(previous: RunManifest, next: RunManifest): string[] {
  const conflicts: string[] = [];
  if (previous.dataset !== next.dataset) conflicts.push(`dataset "${previous.dataset}" → "${next.dataset}"`);
  if (previous.questions_sha256 !== next.questions_sha256) conflicts.push(`the questions changed (${previous.n_questions} → ${next.n_questions} questions, or their content)`);
  if (canonicalJson(previous.ks) !== canonicalJson(next.ks)) conflicts.push(`ks ${previous.ks.join(',')} → ${next.ks.join(',')}`);
  if (previous.scoring.extract !== next.scoring.extract) conflicts.push(`answer extraction ${previous.scoring.extract} → ${next.scoring.extract}`);
  if (previous.judge_model !== next.judge_model) conflicts.push(`judge ${previous.judge_model ?? 'none'} → ${next.judge_model ?? 'none'}`);
  return conflicts;
}
