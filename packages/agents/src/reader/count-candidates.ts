import type { Support } from '@doctree/schema';
import type { Candidate, EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { listCandidates } from './list-candidates.js';
import { supportFor } from './observation-text.js';
import { stemWord, wordTokens } from './text-spans.js';

/** What a "how many times does W appear" question counts: the word or phrase W, else undefined. */
export function occurrenceTarget(question: string): string | undefined {
  const quoted = /\bhow many times\b[^"“'‘]*["“'‘]([^"”'’]{1,60})["”'’]/i.exec(question);
  if (quoted) return quoted[1]!.trim();
  const plain = /\bhow many times\s+(?:does|do|did|is|are|was|were|has|have)\s+(?:the\s+(?:word|term|name|phrase|string)\s+)?(.{1,60}?)\s+(?:appear|occur|show up|get mentioned|mentioned|written|used|printed|shown)/i.exec(question);
  return plain?.[1]?.trim() || undefined;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The observations to count in, without double counting: on the pages the question names (all when it names none),
 * and an observation whose text lies inside another kept one of the same page (a paragraph of an observed section)
 * dropped unless both are anchored (anchored occurrences are told apart by their document offsets).
 */
function countPool(evidence: EvidenceSet): EvidenceEntry[] {
  const pages = new Set(evidence.profile.pages);
  const onPages = evidence.entries.filter((e) => pages.size === 0 || pages.has(e.observation.page));
  const bySize = [...onPages].sort((a, b) => b.text.text.length - a.text.text.length);
  const kept: EvidenceEntry[] = [];
  for (const e of bySize) {
    const inside = kept.some((k) => k.observation.page === e.observation.page && k.text.text.includes(e.text.text) && !(k.text.anchor && e.text.anchor));
    if (!inside) kept.push(e);
  }
  return kept;
}

/**
 * "How many times does 'W' appear (on page N)?": the occurrences of W as a whole word or phrase, case-insensitive, in
 * the observed text of the pages the question names (every observation when it names none). An occurrence seen in
 * two observations (a section and its paragraph) counts once. Each observation holding W is cited.
 */
export function occurrenceCountCandidates(evidence: EvidenceSet): Candidate[] {
  const target = occurrenceTarget(evidence.profile.question);
  if (!target) return [];
  const pool = countPool(evidence);
  if (pool.length === 0) return [];
  const pattern = new RegExp(`(?<![A-Za-z0-9])${escape(target).replace(/\s+/g, '\\s+')}(?![A-Za-z0-9])`, 'gi');
  const seen = new Set<string>();
  const support: Support[] = [];
  for (const e of pool) {
    let first: { start: number; end: number } | undefined;
    for (const m of e.text.text.matchAll(pattern)) {
      const anchored = e.text.anchor && m.index + m[0].length <= e.text.anchor.length;
      const key = anchored ? `doc:${e.text.anchor!.start + m.index}` : `${e.observation.node_id}:${m.index}`;
      if (seen.has(key)) continue;
      seen.add(key);
      first ??= { start: m.index, end: m.index + m[0].length };
    }
    if (first) {
      const lineStart = e.text.text.lastIndexOf('\n', first.start) + 1;
      const lineEnd = e.text.text.indexOf('\n', first.end);
      support.push(supportFor(e.observation, lineStart, Math.min(lineEnd < 0 ? e.text.text.length : lineEnd, lineStart + 200), e.text));
    }
  }
  if (seen.size === 0) return [];
  const onNamedPages = evidence.profile.pages.length > 0;
  return [
    {
      answer: seen.size,
      format: 'Int',
      score: onNamedPages ? 0.8 : 0.55,
      support,
      notes: [`counted ${seen.size} occurrence(s) of "${target}"${onNamedPages ? ` on page ${evidence.profile.pages.join(', ')}` : ''} in ${support.map((s) => s.node_id).join(', ')}`],
    },
  ];
}

/**
 * "How many X …" when no sentence states the number: the items of a list (bullets, table column, enumeration) whose
 * heading, introducing line or header names what is counted (`steps`, `types`), counted; scored as the list.
 */
export function itemCountCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  if (profile.countTarget) return [];
  const measure = profile.measure ? stemWord(profile.measure) : undefined;
  if (measure === undefined) return [];
  // Only a list about what is counted: its heading, lead or header names it ("Steps to …", "The three types are").
  const about = (list: Candidate): boolean => wordTokens(list.about ?? '').some((t) => t.stem === measure || t.stem === stemWord(measure.replace(/s$/, '')));
  return listCandidates(evidence).filter(about).map((list) => {
    const items = Array.isArray(list.answer) ? list.answer.length : 0;
    return {
      answer: items,
      format: 'Int' as const,
      score: list.score,
      support: list.support,
      counted: true,
      notes: [`counted ${items} item(s): ${list.notes[0] ?? ''}`],
    };
  });
}
