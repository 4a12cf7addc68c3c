import { OpenAIChatClient } from '../llm/openai-chat-client.js';
import { runJudgerConformance } from '../testing/judger-conformance.js';
import { startScriptedOpenAIServer } from '../testing/scripted-openai-server.js';
import type { RecordedChatRequest, ScriptedChatReply, ScriptedOpenAIServer } from '../testing/scripted-openai-server.js';
import { JUDGER_SYSTEM_PROMPT, LlmJudger } from './llm-judger.js';

/** The scripted model: approves every answer it is shown, so only the rule checks can fail a verdict; anything else is an error. */
function approving(request: RecordedChatRequest): ScriptedChatReply {
  if (request.system !== JUDGER_SYSTEM_PROMPT) return { kind: 'status', status: 400, body: { error: { message: 'unexpected prompt' } } };
  return { kind: 'json', value: { pass: true, score: 0.9, failures: [] } };
}

let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ chatFallback: approving });
});
afterAll(async () => {
  await server.close();
});

runJudgerConformance('LlmJudger (ChatOpenAI against the scripted server)', (options) => {
  const client = new OpenAIChatClient({ baseURL: server.baseURL, apiKey: 'sk-judger-test', model: 'judger-model', maxRetries: 0, timeoutMs: 5000, retryBaseDelayMs: 1 });
  return new LlmJudger({ client, ...options });
});

describe('LlmJudger against the scripted server', () => {
  it('asks the model with the judge prompt for an answer the rules pass', async () => {
    const before = server.chatRequests.length;
    const client = new OpenAIChatClient({ baseURL: server.baseURL, apiKey: 'sk-judger-test', model: 'judger-model', maxRetries: 0, timeoutMs: 5000, retryBaseDelayMs: 1 });
    const verdict = await new LlmJudger({ client }).judge({
      question: 'What was the capital expenditure in fiscal 2018 (in USD millions)?',
      observations: [{ node_id: 't_1', modality: 'text', payload: { kind: 'text', text: 'Capital expenditure was $1,482 million in fiscal 2018.', heading_path: [] }, page: 1, bbox: null }],
      result: { answer: 1482, answer_format: 'Int', confidence: 0.9, support: [{ node_id: 't_1', page: 1, bbox: null, char_start: 0, char_end: 53, snippet: 'Capital expenditure was $1,482 million in fiscal 2018' }] },
    });
    expect(verdict).toMatchObject({ pass: true, action: 'accept', judge: 'llm:judger-model' });
    expect(server.chatRequests.length).toBe(before + 1);
    expect(server.chatRequests.at(-1)!.user).toContain('<<<EVIDENCE');
  });
});
