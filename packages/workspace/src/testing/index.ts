/**
 * Test helpers of `@doctree/workspace`, published as the `@doctree/workspace/testing` subpath: the conformance suite
 * every `EvidenceRetriever` implementation runs (the built-in one over `chunks/` and `index/`, a DocTree
 * collection's, yours).
 */
export {
  EVIDENCE_RETRIEVER_CONFORMANCE_CORPUS,
  EVIDENCE_RETRIEVER_CONFORMANCE_DEFAULTS,
  runEvidenceRetrieverConformance,
  writeEvidenceConformancePdfs,
} from './evidence-retriever-conformance.js';
export type { EvidenceConformanceDocument, EvidenceRetrieverConformanceFactory, EvidenceRetrieverConformanceOptions } from './evidence-retriever-conformance.js';
