import { numberWordSource, numberWordValue } from '@doctree/schema';
import type { Candidate, EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { phraseStems } from './evidence-model.js';
import { parseNumberCell } from './numbers.js';
import { supportFor } from './observation-text.js';
import { tableRowSupport } from './table-candidates.js';
import { clip, scoreSentences } from './sentence-scoring.js';
import { wordTokens } from './text-spans.js';

/** A bullet or enumeration marker at the start of a line (`-`, `•`, `1.`, `(a)`). */
const BULLET = /^\s*(?:[-•*–·▪◦►✓]|\(?[0-9]{1,2}[.)]|\(?[a-z][.)]|\(?[ivx]{1,4}\))\s+/;

/** An enumeration marker alone (`1.`, `(a)`, `iv)`). */
const MARKER_ONLY = /^\(?(?:[0-9]{1,3}|[a-z]|[ivxlc]{1,5})[.)]?\)?$/i;

/** Median words of list items above which a list is numbered paragraphs rather than an answer list. */
const MAX_LIST_ITEM_WORDS = 15;

const ENUMERATION_LEAD = /^.*?\b(?:include|includes|included|including|consist of|consists of|comprise|comprises|comprised of|namely|such as|are|were)\b\s*/i;

/** Longest stretch of a question read for an item count or an enumeration. */
const MAX_ASKING_CHARS = 600;

/** An item count a question names, spelled out (`two` … `twelve`) or in digits, before a plural noun. */
const ITEM_COUNT = new RegExp(`\\b(?:what|which|name|list|give|the|top)\\b[^?.]*?\\b(${numberWordSource(2, 12)}|[2-9]|1[0-2])\\s+(?:\\w+\\s+){0,2}?[a-z]+s\\b`, 'i');

/**
 * How many items the question says the answer has ("What are two examples…", "Which seven sensors…", "the top 3
 * products"), else undefined.
 */
export function expectedItemCount(question: string): number | undefined {
  // The asking sentence only (bounded: the lazy scan would otherwise retry from every word of a long text).
  const m = ITEM_COUNT.exec(question.slice(0, MAX_ASKING_CHARS));
  if (!m) return undefined;
  return numberWordValue(m[1]!) ?? Number(m[1]!);
}

/**
 * Items of an enumeration in one sentence: after a colon or a lead (`include`, `such as`, `are`), split at commas,
 * semicolons and the final `and`/`or`; without a lead, only a run of three or more comma-separated items ending in
 * `and`/`or` counts.
 */
export function splitEnumeration(text: string): string[] {
  const lead = text.includes(':') ? text.indexOf(':') + 1 : (ENUMERATION_LEAD.exec(text)?.[0].length ?? 0);
  // The enumeration ends where a new clause starts (", but the knowledge is absent…").
  const rest = text.slice(lead);
  const clause = rest.search(/,\s*(?:but|while|whereas|which|although|though|because|so that|if)\b/i);
  const body = clause >= 0 ? rest.slice(0, clause) : rest;
  if (lead === 0 && !/,[^,]+,[^,]*\b(?:and|or)\b/.test(body)) return [];
  // Items are separated by commas and semicolons; an "and" inside an item before the last separator belongs to the
  // item ("research and development, sales and marketing and legal").
  const parts = body.split(/,\s*|;\s*/);
  // The last item of "A, B and C" (or of "A and B" after a lead) holds the final conjunction, unless a comma already
  // stands before it ("A, B, and C"): then that item is whole.
  let last = parts.pop() ?? '';
  const serial = parts.length > 0 && /^(?:and|or)\s+/i.test(last);
  if (serial) last = last.replace(/^(?:and|or)\s+/i, '');
  // Two items after a lead are joined by "and" ("include A and B"); "either A or B" is a choice, not a list.
  const final = serial ? null : parts.length > 0 ? /^(.*\S)\s+(?:and|or)\s+(\S.*)$/.exec(last) : lead > 0 ? /^(.*\S)\s+and\s+(\S.*)$/.exec(last) : null;
  parts.push(...(final ? [final[1]!, final[2]!] : [last]));
  const items = parts
    .map((item) => item.replace(/^\s*(?:and|or)\s+/i, '').replace(/^(?:a|an|the)\s+/i, '').replace(/[.;:]+$/, '').trim())
    .filter((item) => item.length > 0);
  return (lead === 0 ? parallelItems(items) : items).filter((item) => item.split(/\s+/).length <= 10);
}

