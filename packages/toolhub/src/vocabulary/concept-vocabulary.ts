import { ownTable } from '@doctree/schema';

import type { Concept } from '../domain/concept.js';
import { builtinDomainPack } from '../domain/domain-pack.js';
/**
 * The concept vocabulary: how questions name a quantity ("capital expenditure", "capex") and how documents write it
 * (`Purchases of property, plant and equipment`), and the abbreviations of a field (`PP&E`, `R&D`). The knowledge
 * itself is data of domain packs (`../domain/packs/*.ts`, or a user's JSON pack, see `selectDomainPack`); this module
 * holds the generic matching rules. Functions take a pack's `concepts`; without them they use the finance pack's
 * ({@link DEFAULT_CONCEPTS}, kept for callers written before packs).
 */

export type { Concept } from '../domain/concept.js';

/**
 * Abbreviations of the finance pack (with the generic pack's) and their written-out forms (lower case). A frozen
 * table without a prototype: looked up with a question's word (`constructor`), it holds only its own entries.
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = ownTable<string>(Object.fromEntries(builtinDomainPack('finance').abbreviations));

/** The finance pack's concepts (with the generic pack's), as the functions of this module take them. */
export const FINANCIAL_CONCEPTS: readonly Concept[] = builtinDomainPack('finance').concepts;

/**
 * Default concept list of callers that pass none: the finance pack's. The agent passes the pack chosen for the
 * document (`selectDomainPack`), so a manual is read with the generic pack's concepts.
 */
export const DEFAULT_CONCEPTS: readonly Concept[] = FINANCIAL_CONCEPTS;

const DEFAULT_ABBREVIATIONS: ReadonlyMap<string, string> = builtinDomainPack('finance').abbreviations;
const abbreviationPatterns = new WeakMap<ReadonlyMap<string, string>, ReadonlyArray<[RegExp, string]>>();
function patternsOf(abbreviations: ReadonlyMap<string, string>): ReadonlyArray<[RegExp, string]> {
  let cached = abbreviationPatterns.get(abbreviations);
  if (!cached) {
    cached = [...abbreviations]
      .filter(([short, long]) => short !== long)
      .map(([short, long]) => [new RegExp(` ${short.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} `, 'g'), ` ${long} `]);
    abbreviationPatterns.set(abbreviations, cached);
  }
  return cached;
}

/**
 * Lower case, punctuation-free word sequence (with `&` kept inside words) used to compare labels with aliases;
 * parenthesised remarks are dropped and abbreviations written out (`PP&E` → `property plant and equipment`).
 * The result starts and ends with a space so that `includes(' word ')` matches whole words.
 */
