import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DocTreeError, DOMAIN_PACK_PATTERN_MAX, DOMAIN_PACK_VERSION, DomainPackSchema, escapeRegExp, formatIssues } from '@doctree/schema';
import type { DomainConfig, DomainPack, DomainPackInput } from '@doctree/schema';

import { runSlices, runSlicesCooperatively } from '../hub/slices.js';
import type { Concept } from './concept.js';
import { compileMeasures, mergeMeasures, type CompiledMeasure } from './measures.js';
import { FINANCE_PACK } from './packs/finance.js';
import { GENERIC_PACK } from './packs/generic.js';

/** A statement (named source) of a pack, compiled. */
export interface CompiledStatement {
  name: string;
  trigger: RegExp;
  rows: readonly string[];
}

/** A domain pack ready to use: its data (merged with the pack it extends) and its patterns compiled. */
export interface CompiledDomainPack {
  /** Pack name (`generic`, `finance`, or the file's `name`). */
  readonly name: string;
  /** Where it came from: `builtin`, or the file it was read from. */
  readonly source: string;
  /** The merged pack data. */
  readonly data: DomainPack;
  /** Concepts, in the shape the concept vocabulary uses. */
  readonly concepts: readonly Concept[];
  /** Abbreviations (lower case) and their written-out forms. */
  readonly abbreviations: ReadonlyMap<string, string>;
  readonly statements: readonly CompiledStatement[];
  /** Question words of the field's reported quantities. */
  readonly quantityTerms: readonly RegExp[];
  /** Row-label beginnings of outflows, or undefined when the pack names none. */
  readonly outflowLabel: RegExp | undefined;
  /** Words naming an amount asked for, or undefined. */
  readonly amountWords: RegExp | undefined;
  /** Named measures of the field (`quick ratio`) with their formulas over the pack's concepts; none in the generic pack. */
  readonly measures: readonly CompiledMeasure[];
  /** Words of metrics where lower is better (whole words), or undefined when the pack names none. */
  readonly lowerIsBetter: RegExp | undefined;
}

const NEVER = /(?!)/;
/** Patterns whose shape risks catastrophic backtracking: a quantified group that itself ends in a quantifier. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*]\)[+*{]/;

function compilePattern(source: string, where: string, file: string | undefined): RegExp {
  if (source.length > DOMAIN_PACK_PATTERN_MAX || NESTED_QUANTIFIER.test(source)) {
    throw new DocTreeError('SCHEMA_INVALID', `domain pack pattern at ${where} is too long or nests quantifiers`, {
      ...(file ? { file } : {}),
      hint: `Keep patterns under ${DOMAIN_PACK_PATTERN_MAX} characters without a quantified group ending in a quantifier, e.g. "\\\\bgross margin\\\\b".`,
    });
  }
  try {
    return new RegExp(source, 'i');
  } catch (cause) {
    throw new DocTreeError('SCHEMA_INVALID', `domain pack pattern at ${where} is not a valid regular expression: ${(cause as Error).message}`, {
      ...(file ? { file } : {}),
      cause,
      hint: 'Write patterns as JavaScript regular-expression source strings (backslashes doubled in JSON), e.g. "\\\\bnet sales\\\\b".',
    });
  }
}

/** One alternation of several pattern sources (each compiled first, so a bad one is reported by its place). */
function alternation(sources: readonly string[], where: string, file: string | undefined): RegExp {
  if (sources.length === 0) return NEVER;
  sources.forEach((s, i) => compilePattern(s, `${where}[${i}]`, file));
  return new RegExp(sources.map((s) => `(?:${s})`).join('|'), 'i');
}

/** Words as one `\b(?:a|b)\b` pattern, longest first; undefined for none. */
function wordsPattern(words: readonly string[], prefix = ''): RegExp | undefined {
  if (words.length === 0) return undefined;
  const sorted = [...new Set(words.map((w) => w.toLowerCase().trim()))].sort((a, b) => b.length - a.length);
  return new RegExp(`${prefix}\\b(?:${sorted.map(escapeRegExp).join('|')})\\b`, 'i');
}

