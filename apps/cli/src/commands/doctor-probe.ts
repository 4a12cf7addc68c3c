import { redactSecrets } from '@doctree/schema';

/** What probing the LLM endpoint found. */
export interface LlmProbe {
  /**
   * `ok`: the endpoint answered with the key; `auth_failed`: it refused the key (401/403); `unreachable`: no answer
   * (connection refused, DNS, timeout); `error`: it answered with another failure; `skipped`: no endpoint configured.
   */
  status: 'ok' | 'auth_failed' | 'unreachable' | 'error' | 'skipped';
  /** One line for people, after the status (never the key). */
  detail: string;
  /** The request that decided: `GET /models` or `POST /chat/completions` (1 token). */
  request?: string;
  http_status?: number;
  latency_ms?: number;
}

/** Options of {@link probeLlmEndpoint}. */
export interface LlmProbeOptions {
  /** Base URL of the OpenAI-compatible API (`…/v1`). */
  baseUrl: string;
  apiKey?: string;
  /** Model named in the 1-token chat request. */
  model: string;
  /** Time allowed per request, ms. Default 5000. */
  timeoutMs?: number;
  /** Injected for tests; default the global `fetch`. */
  fetch?: typeof fetch;
}

/** Defaults of {@link LlmProbeOptions}. */
export const LLM_PROBE_DEFAULTS = { timeoutMs: 5000 } as const;

/** The reason of a network failure, from `fetch`'s error and its `cause` (e.g. `ECONNREFUSED`). */
function networkReason(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}

/**
 * Probes an OpenAI-compatible endpoint with bounded requests: `GET /models` (free), and when the server has no such
 * route (404/405) a 1-token chat completion. Reports ok, an authentication failure, an unreachable endpoint or
 * another error; never throws, never puts the key in its result.
 *
 * @example
 * ```ts
 * const probe = await probeLlmEndpoint({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' });
 * if (probe.status !== 'ok') console.error(probe.detail);
 * ```
 */
export async function probeLlmEndpoint(options: LlmProbeOptions): Promise<LlmProbe> {
  const o = { ...LLM_PROBE_DEFAULTS, ...options };
  const doFetch = o.fetch ?? fetch;
  const secrets = o.apiKey ? [o.apiKey] : [];
  const base = o.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) };
  const attempt = async (request: string, url: string, init: RequestInit): Promise<LlmProbe & { retry?: boolean }> => {
    const t0 = performance.now();
    let response: Response;
    try {
      response = await doFetch(url, { ...init, headers, signal: AbortSignal.timeout(o.timeoutMs), redirect: 'error' });
    } catch (error) {
      return { status: 'unreachable', detail: redactSecrets(networkReason(error, o.timeoutMs), secrets), request };
    }
    const latency = Math.round(performance.now() - t0);
    // Only the status matters; the body is drained (bounded by the timeout) so the connection closes.
    await response.arrayBuffer().catch(() => undefined);
    const common = { request, http_status: response.status, latency_ms: latency };
    if (response.ok) return { status: 'ok', detail: `answered ${request} in ${latency} ms`, ...common };
    if (response.status === 401 || response.status === 403) {
      return { status: 'auth_failed', detail: `HTTP ${response.status} to ${request}: check OPENAI_API_KEY / llm.api_key`, ...common };
    }
    if (response.status === 404 || response.status === 405) return { status: 'error', detail: `HTTP ${response.status} to ${request}`, ...common, retry: true };
    return { status: 'error', detail: `HTTP ${response.status} to ${request}`, ...common };
  };
  const models = await attempt('GET /models', `${base}/models`, { method: 'GET' });
  if (!models.retry) {
    const { retry: _retry, ...result } = models;
    return result;
  }
  const chat = await attempt('POST /chat/completions', `${base}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ model: o.model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 }),
  });
  const { retry: _retry, ...result } = chat;
  return result;
}
