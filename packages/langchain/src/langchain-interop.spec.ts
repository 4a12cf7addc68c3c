import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import type { Document } from '@langchain/core/documents';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda, RunnableSequence } from '@langchain/core/runnables';
import { FakeListChatModel, SyntheticEmbeddings } from '@langchain/core/utils/testing';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { DocTreeAgent, ImageObserver, PdfRegionRenderer, type AskOptions } from '@doctree/agents';
import { openAgent, prepareDocument, type PreparedDocument } from '@doctree/pipeline';
import { DocTreeError, resolveConfig } from '@doctree/schema';
import { ChatModelClientFromLangChain } from './chat-model-client.js';
import { DOCTREE_CUSTOM_EVENTS, type DocTreeAnswerJson, type DocTreeDocumentMetadata } from './doctree-run.js';
import { EmbedderFromLangChain } from './embeddings.js';
import { DocTreeRetriever } from './retriever.js';
import { DocTreeRunnable } from './runnable.js';
import { createDocTreeTool } from './tool.js';

// End-to-end over a real agent: a safety bound for a loaded machine.
jest.setTimeout(30_000);

const SAMPLE_PDF = join(__dirname, '../../../data/samples/northwind-annual-report-2023.pdf');
const QUESTION = 'How many people did Northwind employ at December 31, 2023?';

/** Records what a LangChain callback handler receives, in order. */
function recorder() {
  const seen: Array<{ kind: string; name?: string; data?: unknown; runId: string; parentRunId?: string | undefined }> = [];
  const handler = BaseCallbackHandler.fromMethods({
    handleChainStart: async (_chain, _inputs, runId, ...rest: unknown[]) => {
      // The run name's position differs between LangChain versions: keep the string argument that is not an id.
      const name = rest.find((v): v is string => typeof v === 'string' && !/^[0-9a-f-]{36}$/.test(v) && v !== 'chain');
      seen.push({ kind: 'chain_start', ...(name ? { name } : {}), runId });
    },
    handleChainEnd: async (outputs, runId) => {
      seen.push({ kind: 'chain_end', data: outputs, runId });
    },
    handleChainError: async (error, runId) => {
      seen.push({ kind: 'chain_error', data: error, runId });
    },
    handleRetrieverStart: async (_retriever, _query, runId) => {
      seen.push({ kind: 'retriever_start', runId });
    },
    handleRetrieverEnd: async (docs, runId) => {
      seen.push({ kind: 'retriever_end', data: docs.length, runId });
    },
    handleCustomEvent: async (name, data, runId) => {
      seen.push({ kind: 'custom', name, data, runId });
    },
    handleChatModelStart: async (_llm, _messages, runId, parentRunId) => {
      seen.push({ kind: 'chat_model_start', runId, parentRunId });
    },
  });
  return { handler, seen };
}