/**
 * Items of an enumeration found without a lead are parallel: the sentence's opening ("In 2020, the fund financed A,
 * B and C") is no item. The first item longer than every later one holds the end of that opening: earlier items are
 * dropped and it keeps its trailing capitalised words when the later items are capitalised, else as many trailing
 * words as the longest later item.
 */
function parallelItems(items: readonly string[]): string[] {
  const words = (item: string): string[] => item.split(/\s+/).filter(Boolean);
  for (let i = 0; i < items.length - 2; i++) {
    const rest = items.slice(i + 1);
    const longest = Math.max(...rest.map((r) => words(r).length));
    const own = words(items[i]!);
    if (own.length <= longest) continue;
    const capitalised = rest.filter((r) => /^\p{Lu}/u.test(r)).length * 2 > rest.length;
    let keep = own.slice(-longest);
    if (capitalised) {
      let from = own.length;
      while (from > 0 && /^\p{Lu}/u.test(own[from - 1]!)) from--;
      if (from < own.length) keep = own.slice(from);
    }
    return [keep.join(' '), ...rest];
  }
  return [...items];
}

/** A run of list lines inside an observation, with the line that introduces it. */
interface ListGroup {
  lines: Array<{ start: number; end: number; item: string }>;
  /** The line before the list ("The segments are:"), or ''. */
  lead: string;
}

/** Lines of a text with their offsets (blank lines dropped). */
function linesOf(text: string): Array<{ start: number; end: number; text: string }> {
  const out: Array<{ start: number; end: number; text: string }> = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed) {
      const start = offset + line.indexOf(trimmed);
      out.push({ start, end: start + trimmed.length, text: trimmed });
    }
    offset += line.length + 1;
  }
  return out;
}

/**
 * The lists of an observation: every line of a `list` observation; runs of two or more bulleted or numbered lines of
 * a text or section (each with the line that introduces it). Bare markers (`1.`) are not items.
 */
function listGroups(entry: EvidenceEntry): ListGroup[] {
  const lines = linesOf(entry.text.text);
  const item = (text: string): string => text.replace(BULLET, '').trim();
  if (entry.observation.modality === 'list') {
    // One item a line; a list whose line breaks were lost is read one item a sentence.
    const spans = lines.length >= 2 ? lines : entry.sentences.map((span) => ({ ...span, text: entry.text.text.slice(span.start, span.end) }));
    const items = spans.map((l) => ({ start: l.start, end: l.end, item: item(l.text) })).filter((l) => l.item !== '' && !MARKER_ONLY.test(l.item));
    return [{ lines: items, lead: '' }];
  }
  const groups: ListGroup[] = [];
  let current: ListGroup | undefined;
  for (const [i, line] of lines.entries()) {
    if (BULLET.test(line.text) && !MARKER_ONLY.test(line.text)) {
      current ??= { lines: [], lead: i > 0 ? lines[i - 1]!.text : '' };
      const it = item(line.text);
      if (it && !MARKER_ONLY.test(it)) current.lines.push({ start: line.start, end: line.end, item: it });
    } else if (current) {
      groups.push(current);
      current = undefined;
    }
  }
  if (current) groups.push(current);
  const found = groups.filter((g) => g.lines.length >= 2);
  if (found.length > 0) return found;
  // Markers inside running text (line breaks lost in extraction): the sentences that start with one.
  const marked = entry.sentences
    .map((span) => ({ ...span, text: entry.text.text.slice(span.start, span.end) }))
    .filter((sentence) => BULLET.test(sentence.text))
    .map((sentence) => ({ start: sentence.start, end: sentence.end, item: item(sentence.text) }))
    .filter((l) => l.item !== '' && !MARKER_ONLY.test(l.item));
  return marked.length >= 2 ? [{ lines: marked, lead: '' }] : [];
}

/**
 * The item a question asks by its position ("the second point under Safety"): that item of each list (bulleted,
 * numbered or a list observation) whose section covers the question's terms, scored by that cover.
 */
