import type { ReadRequest, ReadResult } from '@doctree/schema';
import { BaseReader, NOT_ANSWERABLE, type BaseReaderOptions } from './base-reader.js';
import { COOPERATIVE_SLICE_MS, createPause, type CooperativePause } from '../agent/cooperative.js';
import { DEFAULT_CONCEPTS, type Concept } from '@doctree/toolhub';
import { EvidenceSet, type Candidate } from './evidence-model.js';
import { profileQuestion, type QuestionProfile } from './question-profile.js';
import { computedValueCandidates, namedCellCandidates, tableComputeCandidates, tableNumberCandidates, tableTwoItemCandidates } from './table-candidates.js';
import { tableExtremeCandidates } from './table-extremes.js';
import { countObservedCandidates } from './count-observed-candidates.js';
import { choiceCandidates } from './choice-candidates.js';
import { dateCandidates } from './date-candidates.js';
import { enumeratedValueCandidates } from './enumerated-values.js';
import { entityCandidates } from './entity-candidates.js';
import { textComputeCandidates } from './text-compute-candidates.js';
import { textNumberCandidates } from './text-number-candidates.js';
import { yearCandidates } from './year-candidates.js';
import { itemCountCandidates, numberedStepCandidates, occurrenceCountCandidates } from './count-candidates.js';
import { expectedItemCount, listCandidates, questionParts } from './list-candidates.js';
import { yesNoCandidates } from './yes-no.js';
import { groupShareCandidates, surveyCountCandidates } from './survey-counts.js';
import { namedItemArithmetic } from './named-item-arithmetic.js';

/** Options of {@link ExtractiveReader}. */
export interface ExtractiveReaderOptions extends BaseReaderOptions {
  /** Below this confidence the answer is `Not answerable` (format None). Default 0.35. */
  minConfidence?: number;
  /** Reporting concepts and their line-item wordings. Default {@link DEFAULT_CONCEPTS}. */
  concepts?: readonly Concept[];
  /**
   * Work (ms) between two yields to the event loop while reading: the candidate generators run one by one, with a
   * cooperative pause (which also stops the reading with `CANCELLED` once the request's signal aborts) between them.
   * Default {@link COOPERATIVE_SLICE_MS}; 0 yields between every two generators.
   */
  sliceMs?: number;
}

/** Defaults of {@link ExtractiveReaderOptions}. */
export const EXTRACTIVE_READER_DEFAULTS: Readonly<Required<Pick<ExtractiveReaderOptions, 'minConfidence' | 'concepts'>>> = { minConfidence: 0.35, concepts: DEFAULT_CONCEPTS };

/** How much a single value read as written loses against a computation the question asks for. */
const LOOKUP_PENALTY = 0.5;

/** How much a value read as written loses when the question asks arithmetic over items it names. */
const NAMED_ITEM_LOOKUP_PENALTY = 0.3;

/** A question that asks one value per item it names ("… for A and B respectively"). */
const ASKS_LIST = /\brespectively\b/i;

/** How much counting items loses against a number the evidence writes with what is counted ("9 steps"). */
const STATED_COUNT_MARGIN = 0.3;

/** Maps a candidate score (term coverage plus bonuses, about 0–1.3) to a confidence. */
function confidenceOf(score: number): number {
  return Math.max(0, Math.min(0.95, 0.1 + 0.75 * score));
}

const sameAnswer = (a: Candidate, b: Candidate): boolean => JSON.stringify(a.answer) === JSON.stringify(b.answer);

/**
 * The offline reader: typed answers extracted from the observations, with exact supports. It reads the question
 * (kind, expected format, years, units, scale, operations, named concepts), then scores candidates by kind:
 * table cells (row label ∼ question terms and concepts, year columns, units; differences/percent changes/sums over
 * years; highest/lowest rows), numbers in sentences (term coverage, closeness, year, unit), years and dates, list
 * items and enumerations, short phrases, yes/no, and counts of observed figures/tables. Numbers honour the stated
 * scale (`(Millions)`) and the scale asked (`in USD billions`); outflows shown in parentheses report their amount.
 * Too little evidence gives `Not answerable` (format None). Every answer cites spans whose snippets are exact
 * slices of the observations.
 *
 * @example
 * ```ts
 * const reader = new ExtractiveReader();
 * const result = await reader.read({ question: 'What were capital expenditures in 2023 (USD millions)?', observations });
 * // { answer: 412, answer_format: 'Int', support: [{ node_id: 'tab_3', page: 41, snippet: 'Purchases of … | (412)' }] … }
 * ```
 */
export class ExtractiveReader extends BaseReader {
  readonly id = 'extractive-v1';
  private readonly options: Required<Pick<ExtractiveReaderOptions, 'minConfidence' | 'concepts'>> & ExtractiveReaderOptions;

