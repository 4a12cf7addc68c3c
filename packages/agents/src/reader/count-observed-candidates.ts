import type { Observation, Support } from '@doctree/schema';
import type { Candidate, EvidenceSet } from './evidence-model.js';
import { supportFor } from './observation-text.js';
import { stemWord } from './text-spans.js';

/** Counts of what the question names among the observed objects and list items. */

const COUNT_WORDS = new Set(
  ['figur', 'tabl', 'chart', 'graph', 'plot', 'imag', 'pictur', 'photo', 'photograph', 'diagram', 'illustr', 'show', 'appear', 'present', 'contain', 'includ', 'paper', 'section', 'report', 'document', 'slide', 'there', 'total'].map(stemWord),
);

function countable(observation: Observation, target: string): boolean {
  const m = observation.modality;
  const p = observation.payload;
  if (target === 'table') return m === 'table';
  if (target === 'chart') return m === 'chart' || (p.kind === 'image' && p.chart_type !== undefined && !/photo|diagram/.test(p.chart_type));
  return m === 'image' || m === 'chart';
}

/**
 * "How many figures/tables/charts…": counts the observed nodes of that kind — on the pages the question names, when
 * it names any — restricted to those matching the question's other terms when some do. Each counted node is a support (its caption or description).
 */
export function countObservedCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  const target = profile.countTarget;
  if (!target) return [];
  // Only on the pages the question names, when it names any.
  const pages = new Set(profile.pages);
  const pool = evidence.entries.filter((e) => countable(e.observation, target) && (pages.size === 0 || pages.has(e.observation.page)));
  if (pool.length === 0) return [];
  const qualifiers = evidence.terms.filter((t) => !COUNT_WORDS.has(t.stem) && t.weight >= 1);
  let counted = pool;
  let qualified = false;
  if (qualifiers.length > 0) {
    const matching = pool.filter((e) => qualifiers.some((q) => e.stems.has(q.stem) || e.contextStems.has(q.stem)));
    if (matching.length > 0) {
      counted = matching;
      qualified = true;
    }
  }
  const ids = new Set<string>();
  const support: Support[] = [];
  for (const e of counted) {
    if (ids.has(e.observation.node_id)) continue;
    ids.add(e.observation.node_id);
    const firstLine = e.text.text.indexOf('\n');
    const end = firstLine > 0 ? firstLine : Math.min(e.text.text.length, 160);
    // Cite only document text (a caption, a table's rows); a figure without caption is counted but not quoted,
    // since its observation text is a description written by the observer, not words on the page.
    if (e.text.anchor !== undefined && end <= e.text.anchor.length) support.push(supportFor(e.observation, 0, end, e.text));
  }
  return [
    {
      answer: ids.size,
      format: 'Int',
      score: qualified ? 0.7 : qualifiers.length > 0 ? 0.4 : 0.6,
      support,
      notes: [`counted ${ids.size} observed ${target} node(s)${qualified ? ' matching the question terms' : ''}: ${[...ids].join(', ')}`],
    },
  ];
}