export function ordinalItemCandidates(evidence: EvidenceSet): Candidate[] {
  const asked = evidence.profile.ordinal;
  if (!asked) return [];
  const out: Candidate[] = [];
  for (const entry of evidence.entries) {
    if (entry.observation.payload.kind !== 'text') continue;
    const headings = entry.observation.payload.heading_path.join(' \n ');
    for (const group of listGroups(entry)) {
      const count = group.lines.length;
      if (count < Math.max(2, asked.position)) continue;
      const line = group.lines[asked.fromEnd ? count - asked.position : asked.position - 1]!;
      const cov = evidence.coverage(`${headings}\n${group.lead}\n${entry.text.text}`);
      if (cov.primary <= 0) continue;
      // The list's own title (its nearest heading, its introducing line) naming the question's terms counts most.
      const title = evidence.coverage(`${entry.observation.payload.heading_path.at(-1) ?? ''}\n${group.lead}`).score;
      out.push({
        answer: line.item,
        format: 'Str',
        score: cov.score + 0.5 * title + 0.1 - 0.01 * entry.rank,
        support: [supportFor(entry.observation, line.start, line.end, entry.text)],
        notes: [`item ${asked.fromEnd ? `${asked.position} from the end` : asked.position} of ${count} of a list in ${entry.observation.node_id}`],
      });
    }
  }
  return out.sort((a, b) => b.score - a.score).slice(0, 3);
}

/** What a list gains per share of the question's terms its introducing line names. */
const LEAD_WEIGHT = 0.1;

/** Median word count of items. */
function medianWords(items: readonly string[]): number {
  const words = items.map((item) => item.split(/\s+/).length).sort((a, b) => a - b);
  return words[Math.floor(words.length / 2)] ?? 0;
}

/** Adjusts a list score by how its length fits the number of items the question names. */
function sizeFit(score: number, items: number, expected: number | undefined): number {
  if (expected === undefined) return score;
  return items === expected ? score + 0.15 : score - 0.1;
}

const dedupe = (items: readonly string[]): string[] => [...new Set(items.map((i) => i.trim()).filter(Boolean))];

/** Bulleted and numbered lists, scored by how their section (headings and text) covers the question, plus their introducing line's match. */
function bulletListCandidates(evidence: EvidenceSet, expected: number | undefined): Candidate[] {
  const out: Candidate[] = [];
  for (const entry of evidence.entries) {
    if (entry.observation.payload.kind !== 'text') continue;
    const headings = entry.observation.payload.heading_path.join(' \n ');
    for (const group of listGroups(entry)) {
      const items = dedupe(group.lines.map((l) => l.item));
      if (items.length < 2) continue;
      // A list is about what its section says (headings and text), the more so when the line introducing it names
      // the question's terms ("Required tools:").
      const cov = evidence.coverage(`${headings}\n${entry.text.text}`);
      if (cov.primary <= 0) continue;
      const lead = group.lead ? evidence.coverage(group.lead).score : 0;
      const long = medianWords(items) > MAX_LIST_ITEM_WORDS;
      const first = group.lines[0]!;
      const last = group.lines[group.lines.length - 1]!;
      out.push({
        answer: items,
        format: 'List',
        score: sizeFit(cov.score + 0.05 + LEAD_WEIGHT * lead - (long ? 0.3 : 0), items.length, expected) - 0.01 * entry.rank,
        support: [supportFor(entry.observation, first.start, last.end, entry.text)],
        about: `${headings}\n${group.lead}`,
        notes: [`${items.length} list items in ${entry.observation.node_id}${group.lead ? ` after "${group.lead.slice(0, 60)}"` : ''}`],
      });
    }
  }
  return out;
}

/** Least match of a column header (and caption) with the question for its cells to be a list answer. */
const MIN_COLUMN_SCORE = 0.3;

/** Score a list of cells gets for its rows being named by the question (added to its column's match). */
const NAMED_ROWS_BONUS = 0.4;

/** True when most of the cells are numbers. */
const mostlyNumeric = (cells: readonly string[]): boolean => cells.filter((c) => parseNumberCell(c) !== null).length * 2 > cells.length;

