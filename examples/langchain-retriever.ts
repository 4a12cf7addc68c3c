// DocTree inside a LangChain chain, offline: DocTree as a retriever (evidence → Documents with page, box and node id)
// and as a tool (question → answer JSON with citations), and a LangChain Embeddings as DocTree's embedder.
//   npx tsx examples/langchain-retriever.ts        (or compile with tsc and run with node)
// It writes a small made-up report to a temporary folder, indexes it, and prints the documents, the chain's reply and
// the tool's answer. Swap the stand-ins for real models: OpenAIEmbeddings / OllamaEmbeddings, ChatAnthropic / ChatOllama.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Embeddings } from '@langchain/core/embeddings';
import type { Document } from '@langchain/core/documents';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda, RunnableSequence } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { createDocTreeTool, DocTreeRetriever, EmbedderFromLangChain, type DocTreeAnswerJson, type DocTreeDocumentMetadata } from '@doctree/langchain';
import { openAgent } from '@doctree/pipeline';

const REPORT = `# Lakeside Bicycles Annual Report 2024

## Results of operations

Net sales rose 9% to $61.4 million in 2024, led by the cargo bike line and higher volumes in Scandinavia.
Gross margin was 38.2%, up from 36.9% in 2023, as component costs eased in the second half.

## Our people

At December 31, 2024 Lakeside Bicycles employed 318 people, 41 of them in the new Tampere assembly plant.

## Liquidity

Cash and equivalents were $12.3 million at year end. Capital expenditures were $4.8 million, mostly for the Tampere plant.
`;

/** A stand-in for a real embeddings model (OpenAIEmbeddings, OllamaEmbeddings…): hashed word counts, offline. */
class KeywordEmbeddings extends Embeddings {
  readonly model = 'keyword-hash-256';
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.#vector(text));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.#vector(text);
  }
  #vector(text: string): number[] {
    const vector = new Array<number>(256).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let hash = 2166136261;
      for (const char of word) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
      vector[hash % 256] = (vector[hash % 256] ?? 0) + 1;
    }
    return vector;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'doctree-langchain-retriever-'));
try {
  const file = join(dir, 'lakeside-2024.md');
  writeFileSync(file, REPORT);
  const embedder = new EmbedderFromLangChain(new KeywordEmbeddings());
  const { agent } = await openAgent(file, { outDir: join(dir, 'data'), cacheDir: join(dir, 'cache'), chat: null, embedder });
  const question = 'How many people did Lakeside Bicycles employ at the end of 2024?';

  // 1) DocTree as a LangChain retriever.
  const retriever = new DocTreeRetriever({ agent, k: 3 });
  const docs = await retriever.invoke(question);
  for (const doc of docs) {
    const { page, node_id, score, cited, kind } = doc.metadata;
    console.log(`document: p.${page} ${node_id} ${kind}${cited ? ' (cited)' : ''} score ${score === null ? '-' : score.toFixed(3)}: ${doc.pageContent.replace(/\s+/g, ' ').slice(0, 80)}`);
  }

  // 2) The retriever in a chain: retriever → prompt → chat model (a scripted stand-in for ChatAnthropic / ChatOllama).
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'Answer from the context only and cite the page.'],
    ['human', 'Context:\n{context}\n\nQuestion: {question}'],
  ]);
  const chain = RunnableSequence.from([
    {
      context: RunnableLambda.from((q: string) => q)
        .pipe(retriever)
        .pipe((found: Document<DocTreeDocumentMetadata>[]) => found.map((d) => `[p.${d.metadata.page}] ${d.pageContent}`).join('\n')),
      question: (q: string) => q,
    },
    prompt,
    new FakeListChatModel({ responses: ['Lakeside Bicycles employed 318 people at the end of 2024 (p.1).'] }),
  ]);
  const reply = await chain.invoke(question);
  console.log(`chain reply: ${String(reply.content)}`);

  // 3) DocTree as a tool a model can call: JSON with the answer and its citations.
  const doctree = createDocTreeTool(agent);
  const answer = JSON.parse(String(await doctree.invoke({ question }))) as DocTreeAnswerJson;
  console.log(`tool answer: ${JSON.stringify(answer.answer)} (${answer.answer_format}, confidence ${answer.confidence.toFixed(2)}), pages ${answer.pages.join(', ')}`);
  for (const citation of answer.citations) console.log(`  cites p.${citation.page} ${citation.node_id}: ${citation.snippet}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
