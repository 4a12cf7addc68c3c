/**
 * The DocTree error family. Every failure a user can cause or fix surfaces as a
 * {@link DocTreeError} with a stable `code`, the file / page / node at fault and a hint.
 */

/** Metadata of one error code: the process exit status the CLI uses and a short category. */
export interface DocTreeErrorCodeInfo {
  /** Exit status of the `doctree` command when this error ends it. */
  readonly exitStatus: number;
  /** Coarse category, useful for grouping in reports. */
  readonly category: 'usage' | 'input' | 'config' | 'index' | 'backend' | 'llm' | 'tool' | 'io' | 'internal';
  /** Hint used when the thrower gives none. */
  readonly defaultHint: string;
}

/** Every error code with its exit status and default hint. Codes are stable across releases. */
export const DOCTREE_ERROR_CODES = {
  USAGE: { exitStatus: 2, category: 'usage', defaultHint: 'Run `doctree --help` for the accepted arguments.' },
  CONFIG_INVALID: { exitStatus: 3, category: 'config', defaultHint: 'Fix the named field in doctree.config.json or the environment.' },
  CONFIG_MISSING_SECRET: { exitStatus: 3, category: 'config', defaultHint: 'Set OPENAI_API_KEY (or OPENROUTER_API_KEY), or run with --llm none.' },
  INPUT_NOT_FOUND: { exitStatus: 4, category: 'input', defaultHint: 'Check the path; relative paths are resolved from the current directory.' },
  INPUT_UNREADABLE: { exitStatus: 4, category: 'input', defaultHint: 'Check the file permissions.' },
  INPUT_UNSUPPORTED: { exitStatus: 4, category: 'input', defaultHint: 'Supported inputs: .pdf, MinerU content_list.json, .md.' },
  PDF_CORRUPT: { exitStatus: 5, category: 'input', defaultHint: 'The file is not a readable PDF; re-download or re-export it.' },
  PDF_ENCRYPTED: { exitStatus: 5, category: 'input', defaultHint: 'Pass the password with --password.' },
  PDF_PASSWORD_INCORRECT: { exitStatus: 5, category: 'input', defaultHint: 'The password given does not open this PDF.' },
  PDF_NO_PAGES: { exitStatus: 5, category: 'input', defaultHint: 'The PDF has no pages to read.' },
  MINERU_INVALID: { exitStatus: 5, category: 'input', defaultHint: 'Expected a MinerU content_list.json: an array of blocks with type, page_idx and bbox.' },
  SCHEMA_INVALID: { exitStatus: 6, category: 'input', defaultHint: 'The record does not match its schema; see docs/schemas/ for the expected shape.' },
  FORMAT_VERSION_UNSUPPORTED: { exitStatus: 6, category: 'index', defaultHint: 'Rebuild the artifact with this version of DocTree.' },
  INDEX_MISSING: { exitStatus: 7, category: 'index', defaultHint: 'Build it first with `doctree index <doc_dir>`.' },
  INDEX_CORRUPT: { exitStatus: 7, category: 'index', defaultHint: 'Delete the index/ folder and rebuild it.' },
  EMBEDDER_MISMATCH: { exitStatus: 7, category: 'index', defaultHint: 'Query with the embedder the index was built with, or rebuild the index.' },
  BACKEND_UNAVAILABLE: { exitStatus: 8, category: 'backend', defaultHint: 'Run `npm run setup` or `doctree doctor` to see which backends are available.' },
  LLM_AUTH: { exitStatus: 9, category: 'llm', defaultHint: 'Check the API key of the configured endpoint.' },
  LLM_RATE_LIMITED: { exitStatus: 9, category: 'llm', defaultHint: 'The endpoint keeps refusing with 429; lower concurrency or retry later.' },
  LLM_TIMEOUT: { exitStatus: 9, category: 'llm', defaultHint: 'The endpoint did not answer in time; raise llm.timeout_ms or check the server.' },
  LLM_UNAVAILABLE: { exitStatus: 9, category: 'llm', defaultHint: 'Check llm.base_url and that the server is reachable.' },
  LLM_BAD_OUTPUT: { exitStatus: 9, category: 'llm', defaultHint: 'The model returned output that does not match the expected schema.' },
  TOOL_NOT_FOUND: { exitStatus: 10, category: 'tool', defaultHint: 'List the registered tool cards with `doctree tools`.' },
  TOOL_ARGS_INVALID: { exitStatus: 10, category: 'tool', defaultHint: 'The tool arguments do not match the tool card schema.' },
  TOOL_FAILED: { exitStatus: 10, category: 'tool', defaultHint: 'See the trace for the failing call.' },
  TOOL_TIMEOUT: { exitStatus: 10, category: 'tool', defaultHint: 'The tool did not finish within its time limit; raise the per-call timeout or narrow the call.' },
  TOOL_NOT_CONFIGURED: { exitStatus: 10, category: 'tool', defaultHint: 'The tool needs a component that is not configured (e.g. a chat model for rank.llm); configure it or use another tool.' },
  EVAL_DATASET_INVALID: { exitStatus: 6, category: 'input', defaultHint: 'Each line needs id, doc_file, question, answer and evidence_pages (1-based).' },
  IO_WRITE_FAILED: { exitStatus: 11, category: 'io', defaultHint: 'Check free space and write permission of the output folder.' },
  COLLECTION_LOCKED: { exitStatus: 12, category: 'io', defaultHint: 'Another run is writing this collection; wait for it, or pass --wait SECONDS to wait for its lock.' },
  CANCELLED: { exitStatus: 130, category: 'internal', defaultHint: 'The operation was cancelled.' },
  INTERNAL: { exitStatus: 70, category: 'internal', defaultHint: 'This is a bug in DocTree; please report it with the command you ran.' },
} as const satisfies Record<string, DocTreeErrorCodeInfo>;