/** True when the question asks for values (numbers, scores, percentages) rather than names. */
function asksValues(evidence: EvidenceSet): boolean {
  const p = evidence.profile;
  return p.wantsPercent || p.wantsCurrency || /\b(?:scores?|values?|numbers?|amounts?|percentages?|rates?|figures?)\b/i.test(p.question);
}

/** The cell is a number (not a percentage) the question names: a key the question picks rows by, such as a code or a year. */
function keyNamed(cell: string, evidence: EvidenceSet): boolean {
  const number = parseNumberCell(cell.trim());
  return number !== null && !number.percent && evidence.profile.questionNumbers.has(Math.abs(number.value));
}

/** Most leading rows read as the continuation of a table's header. */
const MAX_HEADER_ROWS = 3;

/**
 * How many leading rows of a table continue its header (a header wrapped over lines: columns "Error" / "Error", first
 * row "number" / "description"): rows without a number, each with text above a column whose cells below are mostly
 * numbers. A table of text only has none (its first rows may be data).
 */
export function headerRowCount(rows: readonly (readonly string[])[]): number {
  const isNumber = (cell: string | undefined): boolean => cell !== undefined && cell.trim() !== '' && parseNumberCell(cell.trim()) !== null;
  let count = 0;
  while (count < Math.min(MAX_HEADER_ROWS, rows.length - 1)) {
    const row = rows[count]!;
    if (row.some(isNumber)) break;
    const below = rows.slice(count + 1);
    const overNumbers = row.some((cell, c) => {
      if (cell.trim() === '') return false;
      const column = below.map((r) => r[c] ?? '').filter((x) => x.trim() !== '');
      return column.length > 0 && column.filter(isNumber).length * 2 > column.length;
    });
    if (!overNumbers) break;
    count++;
  }
  return count;
}

/**
 * Table lists: the cells of a column whose header names what is asked (the row labels when the first column's header
 * or the caption does), and the cells of a row whose label does. Names are preferred to numbers unless values are asked.
 */
