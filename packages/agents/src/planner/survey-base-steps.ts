import type { PlanStep, RouterDecision } from '@doctree/schema';

import { countAnalysis } from '../analysis/count-analysis.js';
import { analysisFor, analysisOf } from '../analysis/question-analysis.js';
import { groupQuestion, SURVEY_BASE_QUERY } from '../reader/survey-counts.js';
import type { PlanInput } from './plan-templates.js';

/** Id and saved name of the step that searches a report's bases. */
export const SURVEY_BASE_STEP = 'SB';
const SAVED = 'SURVEY_BASES';

/** Nodes the bases search adds to the reader's evidence (after the pack: the pack's nodes are read first). */
const BASE_HITS = 4;
/** Tables the bases search adds (a sample-size table is a table of its own). */
const BASE_TABLES = 3;

/**
 * True when a question asks how many people of a group did something ("how many <group> <clause>") rather than how
 * many document objects (figures, tables, headings…) there are: the answer may be a share of the group times the
 * group's base, and the base is stated in a methodology section that a search for the question's words rarely finds.
 */
export function asksGroupCount(question: string, decision?: RouterDecision): boolean {
  if (groupQuestion(question)?.asks !== 'count') return false;
  const counted = countAnalysis(analysisOf(decision) ?? analysisFor(question, decision));
  return counted?.object === undefined && counted?.comparative !== true;
}

/**
 * Adds a second retrieval to a plan for a count of people: a keyword search with the words of a survey's methodology
 * (sample sizes, interviews, margin of error) and the group's words, whose hits are read after the evidence pack — so
 * that the reader finds the group's base (`surveyCountCandidates`) beside its share. Other questions: the plan as is.
 *
 * @example
 * ```ts
 * const plan = withSurveyBaseSearch(PLAN_TEMPLATES.lookup(decision, settings), decision, 'How many night-shift nurses said they slept well?');
 * // plan.steps: SB (bm25_node.search) …, R (reader.answer, evidence ['$pack', '$SURVEY_BASES'])
 * ```
 */
export function withSurveyBaseSearch(plan: PlanInput, decision: RouterDecision, question: string | undefined): PlanInput {
  if (question === undefined || !asksGroupCount(question, decision)) return plan;
  if (plan.steps.some((st) => st.step_id === SURVEY_BASE_STEP) || !plan.steps.some((st) => st.tool === 'reader.answer')) return plan;
  const group = groupQuestion(question)!.group.join(' ');
  const query = `${SURVEY_BASE_QUERY} ${group}`;
  // Sample sizes stand in a sentence or in a table of their own: the best of each.
  const searches: PlanStep[] = [
    { step_id: SURVEY_BASE_STEP, tool: 'bm25_node.search', args: { query, k: BASE_HITS }, save_as: SAVED, depends_on: [] },
    { step_id: `${SURVEY_BASE_STEP}T`, tool: 'bm25_node.search', args: { query, k: BASE_TABLES, roles: ['table'] }, save_as: `${SAVED}_TABLES`, depends_on: [] },
  ];
  const steps = plan.steps.map((st) => {
    if (st.tool !== 'reader.answer') return st;
    const evidence = st.args['evidence'];
    const list = Array.isArray(evidence) ? evidence : evidence !== undefined ? [evidence] : ['$pack'];
    return { ...st, args: { ...st.args, evidence: [...list, ...searches.map((x) => `$${x.save_as!}`)] }, depends_on: [...new Set([...st.depends_on, ...searches.map((x) => x.step_id)])] };
  });
  return { ...plan, steps: [...searches, ...steps] };
}
