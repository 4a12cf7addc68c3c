import { StrategyPlanSchema } from '@doctree/schema';
import { RuleRouter } from '../router/rule-router.js';
import { asksGroupCount, SURVEY_BASE_STEP } from './survey-base-steps.js';
import { TemplatePlanner } from './template-planner.js';

const router = new RuleRouter();
const planner = new TemplatePlanner();
const planOf = (question: string) => planner.planFor(router.decide(question, { pageCount: 30 }), question);

describe('a second retrieval for the bases of a count of people', () => {
  it('searches the methodology words and the group, and hands the hits to the reader after the pack', () => {
    const question = 'How many night-shift nurses said they slept less than six hours?';
    expect(asksGroupCount(question)).toBe(true);
    const plan = planOf(question);
    expect(StrategyPlanSchema.parse(plan)).toEqual(plan);
    const searches = plan.steps.filter((s) => s.step_id.startsWith(SURVEY_BASE_STEP));
    expect(searches.map((s) => s.tool)).toEqual(['bm25_node.search', 'bm25_node.search']);
    expect(String(searches[0]!.args['query'])).toMatch(/sample size.*nurses/);
    expect(searches[1]!.args['roles']).toEqual(['table']);
    const read = plan.steps.find((s) => s.tool === 'reader.answer')!;
    expect(read.args['evidence']).toEqual(['$pack', ...searches.map((s) => `$${s.save_as}`)]);
    expect(read.depends_on).toEqual(expect.arrayContaining(searches.map((s) => s.step_id)));
  });

  it('leaves other plans as they are: counts of document objects, amounts, questions without a group', () => {
    for (const question of ['How many tables are in the appendix?', 'What was the revenue in 2023?', 'How many more patients were enrolled in 2022 than in 2021?']) {
      expect(planOf(question).steps.some((s) => s.step_id.startsWith(SURVEY_BASE_STEP))).toBe(false);
    }
  });
});
