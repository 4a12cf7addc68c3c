import { COLLECTION_METADATA_FIELDS, YEAR_SOURCE, cellYear, type CollectionMetadata, type CollectionMetadataField } from '@doctree/schema';

/**
 * Metadata of a collection document read from what it already says: the file name (`<company>_<year>_<form>…`, a
 * common way to name filings and reports) and its first pages (a form name, "fiscal year ended …", the registrant's
 * name on a cover page). Generic patterns only; anything can be corrected by hand (`doctree collection meta set`).
 */

/** A filing form written as a file-name token: `10K`, `10-Q`, `8K`, `20F`. */
const FORM_TOKEN = /^(\d{1,2})-?([A-Z]{1,2})$/i;
/** A form named on a cover page: `FORM 10-K`. */
const FORM_TEXT = /\bFORM\s+(\d{1,2}-[A-Z]{1,2})\b/;
/** The fiscal year a report covers: `for the fiscal year ended December 31, 2022`. */
const FISCAL_YEAR_TEXT = new RegExp(`fiscal\\s+year\\s+ended\\s+[A-Za-z]+\\.?\\s+\\d{1,2},?\\s+(${YEAR_SOURCE})`, 'i');
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

/** Metadata from a file name: company (the tokens before a year or form), year and form. */
export function metadataFromFilename(filename: string): Partial<Record<CollectionMetadataField, string | number>> {
  const stem = filename.replace(/\.[A-Za-z]+$/, '').replace(/_structure$/, '');
  const tokens = stem.split(/[_\s.]+/).filter(Boolean);
  const out: Partial<Record<CollectionMetadataField, string | number>> = {};
  let firstKnown = tokens.length;
  tokens.forEach((token, i) => {
    // A year, possibly with a quarter: `2018`, `2023Q2`.
    const year = cellYear(token, { suffix: 'quarter' });
    const form = FORM_TOKEN.exec(token);
    if (year !== undefined && out.year === undefined) {
      out.year = year;
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
 * Extracts company, year, form and title of a document. The file name wins where it says something (people name
 * their files on purpose); the first pages fill the gaps. `previous` fields listed in its `edited` are kept.
 */
export function extractMetadata(source: MetadataSource, previous?: CollectionMetadata): CollectionMetadata {
  const head = source.text.slice(0, HEAD_CHARS);
  const named = metadataFromFilename(source.filename);
  const form = FORM_TEXT.exec(head);
  const fiscal = FISCAL_YEAR_TEXT.exec(head);
  const registrant = REGISTRANT_TEXT.exec(head)?.[1]?.trim();
  const extracted: CollectionMetadata = { edited: [] };
  const company = (named.company as string | undefined) ?? registrant;
  if (company) extracted.company = company.slice(0, 200);
  const year = (named.year as number | undefined) ?? (fiscal ? Number(fiscal[1]) : undefined);
  if (year !== undefined) extracted.year = year;
  const formName = (named.form as string | undefined) ?? (form ? form[1]!.toUpperCase() : undefined);
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
  const facts = [metadata.company, metadata.form, metadata.year !== undefined ? String(metadata.year) : undefined].filter(Boolean).join(' ');
  const lead = [metadata.title, facts].filter(Boolean).join(' — ');
  const body = summary.replace(/\s+/g, ' ').trim();
  const line = [lead, body].filter(Boolean).join('. ');
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
