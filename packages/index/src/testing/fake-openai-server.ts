import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { HashingEmbedder } from '../embedders/hashing-embedder.js';

/** One request as received by the fake server. */
export interface FakeEmbeddingRequest {
  path: string;
  authorization: string | undefined;
  model: string;
  input: string[];
  encodingFormat: string | undefined;
  dimensions: number | undefined;
}

/** What the server does with one request: a scripted reply or the default happy path. */
export type FakeReply =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'hang' };

/** Options of {@link startFakeOpenAIServer} and {@link createFakeEmbeddingsHandler}. */
export interface FakeOpenAIServerOptions {
  /** Dimension of the vectors served. Default 32. */
  dimension?: number;
  /** Replies used for the first requests, in order; afterwards every request gets `fallback`. */
  script?: FakeReply[];
  /** Reply after the script. Default `{ kind: 'ok' }`. */
  fallback?: FakeReply;
}

/** A running fake server. */
export interface FakeOpenAIServer {
  /** Base URL, `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** Requests received so far. */
  requests: FakeEmbeddingRequest[];
  /** Closes the server and any connection left hanging. */
  close(): Promise<void>;
}

/** The `POST /v1/embeddings` logic of the fake server, for servers that speak more of the API (chat) to reuse. */
export interface FakeEmbeddingsHandler {
  /** Embedding requests received so far. */
  requests: FakeEmbeddingRequest[];
  /** Answers one `POST /v1/embeddings` request whose body was read into `body`. */
  handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void>;
}

/**
 * Builds the embeddings endpoint of {@link startFakeOpenAIServer}: the OpenAI response shape
 * (`{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }`, base64 when the client
 * asks for it, as OpenAI does), deterministic vectors from a small {@link HashingEmbedder} (similar texts get similar
 * vectors), and scripted failures.
 */
export function createFakeEmbeddingsHandler(options: FakeOpenAIServerOptions = {}): FakeEmbeddingsHandler {
  const dimension = options.dimension ?? 32;
  const script = [...(options.script ?? [])];
  const fallback = options.fallback ?? { kind: 'ok' };
  const embedder = new HashingEmbedder({ dimension });
  const requests: FakeEmbeddingRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse, body: string): Promise<void> => {
    const json = JSON.parse(body) as { model: string; input: string | string[]; encoding_format?: string; dimensions?: number };
    const input = Array.isArray(json.input) ? json.input : [json.input];
    requests.push({ path: req.url ?? '', authorization: req.headers.authorization, model: json.model, input, encodingFormat: json.encoding_format, dimensions: json.dimensions });
    const action = script.shift() ?? fallback;
    if (action.kind === 'hang') return; // never answers
    if (action.kind === 'status') {
      res.writeHead(action.status, { 'content-type': 'application/json', ...action.headers });
      res.end(JSON.stringify(action.body));
      return;
    }
    const vectors = await embedder.embedDocuments(input);
    const data = vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: json.encoding_format === 'base64' ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') : Array.from(vector),
    }));
    const tokens = input.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: json.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
  };
  return { requests, handle };
}

/** Reads a request body, then calls `route`; a failing route answers 500 with the error text. */
export function serveWithBody(route: (req: IncomingMessage, res: ServerResponse, body: string) => Promise<void>): Server {
  return createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      route(req, res, body).catch((error: unknown) => {
        if (res.headersSent) return;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      });
    });
  });
}

/** Starts `server` on 127.0.0.1 (random port); resolves its `/v1` base URL and a `close` that also drops hanging connections. */
export async function listenLocal(server: Server): Promise<{ baseURL: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A real HTTP server on 127.0.0.1 (random port) implementing `POST /v1/embeddings` in the OpenAI shape (see
 * {@link createFakeEmbeddingsHandler}). `@doctree/agents/testing` adds chat completions on top of the same handler.
 */
export async function startFakeOpenAIServer(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const embeddings = createFakeEmbeddingsHandler(options);
  const server = serveWithBody(async (req, res, body) => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } }));
      return;
    }
    await embeddings.handle(req, res, body);
  });
  const { baseURL, close } = await listenLocal(server);
  return { baseURL, requests: embeddings.requests, close };
}