  /** @param options confidence floor, concept lexicon and tracing hook. */
  constructor(options: ExtractiveReaderOptions = {}) {
    super(options);
    this.options = { ...EXTRACTIVE_READER_DEFAULTS, ...options };
  }

  protected async _read(request: ReadRequest): Promise<ReadResult> {
    const profile = profileQuestion(request.question, request.decision, this.options.concepts);
    const notes = [`question kind ${profile.kind}, expected ${profile.format}${profile.years.length ? `, years ${profile.years.join('/')}` : ''}${profile.scale ? `, in ${profile.scale}s` : ''}`];
    if (request.observations.length === 0) return this.none(notes, 'no evidence was observed');
    // Each candidate generator runs as its own stretch (the event loop runs between them); an abort stops the reading.
    const pause = createPause({ sliceMs: this.options.sliceMs ?? COOPERATIVE_SLICE_MS, ...(request.signal ? { signal: request.signal } : {}) });
    const evidence = new EvidenceSet(request.observations, profile);
    // Arithmetic over items the question names: computed from each item's own value, it outranks every other reading;
    // a value read as written loses against it, and when an item is missing from the observations that hold the
    // others, no single value answers (no partial answer).
    const items = profile.itemArithmetic ? (await pause(), namedItemArithmetic(evidence)) : undefined;
    if (items?.missing) notes.push(items.missing);
    const found = (items?.candidates.length ?? 0) > 0;
    const read = (await this.candidates(profile, evidence, request.computed ?? [], pause))
      .filter((c) => !items?.missing || c.computed)
      .map((c) => (found ? { ...c, score: c.score - 2 * NAMED_ITEM_LOOKUP_PENALTY } : items && !c.computed ? { ...c, score: c.score - NAMED_ITEM_LOOKUP_PENALTY } : c));
    const candidates = [...(items?.candidates ?? []), ...read].filter((c) => c.support.length > 0);
    candidates.sort((a, b) => b.score - a.score);
    const best = candidates[0];
    if (!best) return this.none(notes, 'no candidate answer in the evidence');
    let confidence = confidenceOf(best.score);
    const rival = candidates.find((c) => !sameAnswer(c, best));
    if (rival && best.score - rival.score < 0.05) {
      confidence -= 0.1;
      notes.push(`close alternative: ${JSON.stringify(rival.answer)}`);
    }
    if (confidence < this.options.minConfidence && request.abstain !== 'caller') {
      return this.none([...notes, `best candidate ${JSON.stringify(best.answer)} (${best.notes[0] ?? ''}) is too weakly supported`], undefined, confidence);
    }
    return {
      answer: best.answer,
      answer_format: best.format,
      ...(best.display !== undefined ? { display: best.display } : {}),
      confidence,
      support: best.support,
      notes: [...notes, ...best.notes],
    };
  }

