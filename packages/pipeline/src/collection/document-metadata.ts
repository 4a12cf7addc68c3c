import { COLLECTION_METADATA_FIELDS, YEAR_SOURCE, cellYear, monthNumber, yearMentions, type CollectionMetadata } from '@doctree/schema';

/**
 * Metadata of a collection document read from what it already says: the file name (`<company>_<year>_<form>…`, a
 * common way to name filings and reports) and its first pages (a form name, the period the report covers — "for the
 * fiscal year ended …", "for the quarterly period ended …" —, the registrant's name on a cover page). Generic patterns
 * only; anything can be corrected by hand (`doctree collection meta set`).
 */

/**
 * Version of this extraction, written into the metadata it produces (`extractor`). Raise it when what is extracted
 * changes: `sync` then extracts the metadata of documents read by an older version again from their stored text
 * (no rebuild). 2: quarter and period end, the first file-name token never a form.
 */
export const METADATA_EXTRACTOR_VERSION = 2;

/** A filing form written as a file-name token: `10K`, `10-Q`, `8K`, `20F`. */
const FORM_TOKEN = /^(\d{1,2})-?([A-Z]{1,2})$/i;
/** A form named on a cover page: `FORM 10-K`. */
const FORM_TEXT = /\bFORM\s+(\d{1,2}-[A-Z]{1,2})\b/;
/**
 * The period a report covers, on its cover: `for the fiscal year ended December 31, 2022`, `for the quarterly period
 * ended July 2, 2023`, `for the three months ended March 31, 2021` (group 1 the period, 2–4 month, day, year).
 */
