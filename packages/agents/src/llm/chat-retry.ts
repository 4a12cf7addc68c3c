import { DocTreeError } from '@doctree/schema';

/** How failed chat requests are retried. */
export interface ChatRetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay, ms; doubles per retry, with ±25 % jitter. */
  baseDelayMs: number;
  /** Longest wait accepted, ms: a longer `Retry-After` (or backoff) ends the retries at once. */
  maxDelayMs: number;
}

function field(value: unknown, key: string): unknown {
  return (typeof value === 'object' && value !== null) || typeof value === 'function' ? (value as Record<string, unknown>)[key] : undefined;
}

/** The error and its `cause` chain (at most 8 links). */
function links(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && out.length < 8; current = field(current, 'cause')) out.push(current);
  return out;
}

/** HTTP status of a client error, when it carries one. */
export function httpStatusOf(error: unknown): number | undefined {
  for (const link of links(error)) {
    const status = field(link, 'status') ?? field(link, 'statusCode') ?? field(field(link, 'response'), 'status');
    if (typeof status === 'number') return status;
  }
  return undefined;
}

function header(headers: unknown, name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  const get = field(headers, 'get');
  if (typeof get === 'function') {
    const value = (get as (key: string) => unknown).call(headers, name);
    return typeof value === 'string' ? value : undefined;
  }
  const value = field(headers, name) ?? field(headers, name.toLowerCase());
  return typeof value === 'string' ? value : undefined;
}

/**
 * The wait a server asked for, ms: `retry-after-ms`, or `Retry-After` as seconds or an HTTP date.
 * `undefined` when the error carries neither.
 */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  for (const link of links(error)) {
    const headers = field(link, 'headers') ?? field(field(link, 'response'), 'headers');
    const millis = header(headers, 'retry-after-ms');
    if (millis !== undefined && Number.isFinite(Number(millis)) && Number(millis) >= 0) return Number(millis);
    const value = header(headers, 'retry-after');
    if (value === undefined || value.trim() === '') continue;
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/** Names of client errors that mean "no answer in time" or "connection failed": worth another attempt. */
const TRANSIENT_NAMES = new Set(['TimeoutError', 'APIConnectionTimeoutError', 'APIConnectionError', 'FetchError']);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * True when another attempt may succeed: 408, 409, 429 (unless the quota is exhausted), 5xx, timeouts and
 * connection errors. Never for 400/401/403/404/422, bad output or cancellation.
 */
export function isRetryable(error: unknown): boolean {
  if (DocTreeError.isInstance(error)) return error.code === 'LLM_TIMEOUT' || error.code === 'LLM_RATE_LIMITED';
  const status = httpStatusOf(error);
  if (status !== undefined) {
    if (status === 429) return !links(error).some((link) => field(link, 'code') === 'insufficient_quota' || field(field(link, 'error'), 'code') === 'insufficient_quota');
    return status === 408 || status === 409 || status >= 500;
  }
  return links(error).some((link) => {
    // The OpenAI SDK's error classes keep `name` "Error"; their constructor names tell them apart.
    const names = [String(field(link, 'name') ?? ''), String(field(field(link, 'constructor'), 'name') ?? '')];
    const code = String(field(link, 'code') ?? '');
    return names.some((name) => TRANSIENT_NAMES.has(name)) || TRANSIENT_CODES.has(code);
  });
}

/**
 * Delay before retry number `retry` (0-based) of a failed request: exponential backoff with jitter, raised to the
 * server's `Retry-After` when it asks for longer. `undefined` when the wait exceeds `policy.maxDelayMs` (give up now).
 */
export function retryDelayMs(error: unknown, retry: number, policy: ChatRetryPolicy, random: () => number = Math.random): number | undefined {
  const backoff = policy.baseDelayMs * 2 ** retry * (0.75 + 0.5 * random());
  const asked = retryAfterMs(error);
  const delay = Math.round(asked !== undefined ? Math.max(asked, Math.min(backoff, policy.baseDelayMs)) : backoff);
  return delay > policy.maxDelayMs ? undefined : delay;
}

/** Waits `ms`, rejecting with `CANCELLED` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new DocTreeError('CANCELLED', 'The chat request was cancelled', { cause: signal.reason }));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new DocTreeError('CANCELLED', 'The chat request was cancelled', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