export function normalizeLabel(text: string, abbreviations: ReadonlyMap<string, string> = DEFAULT_ABBREVIATIONS): string {
  let norm = ` ${text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[^a-z0-9&/]+/g, ' ')
    .replace(/(?<![a-z])\/|\/(?![a-z])/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
  for (const [pattern, long] of patternsOf(abbreviations)) {
    pattern.lastIndex = 0;
    norm = norm.replace(pattern, long);
  }
  return norm.replace(/\s+/g, ' ');
}

const normalizedAliases = new WeakMap<Concept, string[]>();
function aliasesOf(concept: Concept): string[] {
  let cached = normalizedAliases.get(concept);
  if (!cached) {
    cached = concept.aliases.map((a) => normalizeLabel(a, concept.abbreviations));
    normalizedAliases.set(concept, cached);
  }
  return cached;
}

/**
 * Concepts a question (or any phrase) names: by its trigger wording, or by writing one of its aliases (abbreviations
 * written out), so "purchases of PP&E" names capital expenditure as much as "capex" does.
 */
export function conceptsIn(text: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS): Concept[] {
  return namedConcepts(text, concepts).map((n) => n.concept);
}

/** A concept a text names and the words that named it. */
export interface NamedConcept {
  concept: Concept;
  /** The words of the text (or, for an alias, the normalised alias) that named the concept. */
  phrase: string;
}

/**
 * The concepts a text names ({@link conceptsIn}) with the words that named each: the trigger's match in the text,
 * else the alias found in its normalised form. Scorers treat those words as covered where evidence names the
 * concept in its own words.
 */
export function namedConcepts(text: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS): NamedConcept[] {
  const norm = normalizeLabel(text, abbreviationsOf(concepts));
  const out: NamedConcept[] = [];
  for (const concept of concepts) {
    const m = concept.trigger.exec(text) ?? concept.trigger.exec(norm);
    if (m) {
      out.push({ concept, phrase: m[0] });
      continue;
    }
    const alias = aliasesOf(concept).find((a) => norm.includes(a));
    if (alias) out.push({ concept, phrase: alias.trim() });
  }
  return out;
}

/**
 * How well a label (row label, sentence) names one of the concepts: 1 when it starts with an alias, 0.8 when it
 * contains one, 0 otherwise; the best over concepts, with the concept that matched.
 */
export function conceptMatch(label: string, concepts: readonly Concept[]): { score: number; concept?: Concept } {
  const norm = normalizeLabel(label, abbreviationsOf(concepts));
  let best: { score: number; concept?: Concept } = { score: 0 };
  for (const concept of concepts) {
    for (const a of aliasesOf(concept)) {
      const at = norm.indexOf(a);
      if (at < 0) continue;
      const score = at === 0 ? 1 : 0.8;
      if (score > best.score) best = { score, concept };
    }
  }
  return best;
}

/** A normalised phrase with every word's plural `s` dropped (`capital expenditures` ≡ `capital expenditure`). */
function singularKey(norm: string): string {
  return norm.replace(/(?<=[a-z]{3})s(?= )/g, '');
}

/** Options of {@link conceptQueryTerms}. */
export interface ConceptQueryTermsOptions {
  /** Concepts to know. Default {@link DEFAULT_CONCEPTS}. */
  concepts?: readonly Concept[];
  /** Most aliases added per concept named. Default 2. */
  aliasesPerConcept?: number;
  /** Abbreviations to write out. Default: those of the concepts' pack. */
  abbreviations?: ReadonlyMap<string, string>;
}

/**
 * Search terms that rewrite a question in the words documents use (query expansion): the written-out forms of the
 * abbreviations it uses (`PP&E` → `property plant and equipment`) and, per concept it names, the first aliases it does
 * not already write ("capex" → `purchases of property plant and equipment`, `additions to property plant and
 * equipment`). Lower case, without duplicates; empty when the question names nothing known.
 *
 * @example
 * ```ts
 * conceptQueryTerms('What was FY2018 capex?'); // ['capital expenditures', 'purchases of property plant and equipment']
 * ```
 */
export function conceptQueryTerms(question: string, options: ConceptQueryTermsOptions = {}): string[] {
  const concepts = options.concepts ?? DEFAULT_CONCEPTS;
  const perConcept = options.aliasesPerConcept ?? 2;
  const raw = ` ${question.toLowerCase().replace(/[^a-z0-9&/]+/g, ' ')} `;
  const questionKey = singularKey(raw);
  const out: string[] = [];
  const keys: string[] = [];
  /** Adds a term unless the question or an earlier term already says it (singular / plural alike). */
  const add = (term: string): boolean => {
    const t = term.trim();
    const key = singularKey(` ${t} `);
    if (!t || raw.includes(` ${t} `) || questionKey.includes(key) || keys.includes(key)) return false;
    out.push(t);
    keys.push(key);
    return true;
  };
  for (const [short, long] of options.abbreviations ?? abbreviationsOf(concepts)) if (short !== long && raw.includes(` ${short} `)) add(long);
  for (const concept of conceptsIn(question, concepts)) {
    let added = 0;
    for (const alias of aliasesOf(concept)) {
      if (added >= perConcept) break;
      if (add(alias)) added++;
    }
  }
  return out;
}

/**
 * The phrase with each concept it names also written in the concept's aliases: the phrase itself first, then one
 * variant per alias (the words that named the concept replaced by the alias), at most `limit`. Lets term-overlap
 * scorers (table row labels, headers) match a line item written differently from the question.
 */
export function conceptVariants(text: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS, limit = 24): string[] {
  const out = [text];
  for (const concept of conceptsIn(text, concepts)) {
    const m = concept.trigger.exec(text);
    for (const alias of concept.aliases) {
      if (out.length >= limit) return out;
      const variant = m ? `${text.slice(0, m.index)}${alias}${text.slice(m.index + m[0].length)}` : `${text} ${alias}`;
      if (!out.includes(variant)) out.push(variant);
    }
  }
  return out;
}

/** Line items that are cash outflows by their wording (the finance pack's outflow label words). */
const OUTFLOW_LABEL = builtinDomainPack('finance').outflowLabel;

/**
 * True when a row label names a cash outflow — by its wording (`Purchases of…`, `Payments for…`, `Dividends paid`) or
 * as an outflow concept (capital expenditure, dividends, share repurchases). Such amounts are shown as negatives
 * (`(1,482)`); "what was the amount" means their magnitude.
 *
 * @param concepts the pack's concepts (default {@link DEFAULT_CONCEPTS}).
 * @param outflowLabel the pack's outflow wording (`CompiledDomainPack.outflowLabel`); null for none; default the finance pack's.
 */
export function isOutflowLabel(label: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS, outflowLabel: RegExp | null | undefined = OUTFLOW_LABEL): boolean {
  return (outflowLabel?.test(label) ?? false) || conceptMatch(label, concepts.filter((c) => c.outflow)).score > 0;
}

/** The abbreviations of a concept list's pack (the first concept's), else the default (finance) ones. */
function abbreviationsOf(concepts: readonly Concept[]): ReadonlyMap<string, string> {
  return concepts.find((c) => c.abbreviations)?.abbreviations ?? DEFAULT_ABBREVIATIONS;
}
