// A system module for `doctree eval --systems ./word-overlap-system.mjs` and experiment files: the DocTree system
// with a retriever of your own as one more retrieval lane. The factory gets the evaluation's shared context (one
// ingest, one embedder, one reader for every system) and returns a QaSystem; `context.doctreeSystem` builds the
// DocTree agent per document with the parts `agent(index)` returns. Editing this file makes a rerun answer again.
import { BaseRetriever } from '@doctree/index';
import { navigatorFor, nodeHit } from '@doctree/toolhub';

/** Ranks the document's nodes by how many of the query's words (four letters or more) they contain. */
class WordOverlapRetriever extends BaseRetriever {
  name = 'word-overlap';

  constructor(index) {
    super();
    this.index = index;
  }

  async _retrieve(request) {
    const nav = navigatorFor(this.index);
    const words = new Set(request.query.toLowerCase().split(/\W+/).filter((w) => w.length >= 4));
    return this.index.tree.nodes
      .map((node) => ({ node, score: [...words].filter((w) => node.text.toLowerCase().includes(w)).length }))
      .filter((scored) => scored.score > 0)
      .map(({ node, score }) => nodeHit(nav, node, { method: this.name, score }));
  }
}

/** @param {import('@doctree/pipeline').EvalSystemFactoryContext} context */
export default function createSystem(context) {
  return context.doctreeSystem({
    id: 'doctree-word-overlap',
    label: 'DocTree + word-overlap lane',
    agent: (index) => ({ retrievers: [new WordOverlapRetriever(index)] }),
    parts: { retrievers: ['word-overlap'] },
  });
}