/**
 * Validates pack data (a parsed JSON file or a built-in pack): `format` must be `doctree.domain-pack`, `version`
 * {@link DOMAIN_PACK_VERSION}.
 *
 * @throws DocTreeError `FORMAT_VERSION_UNSUPPORTED` (another version), `SCHEMA_INVALID` (any other mismatch), with a hint.
 */
export function parseDomainPack(json: unknown, file?: string): DomainPack {
  if (typeof json === 'object' && json !== null && (json as { format?: unknown }).format === 'doctree.domain-pack') {
    const version = (json as { version?: unknown }).version;
    if (version !== DOMAIN_PACK_VERSION) {
      throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `domain pack version ${String(version)} is not supported (expected ${DOMAIN_PACK_VERSION})`, {
        ...(file ? { file } : {}),
        hint: `Set "version": ${DOMAIN_PACK_VERSION} and check the fields against docs/schemas/domain-pack.json.`,
      });
    }
  }
  const parsed = DomainPackSchema.safeParse(json);
  if (!parsed.success) {
    throw new DocTreeError('SCHEMA_INVALID', `not a domain pack: ${formatIssues(parsed.error)}`, {
      ...(file ? { file } : {}),
      hint: 'A domain pack is JSON with "format": "doctree.domain-pack", "version": 1, a "name" and concepts [{ name, aliases, triggers? }]; see docs/schemas/domain-pack.json.',
    });
  }
  return parsed.data;
}

/** The pack `extra` added to `base`: `extra`'s entries first, abbreviations of `extra` win; name, detection of `extra`. */
export function mergeDomainPacks(base: DomainPack, extra: DomainPack): DomainPack {
  const extraShort = new Set(extra.abbreviations.map((a) => a.short));
  const extraConcepts = new Set(extra.concepts.map((c) => c.name));
  const extraStatements = new Set(extra.statements.map((s) => s.name));
  return {
    ...extra,
    abbreviations: [...extra.abbreviations, ...base.abbreviations.filter((a) => !extraShort.has(a.short))],
    concepts: [...extra.concepts, ...base.concepts.filter((c) => !extraConcepts.has(c.name))],
    statements: [...extra.statements, ...base.statements.filter((s) => !extraStatements.has(s.name))],
    quantity_terms: [...extra.quantity_terms, ...base.quantity_terms],
    outflow_label_words: [...extra.outflow_label_words, ...base.outflow_label_words],
    amount_words: [...extra.amount_words, ...base.amount_words],
    measures: mergeMeasures(base.measures, extra.measures),
    lower_is_better: [...extra.lower_is_better, ...base.lower_is_better],
  };
}

/**
 * Compiles validated pack data: merges it onto the pack it `extends` (generic by default), compiles its patterns
 * (a bad pattern throws `SCHEMA_INVALID` naming its place) and builds the concept list the vocabulary functions take.
 */
export function compileDomainPack(pack: DomainPack, source = 'builtin', file?: string): CompiledDomainPack {
  const base = pack.extends ?? 'generic';
  const merged = base === 'none' ? pack : mergeDomainPacks(builtinDomainPack(base).data, pack);
  const abbreviations = new Map<string, string>();
  for (const a of merged.abbreviations) if (!abbreviations.has(a.short.toLowerCase())) abbreviations.set(a.short.toLowerCase(), a.long.toLowerCase());
  const concepts: Concept[] = merged.concepts.map((c, i) =>
    Object.freeze({
      name: c.name,
      trigger: alternation(c.triggers, `concepts[${i}].triggers`, file),
      aliases: Object.freeze([...c.aliases]),
      ...(c.outflow ? { outflow: true } : {}),
      ...(c.general ? { general: true } : {}),
      abbreviations,
    }),
  );
  return Object.freeze({
    name: merged.name,
    source,
    data: merged,
    concepts: Object.freeze(concepts),
    abbreviations,
    statements: Object.freeze(merged.statements.map((s, i) => ({ name: s.name, trigger: alternation(s.triggers, `statements[${i}].triggers`, file), rows: s.rows }))),
    quantityTerms: Object.freeze(merged.quantity_terms.map((s, i) => compilePattern(s, `quantity_terms[${i}]`, file))),
    outflowLabel: wordsPattern(merged.outflow_label_words, '^\\s*'),
    amountWords: wordsPattern(merged.amount_words),
    measures: Object.freeze(compileMeasures(merged.measures, concepts, file)),
    lowerIsBetter: wordsPattern(merged.lower_is_better),
  });
}

