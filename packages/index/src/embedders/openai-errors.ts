import { DocTreeError, redactSecrets } from '@doctree/schema';
import type { DocTreeErrorCode } from '@doctree/schema';

/** Context of a failed OpenAI-compatible request (embeddings or chat), for the error message. */
export interface EmbeddingErrorContext {
  /** Model requested. */
  model: string;
  /** Endpoint base URL, when not api.openai.com. */
  baseURL?: string;
  /** Per-request timeout, ms. */
  timeoutMs: number;
  /** Retries that were allowed. */
  maxRetries: number;
  /** Strings that must not appear in the message (the API key). */
  secrets: readonly (string | undefined)[];
  /** How long the failed call took, ms (tells a timeout from other connection errors when the client cannot). */
  elapsedMs?: number;
}

/** Context of {@link mapOpenAIError}: the embedding context plus what was requested, and hints to use instead of the embedding ones. */
export interface OpenAIErrorContext extends EmbeddingErrorContext {
  /** What failed, capitalised, e.g. `Chat request`; starts the message. */
  operation: string;
  /** Hints per code replacing the defaults (which name embedding settings). */
  hints?: Partial<Record<DocTreeErrorCode, string>>;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Walks `error` and its `cause` chain. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && out.length < 8; current = field(current, 'cause')) out.push(current);
  return out;
}

function statusOf(error: unknown): number | undefined {
  for (const link of chain(error)) {
    const status = field(link, 'status') ?? field(link, 'statusCode') ?? field(field(link, 'response'), 'status');
    if (typeof status === 'number') return status;
  }
  return undefined;
}

function classify(error: unknown, context: EmbeddingErrorContext): { code: DocTreeErrorCode; status?: number; reason: string } {
  const status = statusOf(error);
  const links = chain(error);
  const names = links.map((link) => String(field(link, 'name') ?? field(field(link, 'constructor'), 'name') ?? ''));
  const codes = links.map((link) => String(field(link, 'code') ?? ''));
  if (status === 401 || status === 403) return { code: 'LLM_AUTH', status, reason: `the endpoint refused the credentials (HTTP ${status})` };
  if (status === 429 || names.some((n) => /RateLimit|InsufficientQuota/.test(n))) {
    return { code: 'LLM_RATE_LIMITED', ...(status !== undefined ? { status } : {}), reason: 'the endpoint kept answering 429 (rate limited)' };
  }
  if (names.some((n) => n === 'TimeoutError' || n === 'APIConnectionTimeoutError') || codes.includes('ETIMEDOUT')) {
    return { code: 'LLM_TIMEOUT', reason: 'the endpoint did not answer in time' };
  }
  if (names.some((n) => n === 'AbortError' || n === 'APIUserAbortError')) return { code: 'CANCELLED', reason: 'the request was aborted' };
  if (status !== undefined) return { code: 'LLM_UNAVAILABLE', status, reason: `the endpoint answered HTTP ${status}` };
  const connectionCode = codes.find((c) => CONNECTION_CODES.has(c));
  if (connectionCode !== undefined) return { code: 'LLM_UNAVAILABLE', reason: `cannot connect to the endpoint (${connectionCode})` };
  if (names.includes('APIConnectionError') || /connection error/i.test(String(field(error, 'message')))) {
    // The client reports an aborted fetch it does not recognise (e.g. an AbortError from another realm) as a plain
    // connection error; one that lasted the whole timeout is the timeout.
    if (context.elapsedMs !== undefined && context.elapsedMs >= context.timeoutMs) return { code: 'LLM_TIMEOUT', reason: 'the endpoint did not answer in time' };
    return { code: 'LLM_UNAVAILABLE', reason: 'cannot connect to the endpoint' };
  }
  return { code: 'LLM_UNAVAILABLE', reason: 'the request failed' };
}

/**
 * Maps an error of the OpenAI / LangChain embeddings client to a {@link DocTreeError} (see {@link mapOpenAIError}).
 */
export function mapEmbeddingError(error: unknown, context: EmbeddingErrorContext): DocTreeError {
  return mapOpenAIError(error, { ...context, operation: 'Embedding request' });
}

/**
 * Maps an error of the OpenAI / LangChain client to a {@link DocTreeError}: 401/403 → `LLM_AUTH`, 429 (after
 * the client's retries) → `LLM_RATE_LIMITED`, timeout → `LLM_TIMEOUT`, connection refused / DNS / other HTTP
 * statuses → `LLM_UNAVAILABLE`, abort → `CANCELLED`. The message and the attached cause are passed through
 * `redactSecrets`, so the API key never appears in them (servers echo keys in 401 bodies). Shared by the
 * embedder and the chat client of `@doctree/agents`.
 */
export function mapOpenAIError(error: unknown, context: OpenAIErrorContext): DocTreeError {
  if (DocTreeError.isInstance(error)) return error;
  const { code, status, reason } = classify(error, context);
  const secrets = context.secrets;
  const raw = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
  const detail = redactSecrets(raw, secrets).replace(/\s*Troubleshooting URL:.*$/s, '').trim();
  const endpoint = context.baseURL !== undefined ? redactSecrets(context.baseURL, secrets) : 'api.openai.com';
  const hints: Partial<Record<DocTreeErrorCode, string>> = {
    LLM_AUTH: `Check the API key for ${endpoint} (llm.api_key / OPENAI_API_KEY).`,
    LLM_RATE_LIMITED: `Still rate limited after ${context.maxRetries} retries; lower embedder.batch_size, raise llm.max_retries or retry later.`,
    LLM_TIMEOUT: `No answer within ${context.timeoutMs} ms; raise llm.timeout_ms or check the server at ${endpoint}.`,
    LLM_UNAVAILABLE: `Check llm.base_url (${endpoint}), that the server is running and serves the model ${context.model}.`,
    ...context.hints,
  };
  const sanitized = new Error(detail);
  sanitized.name = error instanceof Error ? error.name : 'Error';
  return new DocTreeError(code, `${context.operation} to ${endpoint} (model ${context.model}) failed: ${reason}${detail ? `: ${detail}` : ''}`, {
    cause: sanitized,
    ...(hints[code] !== undefined ? { hint: redactSecrets(hints[code], secrets) } : {}),
    details: { model: context.model, ...(status !== undefined ? { status } : {}) },
  });
}
