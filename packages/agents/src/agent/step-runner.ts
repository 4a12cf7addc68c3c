import type { StrategyPlan, ToolResult } from '@doctree/schema';
import type { ToolHub } from '@doctree/toolhub';
import type { PlanFlag } from '../planner/plan-vocabulary.js';
import { resolveStepArgs } from './plan-variables.js';
import { adaptStepArgs } from './step-adapters.js';

/** Options of {@link runPlanSteps}. */
export interface RunPlanStepsOptions {
  hub: ToolHub;
  plan: StrategyPlan;
  /** Variables steps read (`question`, `decision`, `hits`, `candidates`, `pack`); steps add their `save_as` values. */
  variables: Map<string, unknown>;
  /** Steps whose tool is listed here are not run (e.g. the agent runs the reader itself). Default none. */
  skipTools?: ReadonlySet<string>;
  signal?: AbortSignal;
  /**
   * Awaited before each step (the agent's cooperative pause: yields to the event loop after a few ms of work and throws
   * `CANCELLED` once the signal aborts), so extraction, computation, reading and judging are separate stretches. Default none.
   */
  pause?: () => Promise<void>;
}

/** What happened to one step. */
export interface StepOutcome {
  step_id: string;
  tool: string;
  status: 'ok' | 'error' | 'skipped';
  /** Why it was skipped, or the error of a failed call. */
  note?: string;
  n_hits: number;
}

/** Result of {@link runPlanSteps}. */
export interface PlanStepsResult {
  outcomes: StepOutcome[];
  /** Flags for fallback conditions: `extract_empty`, `visual_low_conf`. */
  flags: PlanFlag[];
}

/** Steps that run whatever happened to the steps they depend on (their missing inputs are left out). */
const TERMINAL_TOOLS = new Set(['reader.answer', 'judger.verify']);
const EXTRACT_TOOLS = new Set(['extract.column', 'extract.heading_first', 'table_index.search']);

/** The value a step saves: its data's fields (when an object), plus `hits` and `data` themselves. */
export function savedValue(result: ToolResult): Record<string, unknown> {
  const data = result.data;
  const fields = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  return { ...fields, hits: result.hits, data };
}

function isEmptyExtraction(tool: string, result: ToolResult): boolean {
  if (tool === 'extract.column') {
    const cells = (result.data as { cells?: Array<{ value: unknown }> } | undefined)?.cells ?? [];
    return !cells.some((c) => typeof c.value === 'number');
  }
  return result.hits.length === 0;
}

/**
 * The steps executor (docs/design/agent-loop.md §5; no LLM of its own): runs a plan's steps one after another through the ToolHub
 * — `$VAR` / `$VAR.path` references resolved against the variables, arguments adapted to the card's form
 * (`compute.eval` from an operation and operands…), each output saved under `save_as`. A step whose dependencies
 * failed or whose inputs are missing is skipped (the reader and judger run anyway, without the missing inputs); a
 * failed call is an error outcome and the loop goes on. Skips are traced as `plan` events, calls as `tool_call` events.
 */
export async function runPlanSteps(options: RunPlanStepsOptions): Promise<PlanStepsResult> {
  const { hub, plan, variables } = options;
  const outcomes: StepOutcome[] = [];
  const status = new Map<string, StepOutcome['status']>();
  const flags = new Set<PlanFlag>();
  const skip = (step: StrategyPlan['steps'][number], note: string): void => {
    outcomes.push({ step_id: step.step_id, tool: step.tool, status: 'skipped', note, n_hits: 0 });
    status.set(step.step_id, 'skipped');
    hub.trace.record({ type: 'plan', message: `step ${step.step_id} (${step.tool}) skipped: ${note}`, data: { step: step.step_id, tool: step.tool, status: 'skipped' } });
    if (EXTRACT_TOOLS.has(step.tool)) flags.add('extract_empty');
    if (step.tool.startsWith('vlm.')) flags.add('visual_low_conf');
  };
  for (const step of plan.steps) {
    await options.pause?.();
    if (options.signal?.aborted) break;
    if (options.skipTools?.has(step.tool)) continue;
    const terminal = TERMINAL_TOOLS.has(step.tool);
    const failedDeps = step.depends_on.filter((dep) => status.get(dep) !== 'ok');
    if (failedDeps.length > 0 && !terminal) {
      skip(step, `depends on ${failedDeps.join(', ')}, which did not succeed`);
      continue;
    }
    const resolved = resolveStepArgs(step.args, variables);
    if (resolved.missing.length > 0 && !terminal) {
      skip(step, `no value for ${resolved.missing.join(', ')}`);
      continue;
    }
    const adapted = adaptStepArgs(step.tool, resolved.args, hub.context.nav);
    if ('skip' in adapted) {
      skip(step, adapted.skip);
      continue;
    }
    const result = await hub.call(step.tool, adapted.args, options.signal ? { signal: options.signal } : {});
    const ok = result.status === 'ok';
    outcomes.push({ step_id: step.step_id, tool: step.tool, status: ok ? 'ok' : 'error', n_hits: result.hits.length, ...(result.error ? { note: `[${result.error.code}] ${result.error.message}` } : {}) });
    status.set(step.step_id, ok ? 'ok' : 'error');
    if (ok && adapted.operands !== undefined) {
      // A formula computation: the trace shows its operands (line item, row, value, year, page, node), formula and result.
      const data = result.data as { text?: unknown; display_value?: unknown } | undefined;
      const computed = { formula: adapted.formula ?? String(adapted.args['expression']), expression: adapted.args['expression'], operands: adapted.operands, result: data?.display_value, text: data?.text };
      hub.trace.record({
        type: 'plan',
        message: `step ${step.step_id} computed ${computed.formula} = ${String(data?.text ?? data?.display_value)} from ${adapted.operands.map((o) => `${o.name} "${o.label}"${o.year !== undefined ? ` ${o.year}` : ''} = ${o.raw} (p.${o.page ?? '?'}, ${o.node_id})`).join('; ')}`,
        data: { step: step.step_id, tool: step.tool, compute: computed },
      });
    }
    if (ok && step.save_as !== undefined) {
      const saved = savedValue(result);
      variables.set(
        step.save_as,
        adapted.operandNodes
          ? {
              ...saved,
              operand_nodes: adapted.operandNodes,
              operation: step.args['operation'],
              ...(adapted.operandCells ? { operand_cells: adapted.operandCells } : {}),
              ...(adapted.formula !== undefined ? { formula: adapted.formula } : {}),
              ...(adapted.operands !== undefined ? { operands: adapted.operands } : {}),
            }
          : saved,
      );
    }
    if (EXTRACT_TOOLS.has(step.tool) && (!ok || isEmptyExtraction(step.tool, result))) flags.add('extract_empty');
    if (step.tool.startsWith('vlm.') && !ok) flags.add('visual_low_conf');
  }
  return { outcomes, flags: [...flags] };
}
