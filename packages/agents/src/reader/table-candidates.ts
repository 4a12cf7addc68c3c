import { yearMentions, type AnswerFormat, type ComputedValue, type Support } from '@doctree/schema';
import { conceptsIn, isOutflowLabel, type Concept } from '@doctree/toolhub';
import { EvidenceSet, type Candidate, type EvidenceEntry } from './evidence-model.js';
import { describeQuantity, findStatedScale, isYearLike, parseNumberCell, scaleFromWord, SCALE_FACTORS, type ParsedNumber, type Scale } from './numbers.js';
import { supportFor } from './observation-text.js';
import { packedSubHeaders, splitPackedValues, unpackCell } from './packed-cells.js';
import { comparedYears, weightedTerms, type QuestionProfile } from './question-profile.js';

/** A numeric cell matched to the question: its row, column, value and how well each matched. */
export interface CellMatch {
  entry: EvidenceEntry;
  row: number;
  col: number;
  label: string;
  cell: string;
  parsed: ParsedNumber;
  rowScore: number;
  concept?: Concept;
  score: number;
  notes: string[];
  /** The header the value stands under: the column's, followed by its setting when the cell packs several values. */
  header?: string;
}

const SIGNED_QUESTION = /\b(?:change|net|decrease|increase|loss|gain|deficit|difference|inflow|outflow)\b/i;

/** How much a packed cell's value gains when the question names its setting. */
const SETTING_BONUS = 0.15;

/** Whether the question names a setting word for word (case-insensitive, not inside a longer word or number). */
function namesSetting(question: string, setting: string): boolean {
  if (!setting) return false;
  const q = question.toLowerCase();
  const s = setting.toLowerCase();
  for (let at = q.indexOf(s); at >= 0; at = q.indexOf(s, at + 1)) {
    const before = q[at - 1] ?? ' ';
    const after = q[at + s.length] ?? ' ';
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
  }
  return false;
}

/** Years a column header names (`2018`, `FY2018`, `FY18`, `fiscal 2018`). */
export function columnYears(header: string): number[] {
  return yearMentions(header, { prefix: 'fiscal', twoDigit: 'fiscal' }).map((m) => m.year);
}

/** Label of a body row: its leading non-numeric cells joined (a year in the first cell is a label too; a cell of several values is not). */
function rowLabel(row: readonly string[]): { label: string; firstValue: number } {
  const parts: string[] = [];
  let c = 0;
  for (; c < row.length; c++) {
    const cell = row[c]!;
    const parsed = cell ? parseNumberCell(cell) : null;
    if (parsed && !(c === 0 && isYearLike(parsed))) break;
    // A cell of several values side by side starts the values too.
    if (c > 0 && splitPackedValues(cell)) break;
    if (cell && !parts.includes(cell)) parts.push(cell);
  }
  return { label: parts.join(' '), firstValue: c };
}

/** The span of a row in the table's text: from the row label to the end of the cell (same line). */
export function tableRowSupport(entry: EvidenceEntry, label: string, cell: string): Support {
  const { text } = entry.text;
  let offset = 0;
  let fallback: { start: number; end: number } | undefined;
  for (const line of text.split('\n')) {
    const labelAt = label ? line.indexOf(label) : 0;
    if (labelAt >= 0) {
      const cellAt = line.indexOf(cell, labelAt + label.length);
      if (cellAt >= 0) return supportFor(entry.observation, offset + labelAt, offset + cellAt + cell.length, entry.text);
    }
    if (!fallback && line.includes(cell) && label && line.toLowerCase().includes(label.toLowerCase().slice(0, 12))) fallback = { start: offset, end: offset + line.length };
    offset += line.length + 1;
  }
  if (fallback) return supportFor(entry.observation, fallback.start, fallback.end, entry.text);
  const at = text.indexOf(cell);
  return at >= 0 ? supportFor(entry.observation, at, at + cell.length, entry.text) : supportFor(entry.observation, 0, Math.min(text.length, 200), entry.text);
}

/** Scale of a table: its payload scale, else one stated in its caption or columns. */
function tableScale(entry: EvidenceEntry): Scale | undefined {
  const p = entry.observation.payload;
  if (p.kind !== 'table') return undefined;
  return (p.scale ? scaleFromWord(p.scale) : undefined) ?? findStatedScale([p.caption ?? '', ...p.columns].join(' '));
}