const BUILTIN = new Map<string, CompiledDomainPack>();

/** A built-in pack, compiled once: `generic` or `finance`. */
export function builtinDomainPack(name: 'generic' | 'finance'): CompiledDomainPack {
  let pack = BUILTIN.get(name);
  if (!pack) {
    pack = compileDomainPack(parseDomainPack(name === 'finance' ? FINANCE_PACK : GENERIC_PACK));
    BUILTIN.set(name, pack);
  }
  return pack;
}

/** Names of the built-in packs. */
export const BUILTIN_DOMAIN_PACKS = ['generic', 'finance'] as const;

/** Parses and compiles pack data given in code (e.g. the JSON a user wrote, already parsed). */
export function domainPackFrom(json: DomainPackInput | unknown, file?: string): CompiledDomainPack {
  return compileDomainPack(parseDomainPack(json, file), file ?? 'inline', file);
}

/**
 * Reads a domain pack JSON file (relative paths from the working folder), validates and compiles it.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (unreadable), `SCHEMA_INVALID` (not JSON, not a pack, bad pattern),
 *   `FORMAT_VERSION_UNSUPPORTED` — each with a hint.
 */
export async function loadDomainPack(path: string): Promise<CompiledDomainPack> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'the domain pack file (domain.pack) cannot be read', {
      file,
      cause,
      hint: 'Set domain.pack to "auto", "generic", "finance" or the path of a domain pack JSON file.',
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('SCHEMA_INVALID', `the domain pack is not valid JSON: ${(cause as Error).message}`, {
      file,
      cause,
      hint: 'Check the file with a JSON validator; patterns need their backslashes doubled.',
    });
  }
  return domainPackFrom(json, file);
}

/** A pack named by configuration: a built-in name, or a file path. `auto` is not a pack (see {@link selectDomainPack}). */
export async function resolveDomainPack(spec: string): Promise<CompiledDomainPack> {
  if (spec === 'generic' || spec === 'finance') return builtinDomainPack(spec);
  return loadDomainPack(spec);
}

/** Most characters of lead text per page: a bound should a tree's reading order put later text inside the first pages. */
const LEAD_CHARS_PER_PAGE = 10_000;

/**
 * The text of a document's first pages: a string is taken as is; a tree gives its text up to the end of the last node
 * lying wholly on its first `pages` pages (0-based `page_span` last page < `pages`). A node running past them — the root,
 * or a section, whose `char_span` covers its whole subtree — does not count: on a 160-page 10-K the lead text is the
 * cover and the first pages (some 20 KB), not the filing (about 1 MB). When no node lies wholly on those pages (one
 * node spans them all), the text of their first `pages × 10 000` characters. Never longer than that either.
 */
export function leadText(doc: string | { text: string; nodes: ReadonlyArray<{ page_span: readonly [number, number]; char_span: readonly [number, number] }> }, pages = 5): string {
  if (typeof doc === 'string') return doc;
  const limit = Math.max(1, pages) * LEAD_CHARS_PER_PAGE;
  let end = 0;
  for (const node of doc.nodes) if (node.page_span[1] < pages) end = Math.max(end, node.char_span[1]);
  return doc.text.slice(0, Math.min(end > 0 ? end : limit, limit));
}

/** Distinct detection phrases of a pack found in a text (case-insensitive, whole words). */
export function detectionHits(text: string, pack: CompiledDomainPack): string[] {
  return runSlices(detectionHitSteps(text, pack));
}

/** Characters normalised in one slice of {@link detectionHitSteps} (a long filing's lead text is a megabyte). */
const NORMALIZE_SLICE_CHARS = 65_536;

