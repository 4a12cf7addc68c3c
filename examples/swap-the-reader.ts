// Swap one component and re-measure: a custom AnswerReader plugged into both the DocTree agent and the RAG baseline,
// so the two differ only in how they find evidence.
//   node examples-dist/swap-the-reader.js [file.pdf]     (compiled; CI compiles and runs it offline)
import { fileURLToPath } from 'node:url';
import { ExtractiveReader } from '@doctree/agents';
import { openAgent } from '@doctree/pipeline';
import { RagSystem } from '@doctree/rag-baseline';
import { resolveConfig, type AnswerReader, type ReadRequest, type ReadResult } from '@doctree/schema';

/** Wraps the extractive reader and logs what it was shown: any object with `id` and `read()` is an AnswerReader. */
class LoggingReader implements AnswerReader {
  readonly id = 'logging-extractive';
  readonly shown: string[][] = [];
  readonly #inner = new ExtractiveReader();

  async read(request: ReadRequest): Promise<ReadResult> {
    this.shown.push(request.observations.map((o) => `${o.node_id}@p${o.page}`));
    return this.#inner.read(request);
  }
}

const { config } = resolveConfig({ env: process.env, overrides: { embedder: { kind: 'hashing' }, llm: { provider: 'none' } } });
const question = 'What was the revenue of the Industrial Sensors segment in 2023?';
const reader = new LoggingReader();

const sample = process.argv[2] ?? fileURLToPath(new URL('../data/samples/northwind-annual-report-2023.pdf', import.meta.url));
const { agent, document } = await openAgent(sample, { config, agent: { reader } });
const doctree = await agent.ask(question);

// The same ingest output and the same query embedder the DocTree index was built with.
const rag = await RagSystem.open(document.docDir, { embedder: document.index.embedder! });
const baseline = await rag.answer(question, { reader, decision: doctree.decision }); // same router decision, same reader

console.log(`DocTree: ${JSON.stringify(doctree.answer.answer)} from ${reader.shown[0]?.length ?? 0} observations, pages ${doctree.rankedPages.slice(0, 3).join(', ')}`);
console.log(`RAG:     ${JSON.stringify(baseline.answer.answer)} from ${reader.shown.at(-1)?.length ?? 0} chunks, pages ${baseline.rankedPages.slice(0, 3).map((p) => p.page).join(', ')}`);
