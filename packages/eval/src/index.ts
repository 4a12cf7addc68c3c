/**
 * @doctree/eval — datasets (DocTree questions.jsonl, MMLongBench-Doc samples.json, FinanceBench JSONL), metrics
 * (evidence-page recall@k / hit@k / MRR, MMLongBench-Doc accuracy and F1, numeric matching with units and scale,
 * LLM-judged accuracy), the resumable evaluation runner over pluggable QA systems, and Markdown / HTML reports.
 * Depends on @doctree/schema and zod only: systems are passed in.
 */
export { loadDataset, loadQuestions, detectDatasetFormat, LOAD_QUESTIONS_DEFAULTS } from './datasets/load-questions.js';
export type { DatasetFormat, EvalDataset, LoadQuestionsOptions } from './datasets/load-questions.js';
export { parseDocTreeQuestions } from './datasets/doctree-questions.js';
export type { DatasetSource } from './datasets/doctree-questions.js';
export { parseMmLongBenchSamples, MMLONGBENCH_DEFAULTS, MMLONGBENCH_BENCHMARK } from './datasets/mmlongbench-samples.js';
export type { MmLongBenchOptions } from './datasets/mmlongbench-samples.js';
export { parseFinanceBenchJsonl, FINANCEBENCH_DEFAULTS, FINANCEBENCH_BENCHMARK } from './datasets/financebench-jsonl.js';
export type { FinanceBenchOptions } from './datasets/financebench-jsonl.js';
export { parsePythonLiteral } from './datasets/python-literal.js';
export type { PythonLiteral } from './datasets/python-literal.js';
export {
  evidenceSourceLabels,
  answerFormatLabel,
  EVIDENCE_SOURCE_LABELS,
  UNANSWERABLE_LABEL,
  FINANCIAL_STATEMENT_LABEL,
  UNKNOWN_SOURCE_LABEL,
  OPEN_FORMAT_LABEL,
} from './datasets/evidence-labels.js';

export { DEFAULT_KS, uniqueRanking, recallAtK, hitAtK, reciprocalRank, retrievalScores, percentile } from './metrics/retrieval-metrics.js';
export type { RetrievalScores } from './metrics/retrieval-metrics.js';
export {
  ANLS_THRESHOLD,
  NOT_ANSWERABLE,
  levenshteinDistance,
  anls,
  cleanAnswerString,
  isExactMatchAnswer,
  isFloatString,
  isFloatEqual,
  scoreMmLongBenchAnswer,
  accuracyAndF1,
  isDeclinedAnswer,
} from './metrics/mmlongbench-score.js';
export type { FloatEqualOptions, MmLongBenchRule, MmLongBenchScore, ScoredSample } from './metrics/mmlongbench-score.js';
export { extractNumberMentions, parseNumericAnswer, numbersMatch, NUMBER_MATCH_DEFAULTS } from './metrics/numeric-match.js';
export type { NumberMention, NumberMatchOptions } from './metrics/numeric-match.js';
export { scoreAnswer, scoreOpenAnswer, extractAnswerForFormat, SCORE_ANSWER_DEFAULTS } from './metrics/answer-score.js';
export type { AnswerRule, OpenAnswerRule, GoldAnswer, ScoreAnswerOptions, AnswerScore } from './metrics/answer-score.js';
export { goldOf, scorePrediction, groupMetrics, computeSystemMetrics, computeMetrics, assertScored } from './metrics/aggregate.js';
export type { ScoredPrediction, ScorePredictionOptions, SystemMetricsOptions, MetricsSystemInfo, ComputeMetricsOptions } from './metrics/aggregate.js';

export { JUDGE_SYSTEM_PROMPT, JUDGE_USER_TEMPLATE, JudgeReplySchema, JUDGE_DEFAULTS, fenceData, judgeMessages, parseJudgeReply, judgeAnswer } from './judge/llm-judge.js';
export type { JudgeReply, JudgeRequest, JudgeOptions } from './judge/llm-judge.js';