/** The work of {@link detectionHits}, yielding between its slices (see `runSlices`). */
function* detectionHitSteps(text: string, pack: CompiledDomainPack): Generator<void, string[]> {
  const phrases = pack.data.detect?.phrases ?? [];
  const parts: string[] = [' '];
  // Lower case, curly apostrophes straightened, whitespace runs collapsed — slice by slice, each slice ending where a
  // whitespace run starts, so that no run (nor a word, for case mapping) is split: the same text as in one go.
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + NORMALIZE_SLICE_CHARS);
    while (end < text.length && !(/\s/.test(text[end]!) && !/\s/.test(text[end - 1]!))) end++;
    parts.push(text.slice(start, end).toLowerCase().replace(/[’]/g, "'").replace(/\s+/g, ' '));
    start = end;
    yield;
  }
  parts.push(' ');
  const lower = parts.join('');
  const hits: string[] = [];
  for (const phrase of phrases) {
    if (containsWholeWords(lower, phrase.toLowerCase())) hits.push(phrase);
    yield;
  }
  return hits;
}

const ASCII_WORD_CHAR = /[a-z0-9]/;

/**
 * Whether `phrase` occurs in `text` with no ASCII letter or digit right before or after it — what the regular
 * expression `(?<![a-z0-9])phrase(?![a-z0-9])` tests, found with `indexOf` (a scan per occurrence instead of a regex
 * compiled and run over a whole 10-K's first pages per phrase).
 */
function containsWholeWords(text: string, phrase: string): boolean {
  if (phrase === '') return true;
  for (let at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) {
    const before = at > 0 ? text[at - 1]! : '';
    const after = text[at + phrase.length] ?? '';
    if (!ASCII_WORD_CHAR.test(before) && !ASCII_WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** Options of {@link selectDomainPack}. */
export interface SelectDomainPackOptions {
  /** Packs the document may choose besides generic. Default: the finance pack. */
  candidates?: readonly CompiledDomainPack[];
}

/** A chosen pack and why. */
export interface DomainPackChoice {
  pack: CompiledDomainPack;
  /** `config` (named by `domain.pack`), `document` (its first pages read like the pack's field), `default` (generic). */
  chosenBy: 'config' | 'document' | 'default';
  /** Detection phrases found, when the document chose. */
  hits: string[];
}

/**
 * The pack to read a document's questions with: the one `domain.pack` names (`generic`, `finance`, a file), or — for
 * `auto` (default) — the candidate whose detection phrases the document's first pages hold at least `min_hits` of
 * (`FORM 10-K`, `consolidated balance sheets`, `annual report`…; the candidate with most hits wins), else generic.
 */
export async function selectDomainPack(
  doc: Parameters<typeof leadText>[0],
  config: Partial<DomainConfig> | undefined = undefined,
  options: SelectDomainPackOptions = {},
): Promise<DomainPackChoice> {
  const spec = config?.pack ?? 'auto';
  if (spec !== 'auto') return { pack: await resolveDomainPack(spec), chosenBy: 'config', hits: [] };
  return detectDomainPack(doc, options);
}

/** The synchronous, document-only part of {@link selectDomainPack} (`auto`). */
export function detectDomainPack(doc: Parameters<typeof leadText>[0], options: SelectDomainPackOptions = {}): DomainPackChoice {
  return runSlices(detectDomainPackSteps(doc, options));
}

/**
 * {@link detectDomainPack} in slices: `await pause()` runs between slices of the lead text's normalisation and between
 * phrases (a cooperative checkpoint such as the agent's `createPause`, which yields to the event loop every few ms and
 * throws `CANCELLED` once the question's signal aborts). Same choice as {@link detectDomainPack}.
 */
export function detectDomainPackInSlices(doc: Parameters<typeof leadText>[0], options: SelectDomainPackOptions, pause: () => Promise<void>): Promise<DomainPackChoice> {
  return runSlicesCooperatively(detectDomainPackSteps(doc, options), pause);
}

function* detectDomainPackSteps(doc: Parameters<typeof leadText>[0], options: SelectDomainPackOptions): Generator<void, DomainPackChoice> {
  const candidates = options.candidates ?? [builtinDomainPack('finance')];
  let best: DomainPackChoice | undefined;
  for (const pack of candidates) {
    const detect = pack.data.detect;
    if (!detect) continue;
    const lead = leadText(doc, detect.first_pages);
    yield;
    const hits = yield* detectionHitSteps(lead, pack);
    if (hits.length >= detect.min_hits && (!best || hits.length > best.hits.length)) best = { pack, chosenBy: 'document', hits };
  }
  return best ?? { pack: builtinDomainPack('generic'), chosenBy: 'default', hits: [] };
}
