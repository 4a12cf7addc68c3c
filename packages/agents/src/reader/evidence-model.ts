import type { AnswerFormat, AnswerValue, Observation, Support } from '@doctree/schema';
import { conceptMatch, namedConcepts, normalizeLabel, type Concept } from '@doctree/toolhub';
import { observationText, type ObservationText } from './observation-text.js';
import type { QuestionProfile, WeightedTerm } from './question-profile.js';
import { sentenceSpans, stemWord, wordTokens, type TextSpan, type WordToken } from './text-spans.js';

/** One observation prepared for scoring: its text, tokens, stems and sentences, plus context stems (headings, caption). */
export interface EvidenceEntry {
  observation: Observation;
  /** Position in the request (earlier observations ranked higher by the retriever). */
  rank: number;
  text: ObservationText;
  tokens: WordToken[];
  stems: Set<string>;
  /** Stems of the heading path, caption and column labels. */
  contextStems: Set<string>;
  sentences: TextSpan[];
}

/** A scored answer candidate. */
export interface Candidate {
  answer: AnswerValue;
  format: AnswerFormat;
  /** Raw score; comparable across candidate generators. */
  score: number;
  support: Support[];
  notes: string[];
  /** The value with its unit and scale as a person reads it (`$37.5 million`), for numbers. */
  display?: string;
  /** Computed from several values (a change, ratio, sum…) rather than read from one place. */
  computed?: boolean;
  /** A single value read as written and stated as a percentage (a stated rate can answer a growth-rate question). */
  statedPercent?: boolean;
  /** A number written with what the question counts or measures right after it (`9 steps`, `16 g`). */
  stated?: boolean;
  /** A count made by counting items in the evidence (list items, rows, occurrences), not read as written. */
  counted?: boolean;
  /** What a list answer is about: its heading and introducing line, or its column header. */
  about?: string;
}

const stemsOf = (text: string): Set<string> => new Set(wordTokens(text).map((t) => t.stem));

/** Prepares observations for scoring and holds the question's term weights (terms absent from all evidence weigh 0.3×). */
export class EvidenceSet {
  readonly entries: EvidenceEntry[];
  readonly terms: WeightedTerm[];
  readonly totalWeight: number;
  /** Stems of the question words that named each concept (covered when a label names the concept). */
  readonly conceptStems: Map<Concept, Set<string>>;

  constructor(
    observations: readonly Observation[],
    readonly profile: QuestionProfile,
  ) {
    this.entries = observations.map((observation, rank) => {
      const text = observationText(observation);
      const tokens = wordTokens(text.text);
      const p = observation.payload;
      const context =
        p.kind === 'text' ? p.heading_path.join(' ') : p.kind === 'table' ? [p.caption ?? '', p.columns.join(' '), p.scale ?? ''].join(' ') : (p.caption ?? '');
      return { observation, rank, text, tokens, stems: new Set(tokens.map((t) => t.stem)), contextStems: stemsOf(context), sentences: sentenceSpans(text.text) };
    });
    const present = new Set<string>();
    for (const e of this.entries) {
      for (const s of e.stems) present.add(s);
      for (const s of e.contextStems) present.add(s);
    }
    // The question words that named each concept: the trigger's match, or (named by a line-item wording such as
    // "purchases of PP&E") the question words inside that wording, abbreviations written out.
    const named = namedConcepts(profile.question, profile.concepts);
    const questionTokens = wordTokens(profile.question);
    this.conceptStems = new Map(
      profile.concepts.map((c) => {
        const m = c.trigger.exec(profile.question);
        if (m) return [c, new Set(wordTokens(m[0]).map((t) => t.stem))];
        const phrase = named.find((n) => n.concept === c)?.phrase;
        if (!phrase) return [c, new Set<string>()];
        const norm = normalizeLabel(phrase);
        return [c, new Set(questionTokens.filter((t) => normalizeLabel(t.word).trim() !== '' && norm.includes(normalizeLabel(t.word))).map((t) => t.stem))];
      }),
    );
    // A concept's words count as present when the evidence names the concept in its own words ("research and
    // development" is present where "R&D" is written).
    if (profile.concepts.length > 0) {
      const texts = this.entries.map((e) => normalizeLabel(e.text.text));
      for (const [concept, stems] of this.conceptStems) {
        if (concept.aliases.some((a) => texts.some((t) => t.includes(normalizeLabel(a))))) for (const s of stems) present.add(s);
      }
    }
    this.terms = profile.terms.map((t) => (present.has(t.stem) ? t : { ...t, weight: t.weight * 0.3 }));
    this.totalWeight = this.terms.reduce((sum, t) => sum + t.weight, 0) || 1;
  }

  /**
   * Weighted share of question terms found in `primary` (a row label, a sentence) plus half the share found only
   * in `context` (caption, headings, column labels); `primary` is the share found in `primary` alone. A label naming a
   * question concept covers that concept's words.
   */
  coverage(primary: string | Set<string>, context?: Set<string>): { score: number; primary: number; matched: WeightedTerm[]; concept?: Concept } {
    const stems = typeof primary === 'string' ? stemsOf(primary) : primary;
    const covered = new Set<string>();
    let concept: Concept | undefined;
    if (typeof primary === 'string' && this.profile.concepts.length > 0) {
      const match = conceptMatch(primary, this.profile.concepts);
      if (match.concept) {
        concept = match.concept;
        for (const s of this.conceptStems.get(match.concept) ?? []) covered.add(s);
      }
    }
    let own = 0;
    let around = 0;
    const matched: WeightedTerm[] = [];
    for (const term of this.terms) {
      if (stems.has(term.stem) || covered.has(term.stem)) {
        own += term.weight;
        matched.push(term);
      } else if (context?.has(term.stem)) {
        around += term.weight * 0.5;
      }
    }
    return { score: (own + around) / this.totalWeight, primary: own / this.totalWeight, matched, ...(concept ? { concept } : {}) };
  }

  /** Offsets of tokens of `entry` inside `[start, end)` whose stem is a matched question term. */
  termPositions(entry: EvidenceEntry, span: TextSpan, matched: readonly WeightedTerm[]): number[] {
    const wanted = new Set(matched.map((t) => t.stem));
    return entry.tokens.filter((t) => t.start >= span.start && t.end <= span.end && wanted.has(t.stem)).map((t) => t.start);
  }
}

/** Stems of a phrase (exported for generators that compare labels). */
export function phraseStems(text: string): Set<string> {
  return stemsOf(text);
}

/** Stem of one word. */
export { stemWord };
