import { z } from 'zod';
import { AnswerSchema, EvidencePackSchema, HitSchema, ObservationSchema, RouterDecisionSchema, StrategyPlanSchema, ToolCallSchema, ToolResultSchema, TraceSchema } from './agent.js';
import { CollectionManifestSchema, CollectionStatusReportSchema, CollectionSyncReportSchema, PageIndexDocumentSchema } from './collection.js';
import { DocTreeConfigSchema } from './config.js';
import { DomainPackSchema } from './domain-pack.js';
import { QuestionAnalysisSchema } from './question-analysis.js';
import { ContentListSchema, MinerUContentListSchema } from './content-list.js';
import { DocTreeSchema } from './doctree.js';
import { MetricsFileSchema, MetricsSchema, PredictionSchema, QuestionSchema } from './eval.js';
import {
  DenseCoarseRecordSchema,
  DenseLeafRecordSchema,
  DocPagesSchema,
  DocSummarySchema,
  GraphEdgeSchema,
  IdMapsSchema,
  IndexManifestSchema,
  PageSparseDocSchema,
  SparseDocSchema,
} from './index-records.js';
import { RagChunkSchema, RagManifestSchema, RagParentSchema } from './rag-records.js';

/** Every schema that crosses a package boundary or touches disk, by the file name of its JSON Schema. */
export const ARTIFACT_SCHEMAS = {
  'content-list': ContentListSchema,
  'mineru-content-list': MinerUContentListSchema,
  doctree: DocTreeSchema,
  'dense-coarse-record': DenseCoarseRecordSchema,
  'dense-leaf-record': DenseLeafRecordSchema,
  'sparse-doc': SparseDocSchema,
  'page-sparse-doc': PageSparseDocSchema,
  pages: DocPagesSchema,
  'graph-edge': GraphEdgeSchema,
  'id-maps': IdMapsSchema,
  summary: DocSummarySchema,
  'index-manifest': IndexManifestSchema,
  'rag-parent': RagParentSchema,
  'rag-chunk': RagChunkSchema,
  'rag-manifest': RagManifestSchema,
  'router-decision': RouterDecisionSchema,
  'strategy-plan': StrategyPlanSchema,
  'tool-call': ToolCallSchema,
  'tool-result': ToolResultSchema,
  hit: HitSchema,
  observation: ObservationSchema,
  'evidence-pack': EvidencePackSchema,
  answer: AnswerSchema,
  trace: TraceSchema,
  question: QuestionSchema,
  prediction: PredictionSchema,
  metrics: MetricsSchema,
  'metrics-file': MetricsFileSchema,
  config: DocTreeConfigSchema,
  'domain-pack': DomainPackSchema,
  'question-analysis': QuestionAnalysisSchema,
  'collection-manifest': CollectionManifestSchema,
  'collection-status': CollectionStatusReportSchema,
  'collection-sync': CollectionSyncReportSchema,
  'pageindex-document': PageIndexDocumentSchema,
} as const;

/** Names of the artifact schemas. */
export type ArtifactSchemaName = keyof typeof ARTIFACT_SCHEMAS;

/**
 * JSON Schema (draft 2020-12) of every artifact, keyed by name; `npm run schemas` writes them to
 * `docs/schemas/<name>.json`. Describes the input side (fields with defaults are optional).
 */
export function artifactJsonSchemas(): Record<ArtifactSchemaName, unknown> {
  const out = {} as Record<ArtifactSchemaName, unknown>;
  for (const [name, schema] of Object.entries(ARTIFACT_SCHEMAS) as Array<[ArtifactSchemaName, z.ZodType]>) {
    out[name] = { $id: `https://doctree.dev/schemas/${name}.json`, ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) };
  }
  return out;
}