  private async candidates(profile: QuestionProfile, evidence: EvidenceSet, computed: NonNullable<ReadRequest['computed']>, pause: CooperativePause): Promise<Candidate[]> {
    /** Runs one generator after a cooperative pause (generators run in the order written, as before). */
    const gen = async (generate: () => Candidate[]): Promise<Candidate[]> => {
      await pause();
      return generate();
    };
    // A list of values, one per item the question enumerates ("for the north and south plants respectively").
    if (profile.format === 'List' || profile.kind === 'list' || ASKS_LIST.test(profile.question)) {
      const parts = await this.partwiseCandidates(profile, evidence, pause);
      // Values a sentence states together, one per item asked ("5.3% and 5.2%"), when the items ask values.
      const each = parts.length > 0 || profile.kind === 'number' || profile.kind === 'count' ? [...parts, ...(await gen(() => enumeratedValueCandidates(evidence, parts)))] : parts;
      if (each.length > 0) return profile.kind === 'list' ? [...each, ...(await gen(() => listCandidates(evidence)))] : each;
    }
    switch (profile.kind) {
      case 'count': {
        // A survey report's count of people (a group's share times its base) or a share asked as a count, when found.
        const survey = [...(await gen(() => surveyCountCandidates(evidence))), ...(await gen(() => groupShareCandidates(evidence)))];
        if (survey.length > 0) return survey;
        const occurrences = await gen(() => occurrenceCountCandidates(evidence));
        if (occurrences.length > 0) return occurrences;
        const read = [
          ...(await gen(() => countObservedCandidates(evidence))),
          ...(await gen(() => textNumberCandidates(evidence, { integersOnly: true }))),
          ...(await gen(() => tableNumberCandidates(evidence))).filter((c) => typeof c.answer === 'number' && Number.isInteger(c.answer)),
        ];
        // A number written with what is counted ("9 steps") answers as written; counting list items is the fallback.
        const stated = read.some((c) => c.stated);
        const items = [...(await gen(() => itemCountCandidates(evidence))), ...(await gen(() => numberedStepCandidates(evidence)))];
        return [...read, ...items.map((c) => (stated ? { ...c, score: c.score - STATED_COUNT_MARGIN } : c))];
      }
      case 'number': {
        const planned = await gen(() => computedValueCandidates(evidence, computed));
        const all = [
          ...planned,
          ...(await gen(() => groupShareCandidates(evidence))),
          ...(await gen(() => tableTwoItemCandidates(evidence))),
          ...(await gen(() => tableComputeCandidates(evidence))),
          ...(await gen(() => textComputeCandidates(evidence))),
          ...(await gen(() => tableExtremeCandidates(evidence))),
          ...(await gen(() => tableNumberCandidates(evidence))),
          ...(await gen(() => textNumberCandidates(evidence))),
        ];
        // A computation the question asks for outranks reading one of its operands; a rate stated as written still
        // answers a growth-rate question.
        if (!all.some((c) => c.computed)) return all;
        const statedRateCounts = profile.operations.includes('percent_change');
        // The plan's computation (each operand extracted on its own) outranks reading an operand.
        const kept = (c: Candidate): boolean => (planned.length > 0 ? planned.includes(c) : c.computed === true);
        // The reader's own computations are left out when the plan computed (same operation, operands matched one by one).
        const own = planned.length > 0 ? all.filter((c) => planned.includes(c) || !c.computed) : all;
        return own.map((c) => (kept(c) || (statedRateCounts && c.statedPercent) ? c : { ...c, score: c.score - LOOKUP_PENALTY }));
      }
      case 'year':
        return [...(await gen(() => yearCandidates(evidence))), ...(await gen(() => tableExtremeCandidates(evidence)))];
      case 'date':
        return gen(() => dateCandidates(evidence));
      case 'yes_no':
        return gen(() => yesNoCandidates(evidence));
      case 'list':
        // "The top 3 …": the first items of a table ranking, in order.
        return [...(await gen(() => listCandidates(evidence))), ...(await gen(() => tableExtremeCandidates(evidence))).filter((c) => c.format === 'List')];
      case 'entity':
      case 'text': {
        // A choice question ("A or B?") is answered with one of its options, or not at all.
        if (profile.choice) return gen(() => choiceCandidates(evidence, profile.choice!));
        // "Name three causes of …": a question that names how many things it wants asks for a list.
        const wanted = profile.formatFromDecision ? undefined : expectedItemCount(profile.question);
        const lists = wanted !== undefined ? (await gen(() => listCandidates(evidence))).filter((c) => Array.isArray(c.answer) && c.answer.length === wanted) : [];
        // A number at the row and column the question names answers as well as a text cell there.
        return lists.length > 0 ? lists : [...(await gen(() => tableExtremeCandidates(evidence))), ...(await gen(() => entityCandidates(evidence))), ...(await gen(() => namedCellCandidates(evidence)))];
      }
    }
  }

  /**
   * One value per item the question enumerates: each item asked on its own (the question with the enumeration
   * replaced by that item), as a number or count question; a list of the best answers, as strings, scored by the
   * weakest of them. None unless every item finds a value.
   */
  private async partwiseCandidates(profile: QuestionProfile, evidence: EvidenceSet, pause: CooperativePause): Promise<Candidate[]> {
    const found = questionParts(profile.question);
    if (!found) return [];
    const observations = evidence.entries.map((e) => e.observation);
    const answers: Candidate[] = [];
    for (const part of found.parts) {
      const question = `${profile.question.slice(0, found.start)}${part}${profile.question.slice(found.end)}`.replace(/,?\s*\brespectively\b/gi, '');
      const sub = profileQuestion(question, undefined, this.options.concepts);
      if (sub.kind !== 'number' && sub.kind !== 'count') return [];
      await pause();
      const best = (await this.candidates(sub, new EvidenceSet(observations, sub), [], pause))
        .filter((c) => c.support.length > 0 && typeof c.answer === 'number')
        .sort((a, b) => b.score - a.score)[0];
      if (!best) return [];
      answers.push(best);
    }
    return [
      {
        answer: answers.map((c) => String(c.answer)),
        format: 'List',
        score: Math.min(...answers.map((c) => c.score)),
        support: answers.flatMap((c) => c.support.slice(0, 1)),
        notes: [`one value per item asked (${found.parts.join(' / ')}): ${answers.map((c) => c.notes[0] ?? '').join('; ')}`],
      },
    ];
  }

  private none(notes: string[], reason?: string, confidence = 0.5): ReadResult {
    return {
      answer: NOT_ANSWERABLE,
      answer_format: 'None',
      // Confidence that the question is not answerable from this evidence.
      confidence: Math.max(0.2, Math.min(0.8, 1 - confidence)),
      support: [],
      notes: reason ? [...notes, reason] : notes,
    };
  }
}
