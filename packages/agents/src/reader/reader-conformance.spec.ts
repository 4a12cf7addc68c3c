import type { ChatRequest } from '@doctree/schema';
import { FakeChatClient } from '../__fixtures__/fake-chat-client.js';
import { ExtractiveReader } from './extractive-reader.js';
import { LlmReader } from './llm-reader.js';
import { READER_CONFORMANCE_CASES, runReaderConformance } from './reader-conformance.js';

/** A model that answers each conformance question correctly, quoting the evidence. */
function scriptedModel(request: ChatRequest): string {
  const user = request.messages[1]!.content;
  const replies: Array<[string, Record<string, unknown>]> = [
    ['operating margin', { answer: 18.5, answer_format: 'Float', support_node_ids: ['chunk-1'], quote: 'Operating margin improved to 18.5%' }],
    ['revenue for fiscal 2022', { answer: 4.1, answer_format: 'Float', support_node_ids: ['chunk-2'], quote: 'Revenue for fiscal 2022 was $4.1 billion' }],
    ['net income', { answer: 812, answer_format: 'Int', support_node_ids: ['tab_4'], quote: 'Net income | 812' }],
  ];
  const hit = replies.find(([key]) => user.includes(key) && !user.includes('Evidence: none'));
  const reply = hit && !user.includes('chief executive') ? hit[1] : { answer: 'Not answerable', answer_format: 'None', support_node_ids: [] };
  return JSON.stringify({ confidence: 0.8, quote: '', ...reply });
}

runReaderConformance('extractive', (options) => new ExtractiveReader(options));
runReaderConformance('llm (scripted model)', (options) => new LlmReader({ ...options, client: new FakeChatClient([scriptedModel]) }));
runReaderConformance('llm (malformed replies → extractive fallback)', (options) => new LlmReader({ ...options, client: new FakeChatClient(['not json at all']) }));

it('has conformance cases of every answer shape', () => {
  expect(new Set(READER_CONFORMANCE_CASES.flatMap((c) => c.formats))).toEqual(new Set(['Float', 'Int', 'None']));
});