describe('DocTree ⇄ LangChain over a real offline agent (sample PDF)', () => {
  let dir: string;
  let document: PreparedDocument;
  let agent: DocTreeAgent;
  const config = () => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' } } }).config;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-langchain-'));
    const pdf = join(dir, 'northwind.pdf');
    copyFileSync(SAMPLE_PDF, pdf);
    document = await prepareDocument(pdf, { config: config(), chat: null });
    agent = new DocTreeAgent({ index: document.index });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('DocTreeRetriever', () => {
    it('returns the observed evidence as Documents: the cited node first, with page, bbox, node id, score and kind', async () => {
      const docs = await new DocTreeRetriever({ agent }).invoke(QUESTION);
      expect(docs.length).toBeGreaterThan(0);
      const first = docs[0]!;
      expect(first.metadata).toMatchObject({ source: 'doctree', doc_id: 'northwind', cited: true, page: 1, kind: expect.stringMatching(/^(text|table|image)$/) });
      expect(first.pageContent).toMatch(/2,140/);
      expect(first.id).toBe(first.metadata.node_id);
      expect(document.index.view.node(first.metadata.node_id.split('#')[0]!)).toBeDefined();
      expect(first.metadata.bbox).toHaveLength(4);
      expect(first.metadata.bbox!.every((v) => Number.isFinite(v))).toBe(true);
      for (const doc of docs) {
        expect(Number.isInteger(doc.metadata.page) && doc.metadata.page >= 1 && doc.metadata.page <= 3).toBe(true);
        expect(doc.metadata.score === null || Number.isFinite(doc.metadata.score)).toBe(true);
      }
      expect(docs.some((d) => typeof d.metadata.score === 'number')).toBe(true);
      // JSON-serialisable metadata (a LangChain vector store or a trace exporter stores it).
      expect(JSON.parse(JSON.stringify(docs.map((d) => d.metadata)))).toEqual(docs.map((d) => d.metadata));
    });

    it('keeps k documents and hands the run to onRun', async () => {
      const runs: string[] = [];
      const docs = await new DocTreeRetriever({ agent, k: 1, onRun: (run) => runs.push(String(run.answer.answer)) }).invoke(QUESTION);
      expect(docs).toHaveLength(1);
      expect(runs).toEqual(['2140']);
    });

    it('reports to the callbacks: retriever start/end with the agent steps as custom events in between', async () => {
      const { handler, seen } = recorder();
      await new DocTreeRetriever({ agent }).invoke(QUESTION, { callbacks: [handler] });
      await awaitAllCallbacks();
      const kinds = seen.map((s) => (s.kind === 'custom' ? `custom:${s.name}` : s.kind));
      expect(kinds[0]).toBe('retriever_start');
      expect(kinds[kinds.length - 1]).toBe('retriever_end');
      const steps = seen.filter((s) => s.name === DOCTREE_CUSTOM_EVENTS.agentEvent).map((s) => (s.data as { type: string }).type);
      expect(steps[0]).toBe('route');
      expect(steps).toEqual(expect.arrayContaining(['plan', 'retrieve', 'read', 'judge', 'finalize']));
      const tools = seen.filter((s) => s.name === DOCTREE_CUSTOM_EVENTS.toolCall).map((s) => (s.data as { tool_id: string }).tool_id);
      expect(tools).toEqual(expect.arrayContaining(['reader.answer', 'judger.verify']));
    });

    it('rejects a bad setup with a DocTreeError', () => {
      expect(() => new DocTreeRetriever({ agent: {} as DocTreeAgent })).toThrow(DocTreeError);
      expect(() => new DocTreeRetriever({ agent, k: 0 })).toThrow(/k must be a positive integer/);
    });

    it('a cancelled call rejects with CANCELLED', async () => {
      await expect(new DocTreeRetriever({ agent }).invoke(QUESTION, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'CANCELLED' });
    });

    it('composes in a LangChain chain: retriever → prompt → chat model', async () => {
      const retriever = new DocTreeRetriever({ agent, k: 2 });
      const prompt = ChatPromptTemplate.fromMessages([
        ['system', 'Answer from the context only.'],
        ['human', 'Context:\n{context}\n\nQuestion: {question}'],
      ]);
      const model = new FakeListChatModel({ responses: ['2,140 people (page 1).'] });
      const chain = RunnableSequence.from([
        {
          context: RunnableLambda.from((q: string) => q)
            .pipe(retriever)
            .pipe((docs: Document<DocTreeDocumentMetadata>[]) => docs.map((d) => `[p.${d.metadata.page}] ${d.pageContent}`).join('\n')),
          question: (q: string) => q,
        },
        prompt,
        model,
      ]);
      const reply = await chain.invoke(QUESTION);
      expect(reply.content).toBe('2,140 people (page 1).');
    });
  });

  describe('createDocTreeTool', () => {
    it('answers { question } with JSON: answer, confidence, pages and citations with page, bbox and snippet', async () => {
      const doctree = createDocTreeTool(agent);
      expect(doctree.name).toBe('doctree_ask');
      const out = (await doctree.invoke({ question: QUESTION })) as string;
      const json = JSON.parse(out) as DocTreeAnswerJson;
      expect(json).toMatchObject({ question: QUESTION, doc_id: 'northwind', answer: 2140, pages: [1], mode: 'offline' });
      expect(json.confidence).toBeGreaterThan(0);
      expect(json.citations[0]).toMatchObject({ page: 1, snippet: expect.stringMatching(/2,140/) });
      expect(json.citations[0]!.bbox).toHaveLength(4);
    });

    it('as a tool call, returns a ToolMessage whose artifact is the answer object', async () => {
      const message = await createDocTreeTool(agent, { name: 'annual_report' }).invoke({ type: 'tool_call', id: 'call_1', name: 'annual_report', args: { question: QUESTION } });
      expect(message.tool_call_id).toBe('call_1');
      expect((message.artifact as DocTreeAnswerJson).answer).toBe(2140);
      expect(JSON.parse(message.content as string).answer).toBe(2140);
    });

    it('reports the agent steps to the callbacks of the tool call as custom events', async () => {
      const { handler, seen } = recorder();
      await createDocTreeTool(agent).invoke({ question: QUESTION }, { callbacks: [handler] });
      await awaitAllCallbacks();
      const steps = seen.filter((s) => s.name === DOCTREE_CUSTOM_EVENTS.agentEvent).map((s) => (s.data as { type: string }).type);
      expect(steps[0]).toBe('route');
      expect(steps[steps.length - 1]).toBe('finalize');
      expect(seen.some((s) => s.name === DOCTREE_CUSTOM_EVENTS.toolCall)).toBe(true);
    });

    it('tells the model about a question DocTree refuses instead of throwing; bad arguments are refused by the schema', async () => {
      const out = JSON.parse((await createDocTreeTool(agent).invoke({ question: ' ' })) as string);
      expect(out.error.code).toBe('USAGE');
      await expect(createDocTreeTool(agent).invoke({ question: 42 } as unknown as { question: string })).rejects.toThrow();
    });
  });

  describe('DocTreeRunnable', () => {
    it('invoke takes a string or { question }; batch answers several questions in order', async () => {
      const doctree = new DocTreeRunnable({ agent });
      const one = await doctree.invoke({ question: QUESTION });
      expect(one.answer).toBe(2140);
      const many = await doctree.batch([QUESTION, 'What was the total revenue of Northwind Instruments in 2023?'], { maxConcurrency: 1 });
      expect(many.map((a) => a.question)).toEqual([QUESTION, 'What was the total revenue of Northwind Instruments in 2023?']);
      expect(many[0]!.answer).toBe(2140);
      expect(many[1]!.citations.length).toBeGreaterThan(0);
      await expect(doctree.invoke(42 as unknown as string)).rejects.toMatchObject({ code: 'USAGE' });
    });

    it('callbacks get chain start and end around the agent steps, tool calls as custom events; the output is the answer JSON', async () => {
      const { handler, seen } = recorder();
      const answer = await new DocTreeRunnable({ agent }).invoke(QUESTION, { callbacks: [handler], runName: 'doctree-qa' });
      await awaitAllCallbacks();
      expect(seen[0]).toMatchObject({ kind: 'chain_start', name: 'doctree-qa' });
      const end = seen[seen.length - 1]!;
      expect(end.kind).toBe('chain_end');
      expect((end.data as DocTreeAnswerJson).answer).toBe(answer.answer);
      const customs = seen.filter((s) => s.kind === 'custom');
      expect(customs.every((s) => s.runId === seen[0]!.runId)).toBe(true);
      expect([...new Set(customs.map((s) => s.name))].sort()).toEqual([DOCTREE_CUSTOM_EVENTS.agentEvent, DOCTREE_CUSTOM_EVENTS.toolCall].sort());
      const tools = customs.filter((s) => s.name === DOCTREE_CUSTOM_EVENTS.toolCall).map((s) => s.data as { tool_id: string; status: string });
      // Retrieval stages may come from the agent's memory on a repeated question; reading and judging never do.
      expect(tools.map((t) => t.tool_id)).toEqual(expect.arrayContaining(['reader.answer', 'judger.verify']));
      expect(tools.every((t) => typeof t.tool_id === 'string' && (t.status === 'ok' || t.status === 'error'))).toBe(true);
    });

    it('handleChainError receives a failed question, and the caller gets the DocTreeError', async () => {
      const { handler, seen } = recorder();
      await expect(new DocTreeRunnable({ agent }).invoke('', { callbacks: [handler] })).rejects.toMatchObject({ code: 'USAGE' });
      await awaitAllCallbacks();
      expect(seen.map((s) => s.kind)).toEqual(['chain_start', 'chain_error']);
    });

    it('streamEvents shows the agent steps live as on_custom_event, and stream yields the answer', async () => {
      const doctree = new DocTreeRunnable({ agent });
      const events: string[] = [];
      for await (const event of doctree.streamEvents(QUESTION, { version: 'v2' })) {
        if (event.event === 'on_custom_event' && event.name === DOCTREE_CUSTOM_EVENTS.agentEvent) events.push((event.data as { type: string }).type);
        else if (event.event === 'on_chain_end') events.push('END');
      }
      expect(events[0]).toBe('route');
      expect(events.indexOf('finalize')).toBeLessThan(events.indexOf('END'));
      const chunks: DocTreeAnswerJson[] = [];
      for await (const chunk of await doctree.stream(QUESTION)) chunks.push(chunk);
      expect(chunks.map((c) => c.answer)).toEqual([2140]);
    });

    it('tool calls reach the callbacks live, between the agent steps — not after the run', async () => {
      const order: string[] = [];
      // A fresh agent: the shared one reuses the retrieval of this question from its memory.
      const fresh = new DocTreeAgent({ index: document.index });
      for await (const event of new DocTreeRunnable({ agent: fresh }).streamEvents(QUESTION, { version: 'v2' })) {
        if (event.event !== 'on_custom_event') continue;
        const data = event.data as { type?: string; tool_id?: string };
        if (event.name === DOCTREE_CUSTOM_EVENTS.agentEvent) order.push(`step:${data.type}`);
        else if (event.name === DOCTREE_CUSTOM_EVENTS.toolCall) order.push(`tool:${data.tool_id}`);
      }
      const at = (item: string) => order.indexOf(item);
      expect(at('tool:bm25_node.search')).toBeGreaterThan(at('step:plan'));
      expect(at('tool:bm25_node.search')).toBeLessThan(at('step:retrieve'));
      expect(at('tool:reader.answer')).toBeGreaterThan(at('step:retrieve'));
      expect(at('tool:reader.answer')).toBeLessThan(at('step:finalize'));
      expect(order[order.length - 1]).toBe('step:finalize');
    });

    it('an agent that does not report its trace as it goes still gets its tool calls reported, after its steps', async () => {
      // Passes the steps on, not the trace events.
      const wrapper = { ask: (question: string, options?: AskOptions) => agent.ask(question, { ...(options?.onEvent ? { onEvent: options.onEvent } : {}) }) };
      const { handler, seen } = recorder();
      await new DocTreeRunnable({ agent: wrapper }).invoke(QUESTION, { callbacks: [handler] });
      await awaitAllCallbacks();
      const tools = seen.filter((s) => s.name === DOCTREE_CUSTOM_EVENTS.toolCall).map((s) => (s.data as { tool_id: string }).tool_id);
      expect(tools).toEqual(expect.arrayContaining(['reader.answer', 'judger.verify']));
    });

    it('a signal aborted mid-run cancels the question', async () => {
      const controller = new AbortController();
      const { handler } = recorder();
      const slow = BaseCallbackHandler.fromMethods({
        handleCustomEvent: async (name) => {
          if (name === DOCTREE_CUSTOM_EVENTS.agentEvent) controller.abort();
        },
      });
      slow.awaitHandlers = true;
      await expect(new DocTreeRunnable({ agent }).invoke(QUESTION, { signal: controller.signal, callbacks: [handler, slow] })).rejects.toThrow();
      expect(controller.signal.aborted).toBe(true);
    });
  });

  describe('a LangChain fake chat model as the LLM, LangChain embeddings as the embedder', () => {
    const ROUTER = {
      query_type: 'lookup',
      candidates: [{ type: 'lookup', score: 0.9 }],
      signals: { page_hints: [], objects: [], units: [], years: [2023], operations: ['lookup'], expected_format: 'Int', keywords: ['employees', 'people'], entities: ['Northwind'] },
      risk: { level: 'low', reasons: [] },
      constraints: [],
      sub_questions: [],
      confidence: 0.8,
    };
    const READER = { answer: 2140, answer_format: 'Int', confidence: 0.92, support_node_ids: [], quote: 'employed 2,140 people' };
    const JUDGE = { pass: true, score: 0.95, failures: [] };

    it('FakeListChatModel routes, reads and judges for the agent; its calls are children of the DocTree chain run', async () => {
      const model = new FakeListChatModel({ responses: [ROUTER, READER, JUDGE].map((r) => JSON.stringify(r)) });
      const chat = new ChatModelClientFromLangChain(model);
      const llmAgent = new DocTreeAgent({ index: document.index, chat });
      const { handler, seen } = recorder();
      const answer = await new DocTreeRunnable({ agent: llmAgent }).invoke(QUESTION, { callbacks: [handler] });
      await awaitAllCallbacks();
      expect(answer).toMatchObject({ answer: 2140, mode: 'llm', pages: [1] });
      const chainRun = seen[0]!.runId;
      const modelRuns = seen.filter((s) => s.kind === 'chat_model_start');
      expect(modelRuns.length).toBe(3);
      expect(modelRuns.every((s) => s.parentRunId === chainRun)).toBe(true);
      const llmCalls = seen.filter((s) => s.name === DOCTREE_CUSTOM_EVENTS.llmCall);
      expect(llmCalls).toHaveLength(3);
      expect(llmCalls.every((s) => (s.data as { status: string }).status === 'ok')).toBe(true);
    });

    it('a model reply that is not JSON: the agent falls back to its rule components and still answers', async () => {
      const chat = new ChatModelClientFromLangChain(new FakeListChatModel({ responses: ['I think it is about two thousand.'] }));
      const run = await new DocTreeAgent({ index: document.index, chat }).ask(QUESTION);
      expect(run.answer.answer).toBe(2140);
      expect(run.decision.source).toBe('rules');
      expect(run.usage.llmCalls).toBeGreaterThan(0);
    });

    it('a LangChain vision model describes a figure: the PDF region reaches it as an image_url PNG part', async () => {
      /** A LangChain chat model that records the messages it gets and describes what it is shown. */
      class RecordingVisionModel extends BaseChatModel {
        readonly received: BaseMessage[][] = [];
        _llmType(): string {
          return 'recording-vision';
        }
        async _generate(messages: BaseMessage[]): Promise<ChatResult> {
          this.received.push(messages);
          const text = 'A bar chart with one bar per year; the last bar is the tallest.';
          return { generations: [{ text, message: new AIMessage(text) }] };
        }
      }
      const figure = [...document.index.tree.nodes.values()].find((node) => node.role === 'image' || node.role === 'chart');
      if (!figure) throw new Error('the sample PDF should hold a figure');
      const model = new RecordingVisionModel({});
      const renderer = new PdfRegionRenderer();
      try {
        const observation = await new ImageObserver({ vlm: new ChatModelClientFromLangChain(model), renderer }).observe(figure, document.index, { question: 'Which year had the most sales?' });
        expect(observation.payload).toMatchObject({ kind: 'image', source: 'vlm', description: expect.stringMatching(/^A bar chart with one bar per year/) });
      } finally {
        await renderer.close();
      }
      const parts = model.received[0]!.at(-1)!.content as Array<{ type: string; image_url?: { url: string } }>;
      expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
      const png = Buffer.from(parts[1]!.image_url!.url.replace(/^data:image\/png;base64,/, ''), 'base64');
      expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    });

    it('openAgent takes the LangChain chat model and LangChain embeddings; the index records the embeddings model', async () => {
      const pdf = join(dir, 'northwind.pdf');
      const model = new FakeListChatModel({ responses: [ROUTER, READER, JUDGE].map((r) => JSON.stringify(r)) });
      const embedder = new EmbedderFromLangChain(new SyntheticEmbeddings({ vectorSize: 32 }), { name: 'synthetic' });
      const opened = await openAgent(pdf, { config: config(), outDir: join(dir, 'lc'), chat: new ChatModelClientFromLangChain(model), summaryChat: null, embedder });
      expect(opened.document.manifest.embedder).toEqual({ id: 'langchain:synthetic:d32', dimension: 32 });
      const run = await opened.agent.ask(QUESTION);
      expect(run.answer.answer).toBe(2140);
      expect(run.usage.llmCalls).toBe(3);
    });
  });
});
