/**
 * `@doctree/pipeline`: ready-made DocTree operations composed from the other packages, used by the `doctree` CLI and
 * the eval runner.
 */
export { createIndexComponents } from './index-components.js';
export type { IndexComponents, IndexComponentsOptions } from './index-components.js';
export { prepareDocument } from './prepare-document.js';
export type { PrepareDocumentOptions, PrepareProgress, PreparedDocument } from './prepare-document.js';
export { describeIndex } from './index-report.js';
export type { IndexReport } from './index-report.js';
export { askQuestion, openAgent } from './ask-question.js';
export type { AskedQuestion, AskQuestionOptions, OpenAgentOptions, OpenedAgent } from './ask-question.js';
export { EVAL_DOCUMENTS_DEFAULTS, EvalDocuments, recordedBuildMs } from './eval-documents.js';
export type { EvalDocumentProgress, EvalDocumentsOptions } from './eval-documents.js';
export { BM25_PAGES_DEFAULTS, Bm25PagesQaSystem, createEvalSystemContext, createEvalSystems, DOCTREE_ABLATIONS, DocTreeQaSystem, EVAL_SYSTEM_IDS, RagQaSystem } from './eval-systems.js';
export type {
  Bm25PagesQaSystemOptions,
  CreateEvalSystemsOptions,
  DocTreeAblation,
  DocTreeQaSystemOptions,
  EvalSystemContext,
  EvalSystemId,
  EvalSystemsOptions,
  RagQaSystemOptions,
} from './eval-systems.js';
export { createJudgeClient, evaluateQuestions } from './evaluate-questions.js';
export type { EvaluateQuestionsOptions, EvaluateQuestionsResult } from './evaluate-questions.js';
export { runExperiment } from './run-experiment.js';
export type { ExperimentProgress, ExperimentResult, ExperimentRunResult, RunExperimentOptions } from './run-experiment.js';