/** Converts a value from the evidence scale to the scale asked; returns the value and a note when converted. */
export function rescale(value: number, from: Scale | undefined, to: Scale | undefined): { value: number; note?: string } {
  if (!from || !to || from === to) return { value };
  const converted = (value * SCALE_FACTORS[from]) / SCALE_FACTORS[to];
  return { value: Math.round(converted * 1e6) / 1e6, note: `converted from ${from}s to ${to}s` };
}

/** Final numeric answer from a matched value: scale conversion, outflow magnitude, format. */
export function numericAnswer(
  profile: QuestionProfile,
  parsed: ParsedNumber,
  evidenceScale: Scale | undefined,
  context: { label: string; concept?: Concept; unit?: string | null },
): { answer: number | string; format: AnswerFormat; notes: string[]; display?: string } {
  const notes: string[] = [];
  let value = parsed.value;
  const scale = parsed.scale ?? evidenceScale;
  if (!parsed.percent) {
    const r = rescale(value, scale, profile.scale);
    value = r.value;
    if (r.note) notes.push(r.note);
  }
  if (value < 0 && (context.concept?.outflow || isOutflowLabel(context.label, profile.domainConcepts, profile.outflowLabel)) && !SIGNED_QUESTION.test(profile.question)) {
    value = Math.abs(value);
    notes.push(`"${context.label}" is an outflow shown as ${parsed.raw}; its amount is reported`);
  }
  const unit = {
    ...(parsed.currency || (context.unit && context.unit !== '%') ? { currency: parsed.currency ?? context.unit ?? '' } : {}),
    percent: parsed.percent || context.unit === '%',
    ...(profile.scale ?? scale ? { scale: (profile.scale ?? scale)! } : {}),
    ...(parsed.times ? { times: true } : {}),
  };
  const described = describeQuantity(value, unit);
  notes.push(`value: ${described}`);
  if (profile.format === 'Str' && profile.formatFromDecision) return { answer: described, format: 'Str', notes };
  // What a person reads: the number with its currency, percent sign, scale or "times" — only when there is one.
  const display = unit.currency || unit.percent || unit.scale || unit.times ? described : undefined;
  // The router's Float stays Float; otherwise whole numbers are Int.
  const format: AnswerFormat = Number.isInteger(value) && parsed.decimals === 0 && !(profile.format === 'Float' && profile.formatFromDecision) ? 'Int' : 'Float';
  return { answer: value, format, notes, ...(display !== undefined ? { display } : {}) };
}

