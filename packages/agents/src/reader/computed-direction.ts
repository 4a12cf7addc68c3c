import type { ComputedValue, Support } from '@doctree/schema';

import type { Candidate, EvidenceSet } from './evidence-model.js';
import { tableRowSupport } from './table-candidates.js';

/** Fit of a direction the plan computed (a measure the question names, at the two years it compares) from one table. */
const COMPUTED_DIRECTION_FIT = 0.85;
/**
 * Less fit when the operands come from different tables: a line item found in another table (a segment's, a note's)
 * can flip a small change, so a sentence of the evidence stating the measure's direction may outweigh it.
 */
const ACROSS_TABLES_PENALTY = 0.3;

/** The operations of a computed direction: Yes when the change (newest − oldest) is above / below zero. */
const DIRECTIONS: ReadonlyMap<string, 'up' | 'down'> = new Map([
  ['increase', 'up'],
  ['decrease', 'down'],
]);

/**
 * Yes/No from a direction the plan computed: a yes/no question whether a measure rose, fell, improved or worsened
 * between two years, computed as the measure's change (newest − oldest; `increase`: Yes when above zero, `decrease`:
 * Yes when below zero, No otherwise — an unchanged measure moved neither way). The values the change is derived from
 * (the measure at each year, operation `part`) and the change are in the notes; every operand cell is cited, and the
 * answer is not offered when one of them is not among the observations (the reader could not cite it).
 *
 * @example
 * ```ts
 * computedDirectionCandidates(evidence, [
 *   { operation: 'increase', value: -0.12, text: '-0.12', percent: false, operands: cells },
 *   { operation: 'part', value: 1.73, text: '1.73', percent: false, operands: cells },
 *   { operation: 'part', value: 1.61, text: '1.61', percent: false, operands: cells },
 * ]);
 * // [{ answer: 'No', display: 'No (1.73 → 1.61, change -0.12)', notes: ['No: computed by the plan, the measure went from 1.73 to 1.61 (change -0.12); the question asks whether it went up', …] }]
 * ```
 */
export function computedDirectionCandidates(evidence: EvidenceSet, computed: readonly ComputedValue[]): Candidate[] {
  const parts = computed.filter((c) => c.operation === 'part');
  for (const c of computed) {
    const asked = DIRECTIONS.get(c.operation);
    if (!asked || !Number.isFinite(c.value) || c.operands.length === 0) continue;
    const support: Support[] = [];
    for (const operand of c.operands) {
      const entry = evidence.entries.find((e) => e.observation.node_id === operand.node_id && e.observation.payload.kind === 'table');
      if (!entry) break;
      support.push(tableRowSupport(entry, operand.row, operand.raw));
    }
    if (support.length !== c.operands.length) continue;
    const moved = c.value > 0 ? 'up' : c.value < 0 ? 'down' : 'neither way';
    const answer = moved === asked ? 'Yes' : 'No';
    const values = parts.length === 2 ? `went from ${parts[0]!.text} to ${parts[1]!.text}` : `moved ${moved}`;
    const change = `${c.value > 0 ? '+' : ''}${c.text}`;
    return [
      {
        answer,
        format: 'Str',
        display: parts.length === 2 ? `${answer} (${parts[0]!.text} → ${parts[1]!.text}, change ${change})` : `${answer} (change ${change})`,
        score: COMPUTED_DIRECTION_FIT - (new Set(c.operands.map((o) => o.node_id)).size > 1 ? ACROSS_TABLES_PENALTY : 0),
        support,
        computed: true,
        notes: [
          `${answer}: computed by the plan, the measure ${values} (change ${change}); the question asks whether it went ${asked}`,
          `operands: ${c.operands.map((o) => `"${o.row}" ${o.column} (${o.raw})`).join(', ')}`,
        ],
      },
    ];
  }
  return [];
}
