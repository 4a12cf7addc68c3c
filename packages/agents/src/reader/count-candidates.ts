import { escapeRegExp, type Support } from '@doctree/schema';
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
  const pattern = new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(target).replace(/\s+/g, '\\s+')}(?![A-Za-z0-9])`, 'gi');
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
  // "How many more A than B" compares two counts; counting one list answers nothing.
  if (profile.countTarget || profile.counted?.comparative) return [];
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

/** A numbered step or item at the start of a line: `1 Press …`, `2. Select …`, `Step 3: …`, `4) Remove …`. */
const STEP_MARKER = /^\s*(?:step\s*)?([1-9][0-9]?)(?:\s*[.):]\s*|\s+)(?=[A-Za-z(])/i;

/** What counting a numbered procedure gains when its heading names what the question is about (as a stated count does). */
const NAMED_PROCEDURE_BONUS = 0.3;

/**
 * "How many steps / stages … to do X": the numbered items (`1 …`, `2. …`, `Step 3 …` at the start of a line or
 * paragraph) of one section, counted as the longest run 1, 2, …, N — across the observed paragraphs of that section,
 * so a procedure split into one paragraph per step counts whole — when the section's heading covers the question's
 * words about what is counted (more than half of its qualifiers), scored by that coverage. Each numbered line is cited.
 */
export function numberedStepCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  const counted = profile.counted;
  if (!counted || counted.object !== undefined || counted.comparative) return [];
  const groups = new Map<string, { heading: string; numbers: Map<number, Support> }>();
  for (const e of evidence.entries) {
    const p = e.observation.payload;
    if (p.kind !== 'text' || p.heading_path.length === 0) continue;
    const key = p.heading_path.join('\u0000');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { heading: p.heading_path[p.heading_path.length - 1]!, numbers: new Map() }));
    let offset = 0;
    for (const line of e.text.text.split('\n')) {
      const m = STEP_MARKER.exec(line);
      if (m) {
        const n = Number(m[1]);
        if (!group.numbers.has(n)) group.numbers.set(n, supportFor(e.observation, offset, offset + Math.min(line.length, 200), e.text));
      }
      offset += line.length + 1;
    }
  }
  const about = counted.qualifiers.length > 0 ? counted.qualifiers : counted.modifiers;
  const wanted = [...new Set(about.map(stemWord))];
  if (wanted.length === 0) return [];
  const out: Candidate[] = [];
  for (const group of groups.values()) {
    let n = 0;
    while (group.numbers.has(n + 1)) n++;
    if (n < 2) continue;
    const heading = new Set(wordTokens(group.heading).map((t) => t.stem));
    const share = wanted.filter((w) => heading.has(w)).length / wanted.length;
    if (share <= 0.5) continue;
    const support = [...Array(n).keys()].map((i) => group.numbers.get(i + 1)!);
    out.push({
      answer: n,
      format: 'Int',
      score: evidence.coverage(group.heading).score + NAMED_PROCEDURE_BONUS * share,
      support,
      counted: true,
      notes: [`counted ${n} numbered item(s) under "${group.heading}" (its heading holds ${Math.round(share * 100)}% of the question's words about what is counted)`],
    });
  }
  return out;
}
