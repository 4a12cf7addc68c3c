/** Turns a file name into a document id: lowercase, `[a-z0-9_-]`, no extension, at most 80 characters. */
export function docIdFromFilename(filename: string): string {
  const base = filename.replace(/^.*[\\/]/, '').replace(/\.(pdf|json|md|markdown)$/i, '').replace(/_content_list$/i, '');
  const slug = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || 'document';
}

/** True when the id is safe as a folder name. */
export function isValidDocId(docId: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(docId) && !docId.includes('..');
}
