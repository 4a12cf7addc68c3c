import type { QueryType, QuestionAnalysis, RouterDecision } from '@doctree/schema';

import { countAnalysis } from '../analysis/count-analysis.js';
import { analyzeQuestion } from '../analysis/question-analysis.js';
import { BaseRouter, normalizeDecision } from './base-router.js';
import type { BaseRouterOptions, RouteOptions, RouteOutcome } from './base-router.js';
import { ARITHMETIC_OPERATIONS, signalsFromAnalysis } from './question-signals.js';
import type { QuestionSignals } from './question-signals.js';

/** Options of {@link RuleRouter}. */
export interface RuleRouterOptions extends BaseRouterOptions {
  /** Candidates scoring below this are left out (lookup always stays). Default 0.2. */
  minCandidateScore?: number;
}

/** Defaults of {@link RuleRouterOptions}. */
export const RULE_ROUTER_DEFAULTS = { minCandidateScore: 0.2 } as const satisfies RuleRouterOptions;

const CHART_WORDS = /\b(?:charts?|graphs?|plots?|histograms?|axis|axes|curves?|legend|bars?|pie|lines?\s+(?:chart|graph|plot)|scatter|slope|peak|trend\s+line|y-axis|x-axis)\b/i;
const COLOUR_WORDS = /\b(?:red|blue|green|yellow|orange|purple|grey|gray|black|white|pink|brown|colou?r(?:ed)?)\b/i;
const COUNTABLE_VISUALS =
  /\bhow\s+many\s+(?:\w+\s+){0,3}?(?:figures?|images?|pictures?|photos?|photographs?|charts?|graphs?|plots?|tables?|diagrams?|illustrations?|icons?|logos?|screenshots?|maps?|drawings?|slides?|pages?|equations?|footnotes?|sections?|chapters?|subsections?|bullet\s+points?|hyperlinks?|urls?)\b|\bnumber\s+of\s+(?:figures|images|pictures|photos|charts|graphs|plots|tables|diagrams|pages|slides|sections|chapters)\b/i;
/** Things counted inside pictures ("how many people are in the photo") — a figure count only in a visual context. */
const COUNTABLE_THINGS = /\bhow\s+many\s+(?:\w+\s+){0,2}?(?:people|persons?|men|women|children|cars?|vehicles?|animals?|birds?|items?|objects?|buildings?|trees?)\b/i;
const VISUAL_CONTEXT =
  /\b(?:in|on|within|inside|of|shown\s+in|depicted\s+in|visible\s+in)\s+(?:the\s+|this\s+|that\s+|each\s+|all\s+)?(?:\w+\s+){0,2}?(?:images?|pictures?|photos?|photographs?|figures?|charts?|diagrams?|illustrations?|drawings?|maps?|cover|slides?|screenshots?)\b/i;
const LAYOUT_WORDS =
  /\b(?:header|footer|heading|headline|subtitle|title\s+of\s+(?:the\s+)?(?:page|slide|document|section|chapter|report|paper)|(?:top|bottom|left|right|upper|lower)(?:[\s-]+(?:left|right|hand))?\s+(?:corner|side|part|half|of\s+the\s+(?:page|slide))|column|font|bold|italic|underlined|highlighted|colou?r\s+of|caption|page\s+numbers?|written\s+(?:on|in|at)|text\s+(?:on|in|at)\s+the|cover|layout|position|placed|located\s+(?:on|at|in)\s+the|appears?\s+(?:on|at|in)\s+the|table\s+of\s+contents)\b/i;
