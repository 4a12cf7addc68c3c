import { EvidencePackSchema, HitSchema, RouterDecisionSchema, schemasAtPath } from '@doctree/schema';
import { DEFAULT_TOOL_CARDS } from '@doctree/toolhub';
import { z } from 'zod';
import type { PlanReference } from './plan-vocabulary.js';

/**
 * What the variables a plan step reads look like, so a plan's `$VAR.path` references are checked when the plan is
 * built: the built-in variables have fixed schemas; a step's `save_as` value is `{ ...data, hits, data }` of its
 * card, whose `data` the card declares (`ToolCard.output`).
 */

/** Schema of each built-in plan variable (see `PLAN_VARIABLES`). */
export const PLAN_VARIABLE_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['question', z.string()],
  ['decision', RouterDecisionSchema],
  ['hits', z.array(HitSchema)],
  ['candidates', z.array(HitSchema)],
  ['pack', EvidencePackSchema],
]);

/** Declared data schemas of cards by tool id (`ToolCard.output`); a card absent or without one is not path-checked. */
export type CardOutputSchemas = ReadonlyMap<string, z.ZodType | undefined>;

/** The ToolHub's own cards and their data schemas: fixed, so built once. */
const DEFAULT_CARD_OUTPUTS: CardOutputSchemas = new Map(DEFAULT_TOOL_CARDS.map((card) => [card.id, card.output] as const));

/** The data schemas the ToolHub's own cards declare (reader, judger and vision cards are added by the agent). */
export function defaultCardOutputs(): CardOutputSchemas {
  return DEFAULT_CARD_OUTPUTS;
}

/**
 * What the step runner adds to the saved value of a computation (`compute.eval` from an operation or a formula): the
 * operands' nodes, the operation, the table cells and the formula with its operands, as the trace shows them.
 */
const COMPUTATION_EXTRAS = {
  operand_nodes: z.array(z.string()).optional(),
  operation: z.unknown().optional(),
  operand_cells: z.array(z.object({ node_id: z.string(), row: z.string(), column: z.string(), raw: z.string(), value: z.number() })).optional(),
  formula: z.string().optional(),
  operands: z.array(z.record(z.string(), z.unknown())).optional(),
};

/** Tools whose saved value carries {@link COMPUTATION_EXTRAS}. */
const COMPUTATION_TOOLS: ReadonlySet<string> = new Set(['compute.eval']);

/**
 * Schema of the value a step saves under `save_as`: the fields of the card's data (when it is an object), `hits` and
 * `data` itself. Without a declared data schema any field is accepted (the data is unknown).
 */
export function savedValueSchema(tool: string, data: z.ZodType | undefined): z.ZodType {
  const extras = COMPUTATION_TOOLS.has(tool) ? COMPUTATION_EXTRAS : {};
  if (data === undefined) return z.looseObject({ hits: z.array(HitSchema), data: z.unknown(), ...extras });
  const shape = objectShape(data);
  return z.object({ ...(shape ?? {}), ...extras, hits: z.array(HitSchema), data });
}

/** The keys of an object schema (through optional / nullable wrappers), or undefined for any other schema. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let current: z.ZodType = schema;
  for (let i = 0; i < 8; i++) {
    if (current instanceof z.ZodObject) return current.shape as Record<string, z.ZodType>;
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType;
    else return undefined;
  }
  return undefined;
}

/**
 * Why a reference cannot resolve against the schema of its variable, or undefined when it can: the first key of its
 * path no value of that schema has (`$TABLES.hits.0.nodeid` → `nodeid`).
 */
export function referenceProblem(reference: PlanReference, schema: z.ZodType): string | undefined {
  if (schemasAtPath(schema, reference.path).length > 0) return undefined;
  for (let n = 1; n <= reference.path.length; n++) {
    if (schemasAtPath(schema, reference.path.slice(0, n)).length === 0) {
      const at = reference.path.slice(0, n - 1);
      return `${reference.text}: $${[reference.name, ...at].join('.')} has no ${/^[0-9]+$/.test(reference.path[n - 1]!) ? `item ${reference.path[n - 1]}` : `field "${reference.path[n - 1]}"`}`;
    }
  }
  return `${reference.text} does not resolve`;
}

/**
 * The declared data schemas of a ToolHub holding the built-in cards plus `cards` (later cards with the same id, e.g.
 * replacements, win).
 */
export function cardOutputsOf(cards: Iterable<{ readonly id: string; readonly output?: z.ZodType | undefined }>, base: CardOutputSchemas = defaultCardOutputs()): CardOutputSchemas {
  const out = new Map(base);
  for (const card of cards) out.set(card.id, card.output);
  return out;
}
