import { createHash } from 'node:crypto';

/** Letters and digits outside `[a-z0-9]` that remain after accents are stripped: the slug lost them (non-Latin scripts). */
const LOST = /[^\p{ASCII}\p{M}]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Turns a file name into a document id: lowercase, `[a-z0-9_-]`, no extension, at most 80 characters. Accents are
 * dropped (`Résumé.pdf` → `resume`); letters the slug cannot keep (Arabic, Chinese, Cyrillic…) would all collapse to
 * the same id, so such a name gets a short hash of itself as a suffix (`年报2023.pdf` → `2023-5d41402a`,
 * `تقرير.pdf` → `document-1f3a9c20`): different names give different ids, the same name always the same one.
 */
export function docIdFromFilename(filename: string): string {
  const base = filename.replace(/^.*[\\/]/, '').replace(/\.(pdf|json|md|markdown)$/i, '').replace(/_content_list$/i, '');
  const stripped = base.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const slug = stripped
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  const lossy = [...stripped].some((ch) => LOST.test(ch) && LETTER_OR_DIGIT.test(ch));
  if (!lossy) return slug.slice(0, 80) || 'document';
  const hash = createHash('sha256').update(base.normalize('NFC')).digest('hex').slice(0, 8);
  return `${slug.slice(0, 71).replace(/-+$/, '') || 'document'}-${hash}`;
}

/** True when the id is safe as a folder name. */
export function isValidDocId(docId: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(docId) && !docId.includes('..');
}
