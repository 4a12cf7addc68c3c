import { OpenAIEmbedder } from '@doctree/index';

import { OpenAIChatClient } from '../llm/openai-chat-client.js';
import { startScriptedOpenAIServer } from './scripted-openai-server.js';

describe('startScriptedOpenAIServer', () => {
  it('serves chat and embeddings on one endpoint, recording both, and answers unknown routes 404', async () => {
    const server = await startScriptedOpenAIServer({ chat: [(request) => ({ kind: 'text', text: `echo: ${request.user}` })], embeddings: { dimension: 16 } });
    try {
      const chat = new OpenAIChatClient({ baseURL: server.baseURL, maxRetries: 0 });
      expect((await chat.chat({ messages: [{ role: 'user', content: 'ping' }] })).text).toBe('echo: ping');
      const embedder = new OpenAIEmbedder({ baseURL: server.baseURL, model: 'embed', maxRetries: 0 });
      const [vector] = await embedder.embedDocuments(['revenue grew']);
      expect(vector).toHaveLength(16);
      expect(server.chatRequests.map((r) => r.user)).toEqual(['ping']);
      expect(server.embeddingRequests.map((r) => r.input)).toEqual([['revenue grew']]);
      const missing = await fetch(`${server.baseURL}/completions`, { method: 'POST', body: '{}' });
      expect(missing.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('fails loudly when the chat script is used up, and takes more replies with push', async () => {
    const server = await startScriptedOpenAIServer();
    try {
      const chat = new OpenAIChatClient({ baseURL: server.baseURL, maxRetries: 0 });
      await expect(chat.chat({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE', message: expect.stringMatching(/script exhausted/) });
      server.push({ kind: 'json', value: { ok: true } });
      expect(JSON.parse((await chat.chat({ messages: [{ role: 'user', content: 'x' }] })).text)).toEqual({ ok: true });
    } finally {
      await server.close();
    }
  });
});
