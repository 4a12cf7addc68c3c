import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { AgentConfigSchema, DocTreeError, EmbedderConfigSchema, IndexConfigSchema, LlmConfigSchema } from '@doctree/schema';
import type { DocTreeConfigInput } from '@doctree/schema';
import { z } from 'zod';

import { SYSTEM_ID_PATTERN } from '../runner/qa-system.js';

/** `format` of experiment files. */
export const EXPERIMENT_FORMAT = 'doctree.experiment';
/** The experiment file version this DocTree reads. */
export const EXPERIMENT_VERSION = 1;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const nameSchema = z.string().regex(NAME, 'use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (it names a folder)');
const positiveInteger = z.number().int().positive();

/**
 * A system given by a module instead of an id: `module:<path>[#export]`, or a path (`./my-system.mjs`,
 * `../systems/x.js#createSystem`) ending in `.mjs`, `.js` or `.cjs`. The module exports a factory (default export, or
 * `createSystem`, or the named export) that gets the evaluation's system context and returns a `QaSystem`.
 */
export const MODULE_SYSTEM_PATTERN = /^(module:.+|(\.{1,2}\/|\/).+\.(mjs|js|cjs)(#[A-Za-z_$][A-Za-z0-9_$]*)?)$/;

/** True when a `systems` entry names a module (see {@link MODULE_SYSTEM_PATTERN}) rather than a built-in id. */
export function isModuleSystem(entry: string): boolean {
  return MODULE_SYSTEM_PATTERN.test(entry);
}

/** A module system entry split into its file (as written) and export name (absent: `default`, else `createSystem`). */
export function parseModuleSystem(entry: string): { file: string; exportName?: string } {
  const body = entry.startsWith('module:') ? entry.slice('module:'.length) : entry;
  const hash = body.lastIndexOf('#');
  return hash > 0 ? { file: body.slice(0, hash), exportName: body.slice(hash + 1) } : { file: body };
}

/**
 * The configuration of one column of an experiment: a deep-partial `doctree.config.json` that overrides the base
 * configuration (file and environment). Secrets are not allowed here (`llm.api_key`): they come from the environment.
 */
export const ExperimentConfigSchema = z.strictObject({
  embedder: EmbedderConfigSchema.partial().strict().optional(),
  index: IndexConfigSchema.partial().strict().optional(),
  agent: AgentConfigSchema.partial().strict().optional(),
  llm: LlmConfigSchema.omit({ api_key: true }).partial().strict().optional(),
});

/** A dataset of an experiment. */
export const ExperimentDatasetSchema = z.strictObject({
  /** Name in the reports and folder of its runs. */
  name: nameSchema,
  /** Dataset file (questions.jsonl, MMLongBench-Doc samples.json, FinanceBench JSONL), relative to the experiment file. */
  questions: z.string().min(1),
  /** Evaluate the first `limit` questions of this dataset. Default: the experiment's `limit`, else all. */
  limit: positiveInteger.optional(),
});

/** A named configuration of an experiment. */
export const ExperimentConfigEntrySchema = z.strictObject({
  /** Name in the reports and folder of its runs, e.g. `sif`, `hashing`. */
  name: nameSchema,
  /** One line on what it is (shown in the comparison report). */
  description: z.string().optional(),
  /** Overrides of the base configuration. Default none. */
  config: ExperimentConfigSchema.optional(),
});

/**
 * An experiment file (`format: "doctree.experiment"`, `version: 1`): systems × datasets × configurations, each
 * combination evaluated into its own folder and compared in one report. Relative paths are resolved from the
 * experiment file's folder.
 */
export const ExperimentFileSchema = z
  .strictObject({
    format: z.literal(EXPERIMENT_FORMAT),
    version: z.literal(EXPERIMENT_VERSION),
    /** Experiment name: report title. */
    name: nameSchema,
    description: z.string().optional(),
    /**
     * System ids (in DocTree: `doctree`, its ablations, `rag`, `rag-hybrid`, `bm25-pages`) or modules exporting a
     * system factory (`./my-system.mjs`, `module:./x.js#createSystem`, relative to the experiment file), in report order.
     */
    systems: z.array(z.string().refine((v) => SYSTEM_ID_PATTERN.test(v) || isModuleSystem(v), 'not a system id or a module (./file.mjs, module:./file.js#export)')).min(1),
    datasets: z.array(ExperimentDatasetSchema).min(1),
    /** Default: one configuration named `default` (the base configuration as it is). */
    configs: z.array(ExperimentConfigEntrySchema).min(1).optional(),
    /** Output folder, relative to the experiment file. Default `<data_dir>/experiments/<name>` of the base configuration. */
    out_dir: z.string().min(1).optional(),
    /** Folder the documents are ingested into, one subfolder per configuration. Default `<out_dir>/documents`. */
    documents_dir: z.string().min(1).optional(),
    /** Evaluate the first `limit` questions of each dataset. Default all. */
    limit: positiveInteger.optional(),
    /** Questions answered at the same time per system. Default 1. */
    concurrency: positiveInteger.max(256).optional(),
    /** Score with the LLM judge of the configured endpoint too. Default false. */
    judge: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    value.systems.forEach((id, i) => {
      if (value.systems.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: ['systems', i], message: `system "${id}" is listed twice` });
    });
    const unique = (key: 'datasets' | 'configs', names: readonly string[]): void =>
      names.forEach((name, i) => {
        if (names.indexOf(name) !== i) ctx.addIssue({ code: 'custom', path: [key, i, 'name'], message: `name "${name}" is used twice` });
      });
    unique('datasets', value.datasets.map((d) => d.name));
    unique('configs', (value.configs ?? []).map((c) => c.name));
  });

/** A parsed experiment file. */
export type ExperimentFile = z.infer<typeof ExperimentFileSchema>;

/** An experiment with its paths resolved. */
export interface Experiment {
  /** Absolute path of the experiment file. */
  file: string;
  name: string;
  description?: string;
  systems: string[];
  datasets: Array<{ name: string; questions: string; limit?: number }>;
  configs: Array<{ name: string; description?: string; config: DocTreeConfigInput }>;
  /** Absolute, when the file gives one. */
  outDir?: string;
  /** Absolute, when the file gives one. */
  documentsDir?: string;
  limit?: number;
  concurrency?: number;
  judge: boolean;
}

/** Options of {@link parseExperiment} and {@link loadExperiment}. */
export interface ParseExperimentOptions {
  /** The experiment file (named in errors; relative paths are resolved from its folder). */
  file?: string;
  /** Folder relative paths are resolved from. Default the file's folder, else the current directory. */
  baseDir?: string;
  /** The system ids the caller can run; any other id in `systems` (modules aside) is an error naming the field. Default: any id. */
  knownSystems?: readonly string[];
}

/**
 * Validates an experiment (already parsed JSON) and resolves its paths against `baseDir`.
 *
 * @throws DocTreeError `FORMAT_VERSION_UNSUPPORTED` (another version of the format), `CONFIG_INVALID` naming the
 *   field (e.g. `datasets.0.questions: …`, `systems.2: unknown system "x" (valid: …)`).
 */
export function parseExperiment(value: unknown, options: ParseExperimentOptions = {}): Experiment {
  const file = options.file !== undefined ? resolve(options.file) : undefined;
  const where = file !== undefined ? { file } : {};
  const header = (typeof value === 'object' && value !== null ? value : {}) as { format?: unknown; version?: unknown };
  if (header.format === EXPERIMENT_FORMAT && header.version !== EXPERIMENT_VERSION) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `experiment file version ${JSON.stringify(header.version)} is not supported; this DocTree reads version ${EXPERIMENT_VERSION}`, {
      ...where,
      hint: `Set "version": ${EXPERIMENT_VERSION} and check the fields (apps/eval-runner/README.md describes the format).`,
    });
  }
  const known = options.knownSystems;
  const schema =
    known === undefined
      ? ExperimentFileSchema
      : ExperimentFileSchema.superRefine((v, ctx) =>
          v.systems.forEach((id, i) => {
            if (!isModuleSystem(id) && !known.includes(id)) ctx.addIssue({ code: 'custom', path: ['systems', i], message: `unknown system "${id}" (valid: ${known.join(', ')})` });
          }),
        );
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
    throw new DocTreeError('CONFIG_INVALID', `invalid experiment file: ${issues.join('; ')}`, {
      ...where,
      hint: 'See apps/eval-runner/README.md for the experiment file format (format "doctree.experiment", version 1).',
      details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    });
  }
  const data = parsed.data;
  const baseDir = resolve(options.baseDir ?? (file !== undefined ? dirname(file) : '.'));
  // The configuration overrides are taken as written (validated above), so that defaults of the schema do not
  // override the base configuration.
  const rawConfigs = (value as { configs?: Array<{ config?: DocTreeConfigInput }> }).configs;
  return {
    file: file ?? resolve(baseDir, 'experiment.json'),
    name: data.name,
    ...(data.description !== undefined ? { description: data.description } : {}),
    // Module paths are resolved from the experiment file's folder.
    systems: data.systems.map((id) => {
      if (!isModuleSystem(id)) return id;
      const { file: path, exportName } = parseModuleSystem(id);
      return `module:${resolve(baseDir, path)}${exportName !== undefined ? `#${exportName}` : ''}`;
    }),
    datasets: data.datasets.map((d) => ({ name: d.name, questions: resolve(baseDir, d.questions), ...(d.limit !== undefined ? { limit: d.limit } : {}) })),
    configs: (data.configs ?? [{ name: 'default' }]).map((c, i) => ({ name: c.name, ...(c.description !== undefined ? { description: c.description } : {}), config: rawConfigs?.[i]?.config ?? {} })),
    ...(data.out_dir !== undefined ? { outDir: resolve(baseDir, data.out_dir) } : {}),
    ...(data.documents_dir !== undefined ? { documentsDir: resolve(baseDir, data.documents_dir) } : {}),
    ...(data.limit !== undefined ? { limit: data.limit } : {}),
    ...(data.concurrency !== undefined ? { concurrency: data.concurrency } : {}),
    judge: data.judge ?? false,
  };
}

/**
 * Reads and validates an experiment file.
 *
 * @example
 * ```ts
 * const experiment = await loadExperiment('examples/experiments/dev-comparison.json');
 * console.log(experiment.systems, experiment.datasets.map((d) => d.questions));
 * ```
 * @throws DocTreeError `INPUT_NOT_FOUND`, `CONFIG_INVALID` (not JSON, or a field named), `FORMAT_VERSION_UNSUPPORTED`.
 */
export async function loadExperiment(path: string, options: Omit<ParseExperimentOptions, 'file'> = {}): Promise<Experiment> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new DocTreeError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', code === 'ENOENT' ? 'no such experiment file' : `cannot read the experiment file (${code ?? 'error'})`, { file, cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('CONFIG_INVALID', `the experiment file is not valid JSON: ${(cause as Error).message}`, { file, cause });
  }
  return parseExperiment(value, { ...options, file });
}
