import { yearMentions, type AnswerValue, type Observation, type Support, type YearOptions } from '@doctree/schema';
import { DEFAULT_CONCEPTS, type Concept } from '@doctree/toolhub';
import { findNumbers, findStatedScale, parseNumberCell, SCALE_FACTORS, type NumberMention } from '../reader/numbers.js';
import { supportMatches } from '../reader/observation-text.js';
import { profileQuestion, type QuestionProfile } from '../reader/question-profile.js';
import { wordTokens } from '../reader/text-spans.js';
import { BaseJudger, verdictOf, type BaseJudgerOptions, type JudgeFailure, type JudgeRequest, type JudgeVerdict } from './answer-judger.js';

/** Options of {@link RuleJudger}. */
export interface RuleJudgerOptions extends BaseJudgerOptions {
  /** Share of an answer's content words that must occur in its support (entailment by overlap). Default 0.5. */
  minOverlap?: number;
  /** Concept lexicon used to read the question. Default the reader's. */
  concepts?: readonly Concept[];
}

/** Defaults of {@link RuleJudgerOptions}. */
export const RULE_JUDGER_DEFAULTS: Readonly<Required<Pick<RuleJudgerOptions, 'minOverlap' | 'concepts'>>> = { minOverlap: 0.5, concepts: DEFAULT_CONCEPTS };

/** Operations whose result is computed, so need not be written in the evidence. */
const COMPUTED = new Set(['count', 'sum', 'difference', 'ratio', 'percent', 'percent_change', 'average']);
/** Years of supports and column headers: `2018`, `FY2018`, `FY 2018`. */
const SUPPORT_YEARS: YearOptions = { prefix: 'fy' };

function asNumber(answer: AnswerValue): number | undefined {
  if (typeof answer === 'number') return answer;
  if (typeof answer !== 'string') return undefined;
  const parsed = parseNumberCell(answer);
  return parsed ? parsed.value : undefined;
}

/** Mentions in `text` equal to `value` up to a scale change (million ↔ billion) or a percent/fraction change. */
function mentionsOf(value: number, text: string): NumberMention[] {
  const factors = [1, 100, 0.01, ...Object.values(SCALE_FACTORS).flatMap((f) => [f, 1 / f])];
  return findNumbers(text, { words: true }).filter((m) =>
    factors.some((f) => Math.abs(Math.abs(m.value) * f - Math.abs(value)) <= Math.max(1e-6, Math.abs(value) * 0.005)),
  );
}

/** Years of the table column holding the support's last cell (`label | … | cell`), when it is a table support. */
function supportColumnYears(support: Support, observation: Observation | undefined): number[] {
  const p = observation?.payload;
  if (!p || p.kind !== 'table') return [];
  const cells = support.snippet.split('|').map((c) => c.trim());
  const label = cells[0] ?? '';
  const cell = cells[cells.length - 1] ?? '';
  const row = p.rows.find((r) => r.some((c) => c === label) && r.includes(cell)) ?? p.rows.find((r) => r.includes(cell));
  if (!row) return [];
  const col = row.indexOf(cell, 1);
  return col < 0 ? [] : yearMentions(p.columns[col] ?? '', SUPPORT_YEARS).map((m) => m.year);
}

/**
 * The rule judger: format (Int/Float/List/Str against the expected format), unit (a percentage or currency asked
 * but not in the answer or its evidence), time (a year asked but the support from another year or year column),
 * entailment by overlap (the answer's number or words written in its support), and support (present, exact).
 * A `None` answer to a question that expects one asks for a REPLAN. Failures of time, support and evidence give
 * `replan`; format, unit and entailment give `fallback`.
 */
export class RuleJudger extends BaseJudger {
  readonly id = 'rules-v1';
  private readonly options: Required<Pick<RuleJudgerOptions, 'minOverlap' | 'concepts'>>;

  /** @param options overlap threshold, concepts and tracing hook. */
  constructor(options: RuleJudgerOptions = {}) {
    super(options);
    this.options = { ...RULE_JUDGER_DEFAULTS, ...options };
  }

  protected async _judge(request: JudgeRequest): Promise<JudgeVerdict> {
    const profile = profileQuestion(request.question, request.decision, this.options.concepts);
    const failures = this.check(request, profile);
    return { ...verdictOf(failures, this.id) };
  }