/** Union of all DocTree error codes. */
export type DocTreeErrorCode = keyof typeof DOCTREE_ERROR_CODES;

/** Options of the {@link DocTreeError} constructor. */
export interface DocTreeErrorOptions {
  /** How the user can fix it; defaults to the code's default hint. */
  hint?: string;
  /** The file at fault (as given by the user, or the artifact path). */
  file?: string;
  /** The page at fault, 1-based (as shown to people). */
  page?: number;
  /** The DocTree node at fault. */
  nodeId?: string;
  /** The underlying error. */
  cause?: unknown;
  /** Extra structured details (never secrets). */
  details?: Record<string, unknown>;
}

const BRAND = Symbol.for('doctree.error');

/** JSON form of a {@link DocTreeError}, as written to traces and `--json` output. */
export interface DocTreeErrorJson {
  name: 'DocTreeError';
  code: DocTreeErrorCode;
  message: string;
  hint: string;
  file?: string;
  page?: number;
  node_id?: string;
  details?: Record<string, unknown>;
  cause?: string;
}

/**
 * An expected failure with a stable code, the location at fault and a hint.
 *
 * @example
 * ```ts
 * throw new DocTreeError('PDF_ENCRYPTED', 'The PDF is encrypted', { file: 'a.pdf', hint: 'Pass --password' });
 * ```
 */
export class DocTreeError extends Error {
  /** Stable machine-readable code. */
  readonly code: DocTreeErrorCode;
  /** How to fix it. */
  readonly hint: string;
  /** File at fault. */
  readonly file?: string;
  /** Page at fault, 1-based. */
  readonly page?: number;
  /** Node at fault. */
  readonly nodeId?: string;
  /** Extra structured details. */
  readonly details?: Record<string, unknown>;

  constructor(code: DocTreeErrorCode, message: string, options: DocTreeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DocTreeError';
    this.code = code;
    this.hint = options.hint ?? DOCTREE_ERROR_CODES[code].defaultHint;
    if (options.file !== undefined) this.file = options.file;
    if (options.page !== undefined) this.page = options.page;
    if (options.nodeId !== undefined) this.nodeId = options.nodeId;
    if (options.details !== undefined) this.details = options.details;
    Object.defineProperty(this, BRAND, { value: true, enumerable: false });
  }

  /** True for any DocTreeError, including one thrown by another copy of this package. */
  static isInstance(value: unknown): value is DocTreeError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /** Wraps any thrown value: DocTreeErrors pass through, anything else becomes `code` with the original as cause. */
  static from(value: unknown, code: DocTreeErrorCode = 'INTERNAL', options: DocTreeErrorOptions = {}): DocTreeError {
    if (DocTreeError.isInstance(value)) return value;
    const message = value instanceof Error ? value.message : String(value);
    return new DocTreeError(code, message, { ...options, cause: value });
  }

  /** Exit status for the CLI. */
  get exitStatus(): number {
    return DOCTREE_ERROR_CODES[this.code].exitStatus;
  }

  /** One line for people: `[CODE] file p.N node: message (hint: ...)`. */
  toOneLine(): string {
    const where = [this.file, this.page !== undefined ? `p.${this.page}` : undefined, this.nodeId].filter(Boolean).join(' ');
    return `[${this.code}]${where ? ` ${where}:` : ''} ${this.message} (hint: ${this.hint})`;
  }

  /** JSON form for traces and machine output. */
  toJSON(): DocTreeErrorJson {
    const json: DocTreeErrorJson = { name: 'DocTreeError', code: this.code, message: this.message, hint: this.hint };
    if (this.file !== undefined) json.file = this.file;
    if (this.page !== undefined) json.page = this.page;
    if (this.nodeId !== undefined) json.node_id = this.nodeId;
    if (this.details !== undefined) json.details = this.details;
    if (this.cause !== undefined) json.cause = this.cause instanceof Error ? this.cause.message : String(this.cause);
    return json;
  }
}