function tableListCandidates(evidence: EvidenceSet, expected: number | undefined): Candidate[] {
  const out: Candidate[] = [];
  const values = asksValues(evidence);
  for (const entry of evidence.entries) {
    const p = entry.observation.payload;
    if (p.kind !== 'table' || p.rows.length < 2) continue;
    // A header wrapped over the first rows: its lines joined per column, the rows below are the data.
    const headerRows = headerRowCount(p.rows);
    const rowsBelow = p.rows.slice(headerRows);
    const columns = Array.from({ length: Math.max(p.columns.length, ...p.rows.map((r) => r.length)) }, (_, c) =>
      [p.columns[c] ?? '', ...p.rows.slice(0, headerRows).map((r) => r[c] ?? '')].map((x) => x.trim()).filter(Boolean).join(' '),
    );
    const width = columns.length;
    for (let c = 0; c < width; c++) {
      const header = columns[c] ?? '';
      const caption = c === 0 ? (p.caption ?? '') : '';
      const cov = evidence.coverage(`${header}\n${caption}`, entry.contextStems);
      if (cov.primary <= 0 || cov.score < MIN_COLUMN_SCORE) continue;
      const cells = dedupe(rowsBelow.map((r) => r[c] ?? '').filter((cell) => cell.trim() !== '' && cell.trim() !== header.trim() && !/^\s*total\b/i.test(cell)));
      if (cells.length < 2) continue;
      // A column holding numbers the question names ("codes 21 and 52") is how it picks rows, not what it asks.
      if (cells.some((cell) => keyNamed(cell, evidence))) continue;
      const numeric = mostlyNumeric(cells);
      const rows = rowsBelow.filter((r) => cells.includes((r[c] ?? '').trim()));
      const firstRow = rows[0]!;
      const lastRow = rows[rows.length - 1]!;
      const support = [firstRow, lastRow].filter((r, i, all) => all.indexOf(r) === i).map((r) => tableRowSupport(entry, r[0] ?? '', r[c] ?? ''));
      out.push({
        answer: cells,
        format: 'List',
        score: sizeFit(cov.score + (numeric === values ? 0.05 : -0.15), cells.length, expected) - 0.01 * entry.rank,
        support,
        about: `${header}\n${caption}`,
        notes: [`${cells.length} cells of column "${header}" in ${entry.observation.node_id}`],
      });
    }
    // Rows the question names by their label ("codes 12 and 40", "A and B"): their cells in the column
    // whose header names what is asked. Both the rows and the column are named, so this outranks a whole column.
    const questionStems = phraseStems(evidence.profile.question);
    const byNumber = rowsBelow.filter((row) => {
      const number = parseNumberCell((row[0] ?? '').trim());
      return number !== null && evidence.profile.questionNumbers.has(Math.abs(number.value));
    });
    const byName = rowsBelow.filter((row) => {
      const stems = phraseStems(row[0] ?? '');
      // Every word of the label is in the question, one of them a content term (not "a" or "the").
      return parseNumberCell((row[0] ?? '').trim()) === null && [...stems].every((stem) => questionStems.has(stem)) && evidence.terms.some((t) => stems.has(t.stem));
    });
    const named = byNumber.length >= 2 ? byNumber : byName;
    if (named.length >= 2) {
      const asked = Array.from({ length: width - 1 }, (_, i) => i + 1)
        .map((c) => ({ c, cov: evidence.coverage(columns[c] ?? '') }))
        .filter((x) => x.cov.primary > 0)
        .sort((a, b) => b.cov.score - a.cov.score);
      const col = asked[0];
      const cells = col ? named.map((row) => (row[col.c] ?? '').trim()) : [];
      if (col && cells.every((cell) => cell !== '')) {
        out.push({
          answer: cells,
          format: 'List',
          score: sizeFit(NAMED_ROWS_BONUS + col.cov.score, cells.length, expected) - 0.01 * entry.rank,
          support: named.map((row) => tableRowSupport(entry, row[0] ?? '', row[col.c] ?? '')),
          about: columns[col.c] ?? '',
          notes: [`column "${columns[col.c]}" of the rows the question names (${named.map((r) => r[0]).join(', ')}) in ${entry.observation.node_id}`],
        });
      }
    }
    for (const row of rowsBelow) {
      const label = row[0] ?? '';
      if (!label.trim()) continue;
      const cov = evidence.coverage(label, entry.contextStems);
      if (cov.primary <= 0) continue;
      const cells = dedupe(row.slice(1).filter((cell) => cell.trim() !== ''));
      if (cells.length < 2) continue;
      const numeric = mostlyNumeric(cells);
      out.push({
        answer: cells,
        format: 'List',
        score: sizeFit(cov.score - 0.05 + (numeric === values ? 0.05 : -0.15), cells.length, expected) - 0.01 * entry.rank,
        support: [tableRowSupport(entry, label, row[row.length - 1] ?? '')],
        about: label,
        notes: [`${cells.length} cells of row "${label}" in ${entry.observation.node_id}`],
      });
    }
  }
  return out;
}

/** Enumerations in the best sentences ("The segments are A, B and C"), without items made only of question words. */
function enumerationCandidates(evidence: EvidenceSet, expected: number | undefined): Candidate[] {
  const out: Candidate[] = [];
  const questionStems = new Set(wordTokens(evidence.profile.question).map((t) => t.stem));
  for (const s of scoreSentences(evidence).slice(0, 5)) {
    const items = dedupe(splitEnumeration(s.text)).filter((item) => wordTokens(item).some((t) => !questionStems.has(t.stem)));
    if (items.length < 2) continue;
    const lead = s.text.slice(0, Math.max(0, s.text.indexOf(items[0]!)));
    out.push({ answer: items, format: 'List', score: sizeFit(s.score, items.length, expected), support: [clip(s.entry, s.span)], about: lead, notes: [`enumeration in ${s.entry.observation.node_id}`] });
  }
  return out;
}

/**
 * List answers built from the evidence: the items of a bulleted or numbered list under the heading or introducing
 * line the question names, the cells of a table column (or row) whose header names what is asked, and the items of
 * an enumeration in one sentence. A list whose length is the number of items the question names ("two examples")
 * ranks higher. Items are strings, as written.
 */
