// A LangChain chat model as DocTree's LLM, offline: the agent's router, reader and judger talk to a LangChain
// FakeListChatModel (scripted replies) through ChatModelClientFromLangChain; LangChain fake embeddings are its embedder.
//   npx tsx examples/langchain-chat-model.ts        (or compile with tsc and run with node)
// Any BaseChatModel plugs in the same way: new ChatModelClientFromLangChain(new ChatAnthropic({ model: '…' })).
// Prints the answer with its citations, which component answered, and each LLM call as the agent streamed it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeListChatModel, SyntheticEmbeddings } from '@langchain/core/utils/testing';
import { ChatModelClientFromLangChain, EmbedderFromLangChain, streamAsk } from '@doctree/langchain';
import { openAgent } from '@doctree/pipeline';

const REPORT = `# Lakeside Bicycles Annual Report 2024

## Our people

At December 31, 2024 Lakeside Bicycles employed 318 people, 41 of them in the new Tampere assembly plant.

## Liquidity

Cash and equivalents were $12.3 million at year end. Capital expenditures were $4.8 million.
`;

// What a well-behaved model answers, in the order the agent asks: the router, the reader, the judger.
const replies = [
  {
    query_type: 'lookup',
    candidates: [{ type: 'lookup', score: 0.9 }],
    signals: { page_hints: [], objects: [], units: [], years: [2024], operations: ['lookup'], expected_format: 'Int', keywords: ['employed', 'people'], entities: ['Lakeside Bicycles'] },
    risk: { level: 'low', reasons: [] },
    constraints: [],
    sub_questions: [],
    confidence: 0.85,
  },
  { answer: 318, answer_format: 'Int', confidence: 0.9, support_node_ids: [], quote: 'employed 318 people' },
  { pass: true, score: 0.95, failures: [] },
].map((reply) => JSON.stringify(reply));

const dir = mkdtempSync(join(tmpdir(), 'doctree-langchain-chat-'));
try {
  const file = join(dir, 'lakeside-2024.md');
  writeFileSync(file, REPORT);
  const chat = new ChatModelClientFromLangChain(new FakeListChatModel({ responses: replies }), {
    onCall: (call) => console.log(`llm call: ${call.purpose} ${call.model} ${call.status} in ${Math.round(call.latencyMs)} ms`),
  });
  const embedder = new EmbedderFromLangChain(new SyntheticEmbeddings({ vectorSize: 32 }), { name: 'synthetic-32' });
  // summaryChat: null keeps the index summaries extractive (the scripted replies are for questions only).
  const { agent, mode } = await openAgent(file, { outDir: join(dir, 'data'), cacheDir: join(dir, 'cache'), chat, summaryChat: null, embedder });
  console.log(`agent mode: ${mode}, chat model: ${chat.model}, embedder: ${embedder.id}`);

  for await (const item of streamAsk(agent, 'How many people did Lakeside Bicycles employ at the end of 2024?')) {
    if (item.type === 'event') {
      console.log(`step ${item.event.type}: ${item.event.message}`);
      continue;
    }
    const { answer, decision, usage } = item.run;
    console.log(`answer: ${JSON.stringify(answer.answer)} (${answer.answer_format}, confidence ${answer.confidence.toFixed(2)}), routed by ${decision.source}, ${usage.llmCalls} LLM calls`);
    for (const support of answer.support) console.log(`  cites p.${support.page} ${support.node_id}: ${support.snippet}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
