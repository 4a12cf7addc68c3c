// Swap the embedder: an Embedder of your own builds the document's dense index and embeds the questions. Extending
// `BaseEmbedder` gives validation, L2 normalisation and batching; `runEmbedderConformance` of `@doctree/index/testing`
// checks the contract. The index records the embedder's id, so changing it rebuilds the dense views.
//   node examples-dist/swap-the-embedder.js [file.pdf]     (compiled; CI compiles and runs it offline)
import { fileURLToPath } from 'node:url';
import { BaseEmbedder } from '@doctree/index';
import { openAgent } from '@doctree/pipeline';
import { resolveConfig } from '@doctree/schema';

/** Character trigrams hashed into 256 buckets: a tiny, dependency-free embedder (a stand-in for your model). */
class TrigramEmbedder extends BaseEmbedder {
  readonly id = 'trigram-256';
  readonly dimension = 256;
  texts = 0;

  protected async _embedDocuments(texts: readonly string[]): Promise<Float32Array[]> {
    this.texts += texts.length;
    return texts.map((text) => {
      const vector = new Float32Array(this.dimension);
      const padded = ` ${text.toLowerCase()} `;
      for (let i = 0; i + 3 <= padded.length; i++) {
        let h = 2166136261;
        for (let j = i; j < i + 3; j++) h = Math.imul(h ^ padded.charCodeAt(j), 16777619);
        vector[(h >>> 0) % this.dimension]! += 1;
      }
      return vector;
    });
  }
}

const sample = process.argv[2] ?? fileURLToPath(new URL('../data/samples/northwind-annual-report-2023.pdf', import.meta.url));
const { config } = resolveConfig({ env: process.env, overrides: { llm: { provider: 'none' } } });
const embedder = new TrigramEmbedder();

const { agent, document } = await openAgent(sample, { config, embedder });
const run = await agent.ask('How many people did Northwind employ at the end of 2023?');

console.log(`index embedder: ${document.manifest.embedder.id} (${document.manifest.embedder.dimension} dimensions), ${embedder.texts} texts embedded`);
console.log(`answer: ${JSON.stringify(run.answer.answer)} (pages ${run.answer.pages.join(', ')})`);