  /** Runs every check. */
  private check(request: JudgeRequest, profile: QuestionProfile): JudgeFailure[] {
    const { result, observations } = request;
    const failures: JudgeFailure[] = [];
    const expected = request.decision?.signals.expected_format ?? (profile.kind === 'text' || profile.kind === 'entity' ? null : profile.format);
    if (result.answer_format === 'None') {
      if (expected !== 'None') failures.push({ check: 'evidence', severity: 'major', message: 'no answer was found in the evidence' });
      return failures;
    }
    const computed = profile.operations.some((o) => COMPUTED.has(o));
    const value = asNumber(result.answer);

    // Format.
    if (expected === 'Int' || expected === 'Float') {
      if (value === undefined || Array.isArray(result.answer)) failures.push({ check: 'format', severity: 'major', message: `expected ${expected} but got ${result.answer_format} "${String(result.answer)}"` });
      else if (expected === 'Int' && !Number.isInteger(value)) failures.push({ check: 'format', severity: 'minor', message: `expected Int but got ${value}` });
    } else if (expected === 'List' && !Array.isArray(result.answer)) {
      failures.push({ check: 'format', severity: 'minor', message: `expected a List but got ${result.answer_format}` });
    } else if (expected === 'Str' && typeof result.answer !== 'string') {
      failures.push({ check: 'format', severity: 'minor', message: `expected Str but got ${result.answer_format}` });
    }

    // Support.
    const supports = result.support.filter((s) => observations.some((o) => supportMatches(s, o)));
    if (result.support.length === 0) failures.push({ check: 'support', severity: 'major', message: 'the answer cites no evidence' });
    else if (supports.length < result.support.length) failures.push({ check: 'support', severity: 'major', message: `${result.support.length - supports.length} support span(s) do not quote the observations` });
    const observationOf = (s: Support): Observation | undefined => observations.find((o) => o.node_id === s.node_id);
    const supportText = supports.map((s) => s.snippet).join('\n');

    // Unit.
    const matchedMentions = value !== undefined ? mentionsOf(value, supportText) : [];
    if (value !== undefined && !computed && profile.wantsPercent) {
      const tableUnitPercent = supports.some((s) => {
        const p = observationOf(s)?.payload;
        return p?.kind === 'table' && p.units.includes('%');
      });
      if (!matchedMentions.some((m) => m.percent) && !tableUnitPercent && !/%|percent/i.test(supportText)) {
        failures.push({ check: 'unit', severity: 'major', message: 'a percentage is asked but the answer’s evidence is not a percentage' });
      }
    }
    if (typeof result.answer === 'string' && profile.wantsPercent && /[$€£]/.test(result.answer) && !/%/.test(result.answer)) {
      failures.push({ check: 'unit', severity: 'major', message: 'a percentage is asked but the answer is an amount of money' });
    }
    if (value !== undefined && !computed && (profile.wantsCurrency || profile.scale) && !profile.wantsPercent) {
      const moneyShown =
        matchedMentions.some((m) => m.currency || m.scale) ||
        supports.some((s) => {
          const p = observationOf(s)?.payload;
          return (p?.kind === 'table' && (p.scale || p.units.some((u) => u && u !== '%'))) || findStatedScale(s.snippet) !== undefined;
        });
      if (matchedMentions.length > 0 && matchedMentions.every((m) => m.percent)) {
        failures.push({ check: 'unit', severity: 'major', message: 'an amount is asked but the answer’s evidence is a percentage' });
      } else if (!moneyShown) failures.push({ check: 'unit', severity: 'minor', message: 'a currency or scale is asked but none is shown with the evidence' });
    }

    // Time.
    if (profile.years.length > 0 && supports.length > 0 && profile.kind !== 'year') {
      const supportYears = new Set<number>();
      for (const s of supports) {
        for (const y of supportColumnYears(s, observationOf(s))) supportYears.add(y);
        for (const m of yearMentions(s.snippet, SUPPORT_YEARS)) supportYears.add(m.year);
        const p = observationOf(s)?.payload;
        if (p?.kind === 'text') for (const m of yearMentions(p.heading_path.join(' '), SUPPORT_YEARS)) supportYears.add(m.year);
      }
      if (supportYears.size > 0 && !profile.years.some((y) => supportYears.has(y))) {
        failures.push({ check: 'time', severity: 'major', message: `the question asks about ${profile.years.join('/')} but the support is from ${[...supportYears].sort().join('/')}` });
      }
    }

    // Entailment by overlap.
    if (value !== undefined && !computed && profile.kind !== 'count' && supports.length > 0 && matchedMentions.length === 0) {
      failures.push({ check: 'entailment', severity: 'major', message: `${value} is not written in the cited evidence` });
    } else if (typeof result.answer === 'string' && value === undefined && !/^(?:yes|no)$/i.test(result.answer.trim()) && supports.length > 0) {
      const share = this.overlap(result.answer, supportText);
      if (share < this.options.minOverlap) failures.push({ check: 'entailment', severity: 'major', message: `only ${Math.round(share * 100)}% of the answer's words occur in its support` });
    } else if (Array.isArray(result.answer) && supports.length > 0) {
      const everything = [supportText, ...observations.filter((o) => supports.some((s) => s.node_id === o.node_id)).map((o) => JSON.stringify(o.payload))].join('\n');
      const missing = result.answer.filter((item) => this.overlap(String(item), everything) < this.options.minOverlap);
      if (missing.length > 0) failures.push({ check: 'entailment', severity: missing.length * 2 > result.answer.length ? 'major' : 'minor', message: `${missing.length} list item(s) not found in the evidence` });
    }
    return failures;
  }

  private overlap(answer: string, evidence: string): number {
    const words = wordTokens(answer).filter((t) => t.word.length > 1);
    if (words.length === 0) return 1;
    const stems = new Set(wordTokens(evidence).map((t) => t.stem));
    return words.filter((t) => stems.has(t.stem)).length / words.length;
  }
}
