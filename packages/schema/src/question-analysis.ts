import { z } from 'zod';
import { AnswerFormatSchema, OperationSchema, QueryObjectSchema } from './agent.js';
import { PageNumberSchema } from './common.js';

/**
 * The one reading of a question that router, planner, reader and judger share: computed once per question
 * (`analyzeQuestion` of `@doctree/agents`), carried in the router decision and traced.
 */

/** A definition the question gives ("Yield is defined as: harvest weight / planted area"). */
export const QuestionDefinitionSchema = z.object({
  /** The defined term, as written. */
  term: z.string(),
  /** The formula as written. */
  formula: z.string(),
  /** `ratio` (A / B), `difference` (A − B), `sum` (A + B), `product` (A × B). */
  operation: z.enum(['ratio', 'difference', 'sum', 'product']).optional(),
  /** The operands, in order. */
  operands: z.array(z.string()).default([]),
});
export type QuestionDefinition = z.infer<typeof QuestionDefinitionSchema>;

/** The typed analysis of one question. */
export const QuestionAnalysisSchema = z.object({
  question: z.string(),
  /** The domain pack it was read with. */
  pack: z.string(),
  /** The sentence that asks (instructions around it left out). */
  asking: z.string(),
  operations: z.array(OperationSchema),
  /** The two sides a question combines ("ratio of A to B"), in operand order, with the operation. */
  operands: z.object({ operation: z.enum(['ratio', 'percent', 'difference', 'sum', 'compare']), sides: z.tuple([z.string(), z.string()]) }).optional(),
  /** Line items asked, as row phrases. */
  line_items: z.array(z.string()),
  years: z.array(z.number().int()),
  quarter: z.string().optional(),
  /** Units named (`$`, `%`, `bps`…) without scale words. */
  units: z.array(z.string()),
  /** Every unit and scale word as the router reports them (`$`, `millions`…). */
  unit_words: z.array(z.string()),
  scale: z.enum(['thousands', 'millions', 'billions']).optional(),
  /** Decimal places asked. */
  round: z.number().int().nonnegative().optional(),
  expected_format: AnswerFormatSchema,
  list: z.boolean(),
  count: z.boolean(),
  yes_no: z.boolean(),
  /** 1-based pages named. */
  pages: z.array(PageNumberSchema),
  /** "last page" named while the page count is unknown. */
  last_page: z.boolean(),
  objects: z.array(QueryObjectSchema),
  /** Statements / sources named (by the pack). */
  sources: z.array(z.string()),
  entities: z.array(z.string()),
  keywords: z.array(z.string()),
  /** Concepts of the pack the question names. */
  concepts: z.array(z.string()),
  /** Words documents use for what the question names (query expansion from the pack). */
  aliases: z.array(z.string()),
  /** The question names a reported quantity of the pack's field. */
  domain_quantity: z.boolean(),
  definitions: z.array(QuestionDefinitionSchema),
});
export type QuestionAnalysis = z.infer<typeof QuestionAnalysisSchema>;
