import { z } from 'zod';

/**
 * Domain packs: the field knowledge DocTree reads questions and documents with — concepts and the wordings documents
 * use for them, abbreviations, statement (source) names, the words that mark a question as asking for a reported
 * quantity, and how to recognise a document of the field. Plain JSON data: a user writes one for their field and
 * points `domain.pack` of the configuration at it. Patterns are regular-expression *source strings* (case-insensitive,
 * at most {@link DOMAIN_PACK_PATTERN_MAX} characters), compiled when the pack is loaded.
 */

/** Current format version of a domain pack file. */
export const DOMAIN_PACK_VERSION = 1;

/** Longest pattern source a pack may hold (patterns are compiled once at load). */
export const DOMAIN_PACK_PATTERN_MAX = 400;

const Pattern = z.string().min(1).max(DOMAIN_PACK_PATTERN_MAX);
const Phrase = z.string().min(1).max(200);

/** A concept a question may name, with the wordings evidence uses for it. */
export const DomainConceptSchema = z.object({
  /** Short name, recorded in notes and traces. */
  name: Phrase,
  /** Patterns of the question wording that name the concept (besides its aliases). */
  triggers: z.array(Pattern).default([]),
  /** Wordings in evidence (matched on word boundaries, punctuation-insensitive, abbreviations written out). */
  aliases: z.array(Phrase).min(1),
  /** An outflow reported as a negative (parenthesised) amount; its magnitude answers "what is the amount". */
  outflow: z.boolean().default(false),
  /** Not a tabular line item (read from text as often as from tables). */
  general: z.boolean().default(false),
});
export type DomainConcept = z.infer<typeof DomainConceptSchema>;

/** A named source inside documents (a financial statement, a datasheet section…) and the rows it usually holds. */
export const DomainStatementSchema = z.object({
  /** Canonical name, as recorded in `source:` constraints. */
  name: Phrase,
  /** Patterns of the ways questions name it. */
  triggers: z.array(Pattern).min(1),
  /** Row words typical of it (planners search them when the question names the source but no row). */
  rows: z.array(Phrase).default([]),
});
export type DomainStatement = z.infer<typeof DomainStatementSchema>;

/** How a document of the field is recognised from its first pages' text. */
export const DomainDetectSchema = z.object({
  /** Phrases (case-insensitive, whole words) typical of the field's documents: `form 10-k`, `balance sheets`. */
  phrases: z.array(Phrase).default([]),
  /** Distinct phrases needed to choose the pack. */
  min_hits: z.number().int().positive().default(2),
  /** How many first pages are read. */
  first_pages: z.number().int().positive().default(5),
});
export type DomainDetect = z.infer<typeof DomainDetectSchema>;

/** Variable names a measure's formula may use for its operands. */
const OperandName = z.string().regex(/^[A-H]$/);

/** One operand of a measure: a concept of the pack (by name) or a line-item phrase, and how its cells are reduced. */
export const DomainMeasureOperandSchema = z.object({
  /** Variable of the formula (`A`…`H`). */
  name: OperandName,
  /** A concept name of the pack (`total assets`: found by the concept's wordings) or a line-item phrase (`income before income taxes`). */
  item: Phrase,
  /**
   * `value` (default): the cell of the year asked — a flow over the year, or a balance at its end. `average`: the
   * mean of the balances at the end of the year asked and of the year before (the average-balance convention of
   * turnover and return ratios).
   */
  reduce: z.enum(['value', 'average']).default('value'),
});
export type DomainMeasureOperand = z.infer<typeof DomainMeasureOperandSchema>;

/**
 * A named measure of the field ("quick ratio", "asset turnover"): a question that names it without defining it is
 * answered by computing its formula over its operands, each gathered with its own support.
 */
export const DomainMeasureSchema = z.object({
  /** Short name, recorded in traces. */
  name: Phrase,
  /** Wordings that name the measure in questions (whole words, case-insensitive; hyphens and spaces alike). */
  aliases: z.array(Phrase).min(1),
  /** Patterns of other question wordings that name it (abbreviations, word orders). */
  triggers: z.array(Pattern).default([]),
  /** Arithmetic over the operand names, numbers, `+ - * /` and parentheses (`A / B`, `365 * A / B`, `(A - B) / C`). */
  formula: z.string().min(1).max(200),
  operands: z.array(DomainMeasureOperandSchema).min(1).max(8),
  /** The result is shown as a percentage (the formula's value × 100). */
  percent: z.boolean().default(false),
  /** The definition and its conventions in words, for people reading the pack and the trace. */
  description: z.string().max(1000).optional(),
});
export type DomainMeasure = z.infer<typeof DomainMeasureSchema>;

/** A domain pack file (`format: "doctree.domain-pack"`). */
export const DomainPackSchema = z.object({
  format: z.literal('doctree.domain-pack'),
  version: z.number().int(),
  /** Pack name (`generic`, `finance`, `clinical-trials`…). */
  name: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/),
  description: z.string().max(2000).optional(),
  /** A built-in pack this one adds to (`generic` when absent; `finance` to extend the finance pack). */
  extends: z.enum(['generic', 'finance', 'none']).optional(),
  /** Abbreviations (lower case) and their written-out forms. */
  abbreviations: z.array(z.object({ short: Phrase, long: Phrase })).default([]),
  concepts: z.array(DomainConceptSchema).default([]),
  statements: z.array(DomainStatementSchema).default([]),
  /** Patterns of question words that mark a reported quantity of the field (the router's tabular-number evidence). */
  quantity_terms: z.array(Pattern).default([]),
  /** Row-label beginnings that mark an outflow (`purchases`, `payments`): amounts shown negative. */
  outflow_label_words: z.array(Phrase).default([]),
  /** Words that name an amount asked for (`fees`, `sales`): the reader then expects a number. */
  amount_words: z.array(Phrase).default([]),
  /** Named measures of the field and their formulas over the pack's concepts (optional: a pack may name none). */
  measures: z.array(DomainMeasureSchema).default([]),
  /**
   * Words of metrics where a lower value is better (`error`, `latency`): "which is best" asks their minimum. Matched
   * as whole words in a column header or row label.
   */
  lower_is_better: z.array(Phrase).default([]),
  detect: DomainDetectSchema.optional(),
});
export type DomainPack = z.infer<typeof DomainPackSchema>;
/** The input (file) form of a domain pack: fields with defaults may be left out. */
export type DomainPackInput = z.input<typeof DomainPackSchema>;

/** The `domain` section of the configuration. */
export const DomainConfigSchema = z.object({
  /**
   * `auto` (default: the document chooses — finance for 10-K / 10-Q / annual reports / earnings releases, else
   * generic), `generic`, `finance`, or the path of a domain pack JSON file (relative to the working folder).
   */
  pack: z.string().min(1).default('auto'),
});
export type DomainConfig = z.infer<typeof DomainConfigSchema>;