/** Every numeric cell of the observed tables scored against the question (best first). */
export function scoreTableCells(evidence: EvidenceSet): CellMatch[] {
  const { profile } = evidence;
  const out: CellMatch[] = [];
  for (const entry of evidence.entries) {
    const p = entry.observation.payload;
    if (p.kind !== 'table' || p.rows.length === 0) continue;
    const headerYears = p.columns.map(columnYears);
    const anyYearColumns = headerYears.some((y) => y.length > 0);
    // Columns whose cells pack one value per setting their sub-header row names.
    const subHeaders = packedSubHeaders(p.rows);
    p.rows.forEach((row, r) => {
      const { label, firstValue } = rowLabel(row);
      if (!label) return;
      const cov = evidence.coverage(label, entry.contextStems);
      const yearRow = profile.years.length > 0 && columnYears(label).some((y) => profile.years.includes(y));
      // The row label itself must name something the question asks about (context alone never qualifies a row).
      if (!yearRow && (cov.primary === 0 || cov.score < 0.2)) return;
      const totalRow = /^\s*total\b/i.test(label) && !/\btotal\b/i.test(profile.question);
      for (let c = Math.max(1, firstValue); c < row.length; c++) {
        const packed = unpackCell(row[c]!, p.columns[c] ?? '', subHeaders.get(c));
        for (const { cell, header, sub } of packed ? packed.map((u) => ({ cell: u.value, header: u.header, sub: true })) : [{ cell: row[c]!, header: p.columns[c] ?? '', sub: false }]) {
          const parsed = parseNumberCell(cell);
          if (!parsed || isYearLike(parsed)) continue;
          const notes: string[] = sub ? [`value under "${header}" of a cell holding one value per setting`] : [];
          let score = cov.score + (cov.concept ? 0.1 : 0);
          const years = headerYears[c] ?? [];
          if (yearRow) {
            // Years run down the rows: the column label carries the question's terms.
            score = Math.max(score, evidence.coverage(header, entry.contextStems).score) + 0.25;
          } else if (profile.years.length > 0) {
            if (years.some((y) => profile.years.includes(y))) score += 0.25;
            else if (years.length > 0) score -= 0.35;
            else if (anyYearColumns) score -= 0.1;
          } else {
            score -= 0.03 * (c - firstValue);
          }
          if (header && !yearRow) score += 0.1 * evidence.coverage(header).score;
          // A setting the question names word for word ("50-shot") picks its value among the cell's.
          if (sub && namesSetting(profile.question, header.slice((p.columns[c] ?? '').length).trim())) score += SETTING_BONUS;
          const percent = parsed.percent || p.units[c] === '%';
          if (profile.wantsPercent) score += percent ? 0.1 : -0.25;
          else if (percent && profile.kind === 'number' && profile.wantsAmount) score -= 0.25;
          if (totalRow) score -= 0.05;
          score -= 0.01 * entry.rank;
          out.push({ entry, row: r, col: c, label, cell, parsed, rowScore: cov.score, ...(cov.concept ? { concept: cov.concept } : {}), score, notes, ...(sub ? { header } : {}) });
        }
      }
    });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Numeric lookups in tables: the best cell's value with its row as support. */
export function tableNumberCandidates(evidence: EvidenceSet, limit = 3): Candidate[] {
  return scoreTableCells(evidence)
    .slice(0, limit)
    .map((m) => {
      const p = m.entry.observation.payload;
      const unit = p.kind === 'table' ? p.units[m.col] : null;
      const value = numericAnswer(evidence.profile, m.parsed, tableScale(m.entry), { label: m.label, ...(m.concept ? { concept: m.concept } : {}), unit: unit ?? null });
      const column = m.header ?? (p.kind === 'table' ? p.columns[m.col] : '');
      return {
        answer: value.answer,
        format: value.format,
        score: m.score,
        support: [tableRowSupport(m.entry, m.label, m.cell)],
        notes: [`table ${m.entry.observation.node_id}: row "${m.label}", column "${column}", cell ${m.cell}`, ...m.notes, ...value.notes],
        ...(value.display !== undefined ? { display: value.display } : {}),
        ...(m.parsed.percent || unit === '%' ? { statedPercent: true } : {}),
      };
    });
}

/** Least row match (weighted share of question terms) a cell needs to answer a question that names its row and column. */
const MIN_NAMED_ROW_SCORE = 0.2;

/**
 * Numeric cells at the row and the column a question names, for questions that do not say they ask a number
 * ("what was the yield of A at B"): a cell answers when its row label and its column header (with the setting of
 * a packed cell) both hold words of the question that the other does not. Scored like a text cell at a named row
 * and column, plus the bonus of a setting named word for word, so the value wins over the cell written as text.
 */
export function namedCellCandidates(evidence: EvidenceSet, limit = 2): Candidate[] {
  const out: Candidate[] = [];
  for (const m of scoreTableCells(evidence)) {
    if (m.rowScore < MIN_NAMED_ROW_SCORE) continue;
    const p = m.entry.observation.payload;
    if (p.kind !== 'table') continue;
    const column = m.header ?? p.columns[m.col] ?? '';
    const rowStems = new Set(evidence.coverage(m.label).matched.map((t) => t.stem));
    const header = evidence.coverage(column);
    const headerOnly = header.matched.filter((t) => !rowStems.has(t.stem));
    if (headerOnly.length === 0) continue;
    const headerScore = headerOnly.reduce((sum, t) => sum + t.weight, 0) / evidence.totalWeight;
    const setting = m.header !== undefined && namesSetting(evidence.profile.question, m.header.slice((p.columns[m.col] ?? '').length).trim());
    const unit = p.units[m.col] ?? null;
    const value = numericAnswer(evidence.profile, m.parsed, tableScale(m.entry), { label: m.label, ...(m.concept ? { concept: m.concept } : {}), unit });
    out.push({
      answer: value.answer,
      format: value.format,
      score: 0.6 * m.rowScore + 0.4 * headerScore + 0.1 + (setting ? SETTING_BONUS : 0) - 0.01 * m.entry.rank,
      support: [tableRowSupport(m.entry, m.label, m.cell)],
      notes: [`table ${m.entry.observation.node_id}: value at the row "${m.label}" and the column "${column}" the question names, cell ${m.cell}`, ...m.notes, ...value.notes],
      ...(value.display !== undefined ? { display: value.display } : {}),
    });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, limit);
}

/** Least row match (weighted share of question terms) a computed candidate's row needs. */
const MIN_COMPUTE_ROW_SCORE = 0.3;

/** Arithmetic the reader can do over table cells. */
const OVER_YEARS = new Set(['difference', 'percent_change', 'sum', 'average']);
const BETWEEN_ITEMS = new Set(['ratio', 'percent', 'difference', 'sum']);

/** Rounds a computed value to 4 decimals. */
const round4 = (value: number): number => Math.round(value * 1e4) / 1e4;

/** The computed answer's format: Int for whole results unless a Float is expected. */
function computedFormat(profile: QuestionProfile, value: number): AnswerFormat {
  return Number.isInteger(value) && profile.format !== 'Float' ? 'Int' : 'Float';
}

/** Amounts of outflow rows shown as negatives (`(1,482)`) are combined by their magnitudes. */
function magnitudes(cells: readonly CellMatch[]): number[] {
  const values = cells.map((c) => c.parsed.value);
  return values.every((v) => v < 0) && cells.every((c) => c.concept?.outflow || isOutflowLabel(c.label)) ? values.map((v) => -v) : values;
}

/**
 * Arithmetic over one table row across the years asked (difference newest − oldest, percent change oldest → newest,
 * sum, average), when the question names two or more years and such an operation. The row is the best-matching one;
 * the candidate outranks a plain lookup of that row (the question asks for the computation, not a cell).
 */
export function tableComputeCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  const ops = profile.operations.filter((o) => OVER_YEARS.has(o));
  // The years asked, or for a growth rate / change of one year, that year and the one before it.
  const years = ops.length > 0 ? comparedYears(profile, ops[0]!) : [];
  if (ops.length === 0 || years.length < 2) return [];
  const cells = scoreTableCells(evidence);
  const p0 = cells[0]?.entry.observation.payload;
  const best = cells.find((c) => {
    const p = c.entry.observation.payload;
    // The row must name what the question asks about, not just an operation word ("higher", "change").
    if (p.kind !== 'table' || c.rowScore < MIN_COMPUTE_ROW_SCORE) return false;
    const found = new Set(cells.filter((o) => o.entry === c.entry && o.row === c.row).flatMap((o) => columnYears(p.columns[o.col] ?? '')).filter((y) => years.includes(y)));
    return found.size >= 2;
  });
  if (!best || !p0) return [];
  const p = best.entry.observation.payload;
  if (p.kind !== 'table') return [];
  const sameRow = cells.filter((c) => c.entry === best.entry && c.row === best.row);
  const byYear = new Map<number, CellMatch>();
  for (const c of sameRow) for (const y of columnYears(p.columns[c.col] ?? '')) if (years.includes(y) && !byYear.has(y)) byYear.set(y, c);
  if (byYear.size < 2) return [];
  const used = [...byYear.keys()].sort((a, b) => a - b);
  const chosen = used.map((y) => byYear.get(y)!);
  const values = magnitudes(chosen);
  const op = ops[0]!;
  const first = values[0]!;
  const last = values[values.length - 1]!;
  let value: number;
  if (op === 'difference') value = last - first;
  else if (op === 'percent_change') {
    if (first === 0) return [];
    value = ((last - first) / Math.abs(first)) * 100;
  } else if (op === 'sum') value = values.reduce((a, b) => a + b, 0);
  else value = values.reduce((a, b) => a + b, 0) / values.length;
  value = round4(value);
  const support = chosen.map((c) => tableRowSupport(best.entry, best.label, c.cell));
  const scaled = op === 'percent_change' ? { value } : rescale(value, tableScale(best.entry), profile.scale);
  return [
    {
      answer: scaled.value,
      format: computedFormat(profile, scaled.value),
      // Above any single cell of the row: the question asks for the computation.
      score: Math.max(...sameRow.map((c) => c.score)) + 0.2,
      support,
      computed: true,
      notes: [`${op} of "${best.label}" over ${used.join(', ')}: ${values.join(', ')} → ${scaled.value}${op === 'percent_change' ? '%' : ''}`, ...(scaled.note ? [scaled.note] : [])],
    },
  ];
}

/** A profile for one side of a two-item question: its own terms and concepts, the question's years and scale. */
function sideProfile(profile: QuestionProfile, side: string): QuestionProfile {
  const { sides: _sides, ...rest } = profile;
  return { ...rest, question: side, terms: weightedTerms(side), concepts: conceptsIn(side, profile.domainConcepts), operations: [] };
}

/**
 * Two line items combined in one period — "ratio of A to B", "A as a percentage of B", "what share of B came from
 * A", "difference between A and B", "sum of A and B": the best cell of each item (same year column when the question
 * names one), combined. Scored by the weaker of the two matches plus a bonus (the question asks for the computation).
 */
export function tableTwoItemCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  const sides = profile.sides;
  if (!sides || !BETWEEN_ITEMS.has(sides.operation)) return [];
  const observations = evidence.entries.map((e) => e.observation);
  const matches = sides.sides.map((side) => {
    const sub = new EvidenceSet(observations, sideProfile(profile, side));
    return scoreTableCells(sub).filter((c) => c.rowScore >= 0.5);
  });
  const [as, bs] = matches as [CellMatch[], CellMatch[]];
  const a = as[0];
  if (!a || bs.length === 0) return [];
  // B from the same table and column when it has one (the same period), else its own best cell.
  const b = bs.find((c) => c.entry.observation.node_id === a.entry.observation.node_id && c.col === a.col && c.row !== a.row) ?? bs.find((c) => c.row !== a.row || c.entry !== a.entry);
  if (!b) return [];
  const [va, vb] = magnitudes([a, b]) as [number, number];
  let value: number;
  if (sides.operation === 'ratio') {
    if (vb === 0) return [];
    value = va / vb;
  } else if (sides.operation === 'percent') {
    if (vb === 0) return [];
    value = (va / vb) * 100;
  } else if (sides.operation === 'difference') value = va - vb;
  else value = va + vb;
  value = round4(value);
  const scaled = sides.operation === 'difference' || sides.operation === 'sum' ? rescale(value, tableScale(a.entry), profile.scale) : { value };
  const entryOf = (c: CellMatch): EvidenceEntry => evidence.entries.find((e) => e.observation.node_id === c.entry.observation.node_id) ?? c.entry;
  return [
    {
      answer: scaled.value,
      format: computedFormat(profile, scaled.value),
      score: Math.min(a.score, b.score) + 0.3,
      support: [tableRowSupport(entryOf(a), a.label, a.cell), tableRowSupport(entryOf(b), b.label, b.cell)],
      computed: true,
      notes: [`${sides.operation} of "${a.label}" (${a.cell}) and "${b.label}" (${b.cell}) → ${scaled.value}${sides.operation === 'percent' ? '%' : ''}`, ...(scaled.note ? [scaled.note] : [])],
    },
  ];
}

