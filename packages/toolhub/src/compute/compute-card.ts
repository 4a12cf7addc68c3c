import { z } from 'zod';
import type { HubToolCard } from '../context/tool-context.js';
import { MAX_EXPRESSION_CHARS } from './expression-parser.js';
import { EVALUATE_DEFAULTS, evaluateExpression, type ComputeResult } from './expression-evaluator.js';
import { ScaleSchema } from '../table/number-text.js';

/** Variable names: letters, digits and `_`, not starting with a digit or `__`. */
const VARIABLE_NAME = /^(?!__)[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** A variable value: a number, a cell-like string, or a quantity as written (an `extract.column` cell fits). */
export const VariableInputSchema = z.union([
  z.number(),
  z.string().max(100),
  z.object({
    value: z.number().nullable(),
    unit: z.string().max(20).nullable().optional(),
    percent: z.boolean().optional(),
    scale: z.string().max(20).nullable().optional(),
  }),
]);

/** Arguments of `compute.eval`. */
export const ComputeEvalArgsSchema = z.object({
  /** The arithmetic, e.g. `percent_change(A, B)` or `(1,482) - (1,291)`. */
  expression: z.string().min(1).max(MAX_EXPRESSION_CHARS),
  /** Values of the names used (results of earlier steps). */
  variables: z
    .record(z.string(), VariableInputSchema)
    .refine((vars) => Object.keys(vars).every((k) => VARIABLE_NAME.test(k)), { message: 'variable names are letters, digits and _ (not starting with a digit or __)' })
    .default({}),
  /** Decimals kept in the displayed value. */
  precision: z.number().int().min(0).max(12).default(EVALUATE_DEFAULTS.precision),
});
/** Parsed {@link ComputeEvalArgsSchema}. */
export type ComputeEvalArgs = z.infer<typeof ComputeEvalArgsSchema>;

/** Zod schema of the data of `compute.eval` (a {@link ComputeResult}). */
export const ComputeResultSchema: z.ZodType<ComputeResult> = z.object({
  expression: z.string(),
  value: z.number(),
  unit: z.string().nullable(),
  percent: z.boolean(),
  scale: ScaleSchema.nullable(),
  display_value: z.number(),
  text: z.string(),
});

/** `compute.eval`: safe arithmetic with units, percents and scales (see {@link evaluateExpression}). */
export const computeEvalCard: HubToolCard<ComputeEvalArgs, ComputeResult> = {
  id: 'compute.eval',
  description:
    'Safe arithmetic (no code execution): + - * / ^, parentheses, numbers like 1,482 or (1,482) (negative) or 12% or $1.2 billion, variables from earlier steps, units carried (same-unit add/subtract, ratios drop units), functions abs, round, min, max, sum, avg, sqrt, diff, ratio, pct, percent_change, cagr. Args: expression, variables, precision.',
  args: ComputeEvalArgsSchema,
  output: ComputeResultSchema,
  kind: 'compute',
  async run(args) {
    return { data: evaluateExpression(args.expression, args.variables, { precision: args.precision }) };
  },
};