export { BaseQaSystem, SYSTEM_ID_PATTERN, assertSystemId, validateSystemAnswer } from './runner/qa-system.js';
export type { QaSystem, QaSystemDescription, PrepareRequest, PrepareResult, AnswerRequestOptions, LlmUsage, SystemAnswer } from './runner/qa-system.js';
export { runEvaluation, RUN_EVALUATION_DEFAULTS, EVAL_FILES } from './runner/run-evaluation.js';
export type { RunEvaluationOptions, EvaluationResult, SystemResume } from './runner/run-evaluation.js';
export { RunManifestSchema, changedSystems, readRunManifest, systemFingerprint } from './runner/run-manifest.js';
export type { RunManifest, RunSystem } from './runner/run-manifest.js';
export { readPredictions, readMetrics } from './runner/read-results.js';
export { JsonLinesAppender, readJsonLinesFile } from './runner/jsonl-store.js';
export type { JsonLinesContent } from './runner/jsonl-store.js';
export { createProgressPrinter, formatProgressLine, formatResumeLine } from './runner/progress.js';
export type { EvalProgressEvent, ProgressStream, ProgressPrinterOptions } from './runner/progress.js';

export { writeReports } from './report/write-reports.js';
export { answerText, buildTraceView, TRACE_VIEW_DEFAULTS } from './report/trace-view.js';
export type { EvidenceView, FinalView, HitView, PathStep, PlanView, ResolvedNode, RouteView, ToolCallView, TraceView, TraceViewOptions } from './report/trace-view.js';
export { isInlineImage, renderTraceViewerHtml, traceAnswerLine } from './report/trace-viewer-html.js';
export { traceViewerPath, writeTraceViewers } from './report/trace-viewers.js';
export type { TraceViewerInput, TraceViewerPage } from './report/trace-viewer-html.js';
export type { WrittenReports } from './report/write-reports.js';
export { renderMarkdownReport, markdownTableLines, markdownFence } from './report/markdown-report.js';
export { renderHtmlReport, REPORT_STYLE, tableHtml } from './report/html-report.js';
export { reportTables } from './report/report-tables.js';
export type { ReportTable } from './report/report-tables.js';
export { formatSummaryTable, summaryRows } from './report/summary-table.js';
export {
  COMPARISON_FILES,
  comparisonOverviewTable,
  mergeComparisonRuns,
  renderComparisonHtml,
  renderComparisonMarkdown,
  writeComparisonReports,
} from './report/comparison-report.js';
export type { ComparisonReport, ComparisonRun, MergedComparison, WrittenComparison } from './report/comparison-report.js';
export { recallChartSvg, accuracyBySourceSvg, reliabilityDiagramSvg } from './report/svg-charts.js';
export { calibrationMetrics, RIGHT_FROM_SCORE } from './metrics/calibration-metrics.js';
export type { CalibratedPrediction, CalibrationMetricsOptions } from './metrics/calibration-metrics.js';

export {
  EXPERIMENT_FORMAT,
  EXPERIMENT_VERSION,
  ExperimentConfigEntrySchema,
  ExperimentConfigSchema,
  ExperimentDatasetSchema,
  ExperimentFileSchema,
  MODULE_SYSTEM_PATTERN,
  isModuleSystem,
  loadExperiment,
  parseExperiment,
  parseModuleSystem,
} from './experiment/experiment-file.js';
export type { Experiment, ExperimentFile, ParseExperimentOptions } from './experiment/experiment-file.js';

export {
  COLLECTION_EVAL_FILES,
  COLLECTION_EVAL_FORMAT,
  CollectionEvalQuestionSchema,
  CollectionEvalReportSchema,
  SelectionRecordSchema,
  filterQuestions,
  formatQuestionFilter,
  parseQuestionFilter,
  renderCollectionEvalMarkdown,
  summarizeCollectionEval,
} from './collection/collection-eval.js';
export type { CollectionEvalInput, CollectionEvalQuestion, CollectionEvalReport, QuestionFilter, SelectionRecord } from './collection/collection-eval.js';