export function listCandidates(evidence: EvidenceSet): Candidate[] {
  const expected = expectedItemCount(evidence.profile.question);
  const out = [...bulletListCandidates(evidence, expected), ...tableListCandidates(evidence, expected), ...enumerationCandidates(evidence, expected)];
  return out.sort((a, b) => b.score - a.score).slice(0, 3);
}

const ARTICLES = new Set(['a', 'an', 'the']);

/** Words that end an item of an enumeration in a question (prepositions, determiners, relative and copular words). */
const PART_STOP = new Set(
  'of for in on at to from by with about among between the a an them their its his her that which who whom whose what how many much is are was were be been do does did respectively'.split(' '),
);

/**
 * The items a question enumerates to ask one value each ("for the north and south plants respectively",
 * "the share of members who vote, volunteer, and donate"): the items and the span they occupy in the
 * question. A single-word item shares the last item's final word ("north and south plants" → north plants,
 * south plants). Undefined when the question enumerates nothing.
 */
export function questionParts(question: string): { parts: string[]; start: number; end: number } | undefined {
  const asking = (question.split(/\?/)[0] ?? question).slice(0, MAX_ASKING_CHARS);
  const and = /,?\s+and\s+/gi;
  let last: RegExpExecArray | undefined;
  for (const m of asking.matchAll(and)) last = m as RegExpExecArray;
  if (!last) return undefined;
  const words = (text: string): Array<{ word: string; start: number; end: number }> => [...text.matchAll(/[^\s,;:]+/g)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  // After "and": the words up to a stop word or the end of the clause.
  const afterAt = last.index + last[0].length;
  const tail = words(asking.slice(afterAt).split(/[,;:]/)[0] ?? '');
  const lastItem: typeof tail = [];
  for (const w of tail) {
    const lower = w.word.toLowerCase();
    if (PART_STOP.has(lower) && !ARTICLES.has(lower) && lastItem.length > 0) break;
    lastItem.push(w);
    if (lastItem.length >= 5) break;
  }
  if (lastItem.length === 0) return undefined;
  // Before "and": comma-separated segments back to the one holding the question word; each trimmed after its last stop word.
  const before = asking.slice(0, last.index);
  const segments: Array<{ text: string; start: number }> = [];
  let offset = 0;
  for (const seg of before.split(',')) {
    segments.push({ text: seg, start: offset });
    offset += seg.length + 1;
  }
  const items: Array<{ text: string; start: number }> = [];
  for (let i = segments.length - 1; i >= 0; i--) {
    const seg = segments[i]!;
    const ws = words(seg.text);
    let from = 0;
    ws.forEach((w, k) => {
      if (PART_STOP.has(w.word.toLowerCase())) from = k + 1;
    });
    const kept = ws.slice(from);
    if (kept.length === 0 || kept.length > 5) return undefined;
    items.unshift({ text: seg.text.slice(kept[0]!.start, kept[kept.length - 1]!.end), start: seg.start + kept[0]!.start });
    // The segment with the question word (or the only one) starts the enumeration.
    if (/\b(?:what|which|how|who|where|when|list|name)\b/i.test(seg.text) || i === 0) break;
    if (segments.length > 1 && i === segments.length - 1 && !/,/.test(before)) break;
  }
  const lastText = asking.slice(afterAt + lastItem[0]!.start, afterAt + lastItem[lastItem.length - 1]!.end);
  // Items are parallel: the first one (in the segment holding the question) is no longer than the longest other one.
  const longest = Math.max(lastItem.length, ...items.slice(1).map((i) => i.text.split(/\s+/).length));
  const firstWords = words(items[0]!.text);
  if (firstWords.length > longest) {
    const cut = firstWords[firstWords.length - longest]!.start;
    items[0] = { text: items[0]!.text.slice(cut), start: items[0]!.start + cut };
  }
  const lastWords = lastText.split(/\s+/);
  // "north and south plants": a lower-case single word shares the last item's head noun; names ("Republicans") do not.
  const parts = [...items.map((i) => i.text), lastText].map((p) => (/^[a-z][\w-]*$/.test(p) && lastWords.length > 1 ? `${p} ${lastWords[lastWords.length - 1]}` : p));
  if (parts.length < 2) return undefined;
  return { parts, start: items[0]!.start, end: afterAt + lastItem[lastItem.length - 1]!.end };
}