/** Least fit of a formula the plan computed (one the question defines, or a measure of the pack it names). */
const FORMULA_FIT = 0.5;

/**
 * Values the plan's steps computed (`compute.eval` over `extract.column` cells), as candidates: kept when the
 * question asks for that operation and every operand cell is in an observed table whose row matches the question
 * (the row label covers some of its terms); cited by those rows. Scored by how well the rows together cover the
 * question, plus a bonus (the question asks for this computation).
 */
export function computedValueCandidates(evidence: EvidenceSet, computed: readonly ComputedValue[]): Candidate[] {
  const { profile } = evidence;
  // `formula`: the plan followed a formula the question itself defines ("X is defined as A / B").
  const asked = new Set<string>([...profile.operations, ...(profile.sides ? [profile.sides.operation] : []), 'formula']);
  const out: Candidate[] = [];
  for (const c of computed) {
    if (!asked.has(c.operation) || c.operands.length === 0) continue;
    const support: Support[] = [];
    const scores: number[] = [];
    for (const operand of c.operands) {
      const entry = evidence.entries.find((e) => e.observation.node_id === operand.node_id && e.observation.payload.kind === 'table');
      if (!entry) break;
      const terms = profile.sides ? new EvidenceSet([entry.observation], sideProfile(profile, profile.sides.sides[scores.length] ?? profile.question)) : evidence;
      const cov = terms.coverage(operand.row, entry.contextStems);
      // A formula the question defines names its operands in its own words ("PP&E"); the plan matched their rows.
      if (cov.primary <= 0 && c.operation !== 'formula') break;
      scores.push(cov.score);
      support.push(tableRowSupport(entry, operand.row, operand.raw));
    }
    if (scores.length !== c.operands.length) continue;
    const value = round4(c.value);
    // Together the operand rows should cover the question (each names its own part of it) — unless the plan followed a
    // formula the question defines or a measure it names: the question's words name the result there, not the operands.
    const together = evidence.coverage([...new Set(c.operands.map((o) => o.row))].join(' \n ')).score;
    const fit = Math.max(together, Math.min(...scores), c.operation === 'formula' ? FORMULA_FIT : 0);
    out.push({
      answer: value,
      format: computedFormat(profile, value),
      score: fit + 0.35,
      support,
      computed: true,
      notes: [`computed by the plan: ${c.operation} of ${c.operands.map((o) => `"${o.row}" ${o.column} (${o.raw})`).join(', ')} → ${c.text}`],
    });
  }
  return out;
}