const PERIOD_ENDED_TEXT = new RegExp(
  `\\b(fiscal\\s+year|quarterly\\s+period|(?:three|six|nine|twelve)\\s+months|(?:fiscal\\s+)?quarter|transition\\s+period)\\s+ended:?\\s+([A-Za-z]{3,9})\\.?\\s+(\\d{1,2}),?\\s+(${YEAR_SOURCE})\\b`,
  'gi',
);
/** A registrant's name on the line before `(Exact name of registrant …)`. */
const REGISTRANT_TEXT = /([^\n]{2,80})\n\s*\(exact name of (?:the )?registrant/i;
/** Characters of the document's opening read for metadata. */
const HEAD_CHARS = 12_000;

/** What {@link extractMetadata} reads. */
export interface MetadataSource {
  /** Source file name (with extension). */
  filename: string;
  /** Document title from the tree, when it has one. */
  title?: string;
  /** Opening text of the document (the first pages). */
  text: string;
}

function normaliseForm(digits: string, letters: string): string {
  return `${digits}-${letters.toUpperCase()}`;
}

/** File-name metadata: company (the tokens before a year or form), year, its quarter (`2023Q2`) and form. */
export type FilenameMetadata = Partial<Pick<CollectionMetadata, 'company' | 'year' | 'form' | 'quarter'>>;

/**
 * Metadata from a file name: company (the tokens before a year or form), year, quarter and form. The first token is
 * never a form: it names the company (`3M_2018_10K`).
 */
export function metadataFromFilename(filename: string): FilenameMetadata {
  const stem = filename.replace(/\.[A-Za-z]+$/, '').replace(/_structure$/, '');
  const tokens = stem.split(/[_\s.]+/).filter(Boolean);
  const out: FilenameMetadata = {};
  let firstKnown = tokens.length;
  tokens.forEach((token, i) => {
    // A year, possibly with a quarter: `2018`, `2023Q2`.
    const year = cellYear(token, { suffix: 'quarter' });
    const form = i > 0 ? FORM_TOKEN.exec(token) : null;
    if (year !== undefined && out.year === undefined) {
      out.year = year;
      const quarter = yearMentions(token, { quarters: true }).find((m) => m.quarter !== undefined)?.quarter;
      if (quarter !== undefined) out.quarter = `Q${quarter}` as NonNullable<CollectionMetadata['quarter']>;
      firstKnown = Math.min(firstKnown, i);
    } else if (form && out.form === undefined) {
      out.form = normaliseForm(form[1]!, form[2]!);
      firstKnown = Math.min(firstKnown, i);
    }
  });
  const company = tokens.slice(0, firstKnown).join(' ');
  if (firstKnown < tokens.length && /[A-Za-z]/.test(company)) out.company = company;
  return out;
}

/**
 * The period a report covers from its opening text: the latest end date its opening names (earlier ones are
 * comparatives: `Twelve Months Ended June 30, 2022 | … 2023`), as `YYYY-MM-DD`, and whether that is a fiscal year's.
 */
export function periodFromText(text: string): { end: string; fiscalYear: boolean } | undefined {
  let best: { end: string; fiscalYear: boolean } | undefined;
  for (const m of text.matchAll(PERIOD_ENDED_TEXT)) {
    const month = monthNumber(m[2]!);
    const day = Number(m[3]);
    if (month === undefined || day < 1 || day > 31) continue;
    const end = `${m[4]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    const fiscalYear = /^fiscal\s+year$/i.test(m[1]!);
    if (!best || end > best.end) best = { end, fiscalYear };
    else if (end === best.end && fiscalYear) best.fiscalYear = true;
  }
  return best;
}

/**
 * Extracts company, year, quarter, period end, form and title of a document. The file name wins where it says something
 * (people name their files on purpose); the first pages fill the gaps. `previous` fields listed in its `edited` are
 * kept.
 */
export function extractMetadata(source: MetadataSource, previous?: CollectionMetadata): CollectionMetadata {
  const head = source.text.slice(0, HEAD_CHARS);
  const named = metadataFromFilename(source.filename);
  const form = FORM_TEXT.exec(head);
  const period = periodFromText(head);
  const registrant = REGISTRANT_TEXT.exec(head)?.[1]?.trim();
  const extracted: CollectionMetadata = { edited: [], extractor: METADATA_EXTRACTOR_VERSION };
  const company = named.company ?? registrant;
  if (company) extracted.company = company.slice(0, 200);
  // A fiscal year is named after the calendar year it ends in, unless the file name says otherwise.
  const year = named.year ?? (period?.fiscalYear ? Number(period.end.slice(0, 4)) : undefined);
  if (year !== undefined) extracted.year = year;
  if (named.quarter !== undefined) extracted.quarter = named.quarter;
  if (period) extracted.period_end = period.end;
  const formName = named.form ?? (form ? form[1]!.toUpperCase() : undefined);
  if (formName) extracted.form = formName;
  const title = source.title?.trim() || undefined;
  if (title) extracted.title = title.slice(0, 400);
  if (!previous || previous.edited.length === 0) return extracted;
  const merged: CollectionMetadata = { ...extracted, edited: [...previous.edited] };
  for (const field of COLLECTION_METADATA_FIELDS) {
    if (!previous.edited.includes(field)) continue;
    const value = previous[field];
    if (value === undefined) delete merged[field];
    else (merged as Record<string, unknown>)[field] = value;
  }
  return merged;
}

/** A one-line description of a document: its metadata and the first sentence(s) of its summary, at most `max` chars. */
export function describeDocument(metadata: CollectionMetadata, summary: string, max = 240): string {
  const facts = [metadata.company, metadata.form, periodLabel(metadata)].filter(Boolean).join(' ');
  const lead = [metadata.title, facts].filter(Boolean).join(' — ');
  const body = summary.replace(/\s+/g, ' ').trim();
  const line = [lead, body].filter(Boolean).join('. ');
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** The period of a document as people write it: `2023`, `2023 Q2`, or undefined without a year. */
export function periodLabel(metadata: Pick<CollectionMetadata, 'year' | 'quarter'>): string | undefined {
  if (metadata.year === undefined) return undefined;
  return metadata.quarter ? `${metadata.year} ${metadata.quarter}` : String(metadata.year);
}
