import { DocTreeError } from '@doctree/schema';
import type { StrategyPlan, ToolCard } from '@doctree/schema';
import { z } from 'zod';
import { RuleRouter } from '../router/rule-router.js';
import { checkPlan } from './base-planner.js';
import { cardOutputsOf, defaultCardOutputs } from './plan-references.js';
import { PLANNER_TOOL_IDS } from './plan-vocabulary.js';
import { TemplatePlanner } from './template-planner.js';

const lookup = new TemplatePlanner().planFor(new RuleRouter().decide('What is the operating margin of the parts business in the segment table?'));

/** The lookup plan with `steps` before its reader and judger. */
function withSteps(steps: StrategyPlan['steps']): StrategyPlan {
  return { ...lookup, steps: [...steps, ...lookup.steps] };
}

const tableStep = { step_id: 'X1', tool: 'table_index.search', args: { query: '$question', k: 5 }, save_as: 'MY_TABLES', depends_on: [] };
const columnStep = (nodeRef: string) => ({ step_id: 'X2', tool: 'extract.column', args: { node_id: nodeRef }, save_as: 'MY_CELLS', depends_on: ['X1'] });

function problemOf(plan: StrategyPlan, options: Parameters<typeof checkPlan>[1] = {}): string | undefined {
  try {
    checkPlan(plan, options);
    return undefined;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error.message;
    throw error;
  }
}

describe('checkPlan: references are checked against the data schemas the cards declare', () => {
  it('accepts a path the card returns and refuses a misspelt field, naming the step, the field and who saves it', () => {
    expect(problemOf(withSteps([tableStep, columnStep('$MY_TABLES.hits.0.node_id')]))).toBeUndefined();
    const problem = problemOf(withSteps([tableStep, columnStep('$MY_TABLES.hits.0.nodeid')]));
    expect(problem).toMatch(/step X2 reads \$MY_TABLES\.hits\.0\.nodeid: \$MY_TABLES\.hits\.0 has no field "nodeid"/);
    expect(problem).toMatch(/step X1 \(table_index\.search\)/);
  });

  it('checks fields of the data a step saves (compute.eval result, extract.column cells) and built-in variables', () => {
    const compute = { step_id: 'XC', tool: 'compute.eval', args: { expression: 'A', variables: { A: '$MY_CELLS.cells.0' } }, save_as: 'MY_VALUE', depends_on: ['X2'] };
    const use = (ref: string) => ({ step_id: 'U', tool: 'structure.children', args: { title: ref }, save_as: 'MY_OUT', depends_on: ['XC'] });
    expect(problemOf(withSteps([tableStep, columnStep('$MY_TABLES.hits.0.node_id'), compute, use('$MY_VALUE.text')]))).toBeUndefined();
    expect(problemOf(withSteps([tableStep, columnStep('$MY_TABLES.hits.0.node_id'), compute, use('$MY_VALUE.display_text')]))).toMatch(/\$MY_VALUE has no field "display_text"/);
    expect(problemOf(withSteps([tableStep, columnStep('$MY_TABLES.hits.0.node_id'), { ...compute, args: { expression: 'A', variables: { A: '$MY_CELLS.cell.0' } } }]))).toMatch(/\$MY_CELLS has no field "cell"/);
    expect(problemOf(withSteps([columnStep('$pack.items.0.node_id')].map((s) => ({ ...s, depends_on: [] }))))).toBeUndefined();
    expect(problemOf(withSteps([columnStep('$pack.item.0.node_id')].map((s) => ({ ...s, depends_on: [] }))))).toMatch(/\$pack has no field "item"/);
    expect(problemOf(withSteps([columnStep('$hits.first.node_id')].map((s) => ({ ...s, depends_on: [] }))))).toMatch(/\$hits has no field "first"/);
  });

  it('leaves the data of a card that declares no output unchecked, and checks a card of your own by its declared output', () => {
    const mine = (output?: z.ZodType): ToolCard => ({ id: 'my_tool.run', description: 'mine', args: z.object({}), kind: 'extract', ...(output ? { output } : {}), run: async () => ({}) });
    const plan = withSteps([
      { step_id: 'M', tool: 'my_tool.run', args: {}, save_as: 'MINE', depends_on: [] },
      { step_id: 'U', tool: 'structure.children', args: { node_id: '$MINE.section.node_id' }, save_as: 'MY_OUT', depends_on: ['M'] },
    ]);
    const knownTools = [...PLANNER_TOOL_IDS, 'my_tool.run'];
    expect(problemOf(plan, { knownTools, cardOutputs: cardOutputsOf([mine()]) })).toBeUndefined();
    expect(problemOf(plan, { knownTools, cardOutputs: cardOutputsOf([mine(z.object({ section: z.object({ node_id: z.string() }) }))]) })).toBeUndefined();
    expect(problemOf(plan, { knownTools, cardOutputs: cardOutputsOf([mine(z.object({ sections: z.array(z.string()) }))]) })).toMatch(/\$MINE has no field "section"/);
  });

  it('treats a dollar amount or a word after a dollar sign as a plain value, not a reference', () => {
    const literal = { step_id: 'U', tool: 'structure.children', args: { title: '$US dollars', roles: ['$5 million'] }, save_as: 'MY_OUT', depends_on: [] };
    expect(problemOf(withSteps([literal]))).toBeUndefined();
  });

  it('the built-in cards all declare their output', () => {
    const undeclared = [...defaultCardOutputs()].filter(([, schema]) => schema === undefined).map(([id]) => id);
    expect(undeclared).toEqual([]);
  });
});
