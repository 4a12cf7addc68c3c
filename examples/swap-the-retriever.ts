// Swap the retriever: a retriever of your own becomes a retrieval lane of the DocTree agent. The planner runs it in
// every text stage beside the built-in keyword and dense lanes, fusion ranks its hits with theirs, and the trace
// shows each call. Anything implementing `Retriever` works; extending `BaseRetriever` (and running
// `runRetrieverConformance` of `@doctree/index/testing` on it) keeps the contract every lane relies on.
//   node examples-dist/swap-the-retriever.js [file.pdf]     (compiled; CI compiles and runs it offline)
import { fileURLToPath } from 'node:url';
import { BaseRetriever, type DocIndex } from '@doctree/index';
import { openAgent } from '@doctree/pipeline';
import { resolveConfig, type Hit, type RetrieveRequest } from '@doctree/schema';
import { navigatorFor, nodeHit, replayToolCalls } from '@doctree/toolhub';

/** Ranks the document's nodes by how many of the query's words (four letters or more) they contain. */
class WordOverlapRetriever extends BaseRetriever {
  readonly name = 'word-overlap';
  calls = 0;

  constructor(private readonly index: DocIndex) {
    super();
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    this.calls++;
    const nav = navigatorFor(this.index);
    const words = new Set(request.query.toLowerCase().split(/\W+/).filter((w) => w.length >= 4));
    return this.index.tree.nodes
      .map((node) => ({ node, score: [...words].filter((w) => node.text.toLowerCase().includes(w)).length }))
      .filter((scored) => scored.score > 0)
      .map(({ node, score }) => nodeHit(nav, node, { method: this.name, score }));
  }
}

const sample = process.argv[2] ?? fileURLToPath(new URL('../data/samples/northwind-annual-report-2023.pdf', import.meta.url));
const { config } = resolveConfig({ env: process.env, overrides: { embedder: { kind: 'hashing' }, llm: { provider: 'none' } } });

// The retriever needs the document's index, so the agent is opened once to prepare it, then with the lane.
const { document } = await openAgent(sample, { config });
const lane = new WordOverlapRetriever(document.index);
const { agent } = await openAgent(sample, { config, agent: { retrievers: [lane] } });
const run = await agent.ask('What was the revenue of the Industrial Sensors segment in 2023?');

const calls = replayToolCalls(run.answer.trace).filter((call) => call.tool_id === 'word_overlap.search');
console.log(`lane word_overlap.search: ${calls.length} call(s), ${calls.reduce((n, call) => n + call.hits.length, 0)} hits, retriever called ${lane.calls} time(s)`);
console.log(`stages: ${run.plan.stages.map((stage) => `${stage.stage}[${stage.methods.join('+')}]`).join(', ')}`);
console.log(`answer: ${JSON.stringify(run.answer.answer)} (pages ${run.answer.pages.join(', ')})`);
