import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { captureIo as capture } from '../__fixtures__/capture-io.js';
import { run } from '../main.js';
import { probeLlmEndpoint } from './doctor-probe.js';

const KEY = 'sk-doctor-probe-SECRET-42';

/**
 * An OpenAI-like server on 127.0.0.1 (401 without the right key): `ok` answers `GET /v1/models`; `chat-only` has no
 * such route (404) and answers `POST /v1/chat/completions`; `hang` never answers.
 */
async function fakeServer(mode: 'ok' | 'chat-only' | 'hang'): Promise<{ baseURL: string; requests: string[]; bodies: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push(body);
      if (mode === 'hang') return;
      const json = (status: number, value: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const route = `${req.method} ${req.url}`;
      if (mode === 'chat-only' && route === 'GET /v1/models') return json(404, { error: { message: 'no route' } });
      if (req.headers.authorization !== `Bearer ${KEY}`) return json(401, { error: { message: `Incorrect API key provided: ${req.headers.authorization ?? ''}` } });
      if (route === 'GET /v1/models') return json(200, { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model' }] });
      if (route === 'POST /v1/chat/completions') return json(200, { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, finish_reason: 'length' }] });
      return json(404, { error: { message: 'no route' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('doctree doctor probes the LLM endpoint', () => {
  jest.setTimeout(30_000);

  it('reports a reachable endpoint that accepts the key as ok, without printing the key', async () => {
    const server = await fakeServer('ok');
    try {
      const io = capture(process.cwd(), { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY });
      await run(['doctor', '--json'], io);
      const report = JSON.parse(io.out);
      expect(report.llm.probe).toMatchObject({ status: 'ok', request: 'GET /models', http_status: 200 });
      expect(report.problems.join('\n')).not.toMatch(/LLM endpoint/);
      expect(server.requests).toEqual(['GET /v1/models']);
      const text = capture(process.cwd(), { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY });
      await run(['doctor'], text);
      expect(text.out).toMatch(/^ {2}ok {3}llm: openai \S+ at http:\/\/127\.0\.0\.1:\d+\/v1 \(api key set \(env\)\) - reachable: answered GET \/models in \d+ ms$/m);
      for (const out of [io.out, io.err, text.out, text.err]) expect(out).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });

  it('reports a refused key as an authentication failure (exit 1), never echoing the key the server quotes', async () => {
    const server = await fakeServer('ok');
    try {
      const wrong = 'sk-wrong-key-SECRET-7';
      const io = capture(process.cwd(), { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: wrong });
      expect(await run(['doctor', '--json'], io)).toBe(1);
      const report = JSON.parse(io.out);
      expect(report.ok).toBe(false);
      expect(report.llm.probe).toMatchObject({ status: 'auth_failed', http_status: 401 });
      expect(report.problems.join('\n')).toMatch(/LLM endpoint http:\/\/127\.0\.0\.1:\d+\/v1: HTTP 401 to GET \/models: check OPENAI_API_KEY/);
      const text = capture(process.cwd(), { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: wrong });
      expect(await run(['doctor'], text)).toBe(1);
      expect(text.out).toMatch(/^ {2}FAIL llm: .* - authentication failed: HTTP 401/m);
      for (const out of [io.out, io.err, text.out, text.err]) expect(out).not.toContain(wrong);
    } finally {
      await server.close();
    }
  });

  it('reports a closed port as unreachable (exit 1) instead of ok', async () => {
    const port = await closedPort();
    const io = capture(process.cwd(), { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: KEY });
    expect(await run(['doctor'], io)).toBe(1);
    expect(io.out).toMatch(/^ {2}FAIL llm: .* - unreachable: ECONNREFUSED$/m);
    expect(io.out).toMatch(/Problems:\n(.*\n)* {2}- LLM endpoint http:\/\/127\.0\.0\.1:\d+\/v1: ECONNREFUSED/);
    expect(io.out).not.toContain(KEY);
  });

  it('bounds the probe of an endpoint that never answers by the LLM timeout', async () => {
    const server = await fakeServer('hang');
    try {
      const io = capture(process.cwd(), { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY, DOCTREE_LLM_TIMEOUT_MS: '300' });
      const t0 = Date.now();
      expect(await run(['doctor', '--json'], io)).toBe(1);
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(JSON.parse(io.out).llm.probe).toMatchObject({ status: 'unreachable', detail: 'no answer within 300 ms' });
    } finally {
      await server.close();
    }
  });

  it('falls back to a 1-token chat request when the server has no /models route', async () => {
    const server = await fakeServer('chat-only');
    try {
      const ok = await probeLlmEndpoint({ baseUrl: server.baseURL, apiKey: KEY, model: 'tiny', timeoutMs: 5000 });
      expect(ok).toMatchObject({ status: 'ok', request: 'POST /chat/completions', http_status: 200 });
      expect(server.requests).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
      expect(JSON.parse(server.bodies[1]!)).toMatchObject({ model: 'tiny', max_tokens: 1 });
      const refused = await probeLlmEndpoint({ baseUrl: server.baseURL, apiKey: 'sk-other', model: 'tiny', timeoutMs: 5000 });
      expect(refused).toMatchObject({ status: 'auth_failed', request: 'POST /chat/completions', http_status: 401 });
    } finally {
      await server.close();
    }
  });

  it('does not probe when no endpoint is configured', async () => {
    const io = capture(process.cwd(), {});
    await run(['doctor', '--json'], io);
    expect(JSON.parse(io.out).llm.probe).toEqual({ status: 'skipped', detail: 'no LLM endpoint configured' });
  });
});