const SUMMARY_WORDS =
  /\b(?:summari[sz]e|summary|overview|main\s+(?:idea|ideas|point|points|finding|findings|contribution|contributions|purpose|topic|theme|message|goal|objective)|key\s+(?:findings|takeaways|points|highlights|messages)|(?:what\s+is|what's)\s+(?:this|the)\s+(?:document|report|paper|article|brochure|guide|manual|presentation|deck|study)\s+about|purpose\s+of\s+(?:this|the)\s+(?:document|report|paper|study|article|guide|manual)|in\s+(?:brief|short|a\s+nutshell))\b/i;
const CONJUNCTION_QUESTION = /\?\s*\S.*\?|\band\s+(?:what|which|how|who|when|where)\b|\brespectively\b|\bboth\b|\beach\s+of\b|\bacross\s+(?:the\s+)?(?:years|segments|regions|quarters|sections)\b/i;
const RATIO_OF_TWO = /\bratio\s+of\s+.+\s+to\s+|\b\w+[\s-]+to[\s-]+\w+\s+ratio\b|\bdifference\s+between\s+.+\s+and\s+|\bcompare\s+.+\s+(?:and|with|to|versus|vs\.?)\s+/i;

/** Raw evidence points of each query type for a question (lookup is the always-present baseline). */
function typeEvidence(question: string, s: QuestionSignals, a: QuestionAnalysis, pageCount: number | undefined): Record<QueryType, number> {
  const kinds = new Set(s.objects.map((o) => o.kind));
  const labelled = s.objects.filter((o) => o.label !== undefined);
  const arithmetic = s.operations.filter((op) => ARITHMETIC_OPERATIONS.has(op));
  const nonLookup = s.operations.filter((op) => op !== 'lookup' && op !== 'locate');
  const count = s.operations.includes('count');
  const points: Record<QueryType, number> = { lookup: 1, table_number: 0, chart: 0, figure_count: 0, layout: 0, multi_hop: 0, summary: 0, unanswerable: 0 };

  // table_number: financial statements, tables, money / scale units, financial metrics, arithmetic, years.
  if (kinds.has('statement')) points.table_number += 2;
  if (kinds.has('table')) points.table_number += 1.5;
  if (s.units.some((u) => ['$', '€', '£', '¥', 'RMB', 'millions', 'billions', 'thousands', 'bps'].includes(u))) points.table_number += 1;
  else if (s.units.includes('%')) points.table_number += 0.5;
  // The pack's words of reported quantities, or one of its concepts named in any of its wordings ("purchases of PP&E").
  if (a.domain_quantity) points.table_number += 1;
  if (arithmetic.length > 0) points.table_number += 0.5;
  if (s.years.length > 0 && points.table_number > 0) points.table_number += 0.5;
  if (/\bhow\s+much\b/i.test(question) && points.table_number > 0) points.table_number += 0.5;

  // chart: charts named, chart vocabulary, colours, a labelled figure asked for a value or trend.
  if (kinds.has('chart')) points.chart += 2;
  else if (CHART_WORDS.test(question)) points.chart += 1;
  if (COLOUR_WORDS.test(question) && (kinds.has('chart') || kinds.has('figure'))) points.chart += 0.5;
  if (labelled.some((o) => o.kind === 'figure') && !count) points.chart += 1.5;
  if (s.operations.some((op) => ['trend', 'max', 'min', 'compare'].includes(op)) && (kinds.has('chart') || kinds.has('figure'))) points.chart += 0.5;
  if (count) points.chart /= 2;

  // figure_count: counting visual / structural things, or things inside pictures. "How many people did the company
  // employ" counts over text and tables (lookup / table_number), not figures.
  const thingsInPictures = COUNTABLE_THINGS.test(question) && VISUAL_CONTEXT.test(question);
  // Or what the analysis says is counted names a kind of document object ("how many appendices").
  const countsObjects = count && countAnalysis(a)?.object !== undefined;
  if (count && (COUNTABLE_VISUALS.test(question) || thingsInPictures || countsObjects)) points.figure_count += 3;
  else if (count && !COUNTABLE_THINGS.test(question) && (kinds.has('figure') || kinds.has('chart') || kinds.has('table'))) points.figure_count += 2;

  // layout: where things are on a page, headers, titles, colours of text, what a given page shows.
  if (LAYOUT_WORDS.test(question)) points.layout += 2;
  if (s.page_hints.length > 0 || s.last_page) {
    points.layout += 0.5;
    if (/\b(?:shown|written|displayed|depicted|pictured|title|heading|headline)\b/i.test(question)) points.layout += 1;
  }
  if (s.operations.includes('locate')) points.layout += 1;
  if (count && /\bhow\s+many\s+(?:pages|slides)\b/i.test(question)) points.layout += 1;

  // multi_hop: several operations, several years compared, two metrics, chained questions.
  if (nonLookup.length >= 2) points.multi_hop += 1;
  if (s.years.length >= 2 && s.operations.some((op) => ['compare', 'difference', 'percent_change', 'trend', 'ratio', 'average', 'sum'].includes(op))) points.multi_hop += 1;
  if (RATIO_OF_TWO.test(question) || a.operands !== undefined) points.multi_hop += 1;
  if (CONJUNCTION_QUESTION.test(question)) points.multi_hop += 1;
  if (labelled.length >= 2 || s.page_hints.length >= 2) points.multi_hop += 0.5;
  if (s.operations.includes('compare')) points.multi_hop += 0.5;

  // summary.
  if (SUMMARY_WORDS.test(question)) points.summary += 3;

  // unanswerable: only what can be known before reading — pages beyond the document's end.
  if (pageCount !== undefined && s.page_hints.some((p) => p > pageCount)) points.unanswerable += 3;
  return points;
}

/** Maps raw points to (0, 1): 1 point ↦ 0.5, 3 ↦ 0.75. */
const squash = (points: number): number => Math.round((points / (points + 1)) * 1000) / 1000;

/**
 * The offline router: deterministic rules over the question's phrasing (see {@link extractSignals}) score each
 * query type; lookup is the baseline every other type must beat. Page hints are 1-based. Works for any long
 * document (annual reports, papers, manuals, slide decks, brochures); nothing is tuned to particular questions.
 *
 * @example
 * ```ts
 * const decision = await new RuleRouter().route('How many pie charts does the brochure show?');
 * decision.query_type;               // 'figure_count'
 * decision.signals.expected_format;  // 'Int'
 * ```
 */
export class RuleRouter extends BaseRouter {
  readonly name = 'rules';
  readonly #minCandidateScore: number;

  constructor(options: RuleRouterOptions = {}) {
    const { minCandidateScore, ...base } = { ...RULE_ROUTER_DEFAULTS, ...options };
    super(base);
    this.#minCandidateScore = minCandidateScore;
  }

  /**
   * The rule decision, synchronously (also the fallback of the LLM router). The question should be trimmed. Reads the
   * question's analysis (given, or computed with the call's pack, else the router's).
   */
  decide(question: string, options: Pick<RouteOptions, 'pageCount' | 'pack' | 'analysis'> = {}): RouterDecision {
    const pack = options.pack ?? this.domainPack;
    const a = options.analysis ?? analyzeQuestion(question, { pack, ...(options.pageCount !== undefined ? { pageCount: options.pageCount } : {}) });
    const s = signalsFromAnalysis(a);
    const points = typeEvidence(question, s, a, options.pageCount);
    const scored = (Object.entries(points) as Array<[QueryType, number]>)
      .map(([type, p]) => ({ type, score: squash(p) }))
      .filter((c) => c.type === 'lookup' || c.score >= this.#minCandidateScore)
      .sort((a, b) => b.score - a.score || (a.type === 'lookup' ? 1 : b.type === 'lookup' ? -1 : 0));
    const top = scored[0]!;
    const second = scored[1];
    const margin = second === undefined ? top.score : top.score - second.score;
    const confidence = Math.round(Math.min(1, top.score * (0.7 + Math.min(0.3, margin))) * 1000) / 1000;
    const reasons: string[] = [];
    const arithmetic = s.operations.filter((op) => ARITHMETIC_OPERATIONS.has(op));
    if (arithmetic.length > 0) reasons.push(`arithmetic: ${arithmetic.join(', ')}`);
    if (scored.some((c) => c.type === 'multi_hop' && c.score >= 0.5)) reasons.push('several facts must be combined');
    if (s.operations.includes('count')) reasons.push('counting needs every instance, not the best match');
    if (top.type === 'chart' || top.type === 'figure_count') reasons.push('visual evidence: captions and nearby text may not hold the answer');
    if (second !== undefined && margin < 0.1) reasons.push(`ambiguous type: ${top.type} vs ${second.type}`);
    if (s.page_hints.length === 0 && !s.last_page && s.objects.length === 0 && s.years.length === 0 && s.keywords.length < 3) reasons.push('few anchors to search for');
    if (s.last_page) reasons.push('"last page" without a known page count');
    if (top.type === 'unanswerable') reasons.push('the question points past the end of the document');
    const high = reasons.some((r) => r.startsWith('several') || r.startsWith('counting') || r.startsWith('the question points'));
    return normalizeDecision(this.name, {
      query_type: top.type,
      candidates: scored,
      signals: {
        page_hints: s.page_hints,
        objects: s.objects,
        units: s.units,
        years: s.years,
        operations: s.operations,
        expected_format: s.expected_format,
        keywords: s.keywords,
        entities: s.entities,
      },
      risk: { level: high ? 'high' : reasons.length > 0 ? 'medium' : 'low', reasons },
      constraints: s.constraints,
      sub_questions: subQuestions(question, s, a, scored.some((c) => c.type === 'multi_hop' && c.score >= 0.5)),
      confidence,
      source: 'rules',
    });
  }

  protected async _route(question: string, options: RouteOptions): Promise<RouteOutcome> {
    return { decision: this.decide(question, options) };
  }
}

/** Words that name an operation rather than what it operates on. */
const OPERATION_WORDS = new Set(
  'change changes percentage percent ratio difference growth increase decrease decline compare compared comparison average mean sum total combined highest lowest largest smallest trend between from rate yoy cagr'.split(' '),
);

/** Sub-questions of a multi-hop question: its separate questions, the two sides of a ratio / difference / comparison, or one per year. */
function subQuestions(question: string, s: QuestionSignals, a: QuestionAnalysis, multiHop: boolean): string[] {
  if (!multiHop) return [];
  const parts = (question.match(/[^?]+\?/g) ?? []).map((p) => p.trim()).filter((p) => p.length > 1);
  if (parts.length >= 2) return parts;
  const years = s.years.length > 0 ? ` in ${s.years.join(' and ')}` : '';
  const two = a.operands;
  if (two) return two.sides.map((side) => `What is ${side}${side.includes(String(s.years[0] ?? '@')) ? '' : years}?`);
  const topic = s.keywords.filter((k) => !OPERATION_WORDS.has(k)).slice(0, 5).join(' ');
  if (s.years.length >= 2 && topic !== '') return s.years.map((y) => `What is the ${topic} in ${y}?`);
  return [];
}
