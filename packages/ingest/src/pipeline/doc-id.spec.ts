import { docIdFromFilename, isValidDocId } from './doc-id.js';

describe('docIdFromFilename', () => {
  it('keeps Latin names as a plain slug, accents dropped', () => {
    expect(docIdFromFilename('c1/Annual Report 2023.pdf')).toBe('annual-report-2023');
    expect(docIdFromFilename('Résumé.pdf')).toBe('resume');
    expect(docIdFromFilename('report_content_list.json')).toBe('report');
  });

  it('gives names in other scripts distinct, stable, valid ids instead of one shared "document"', () => {
    const names = ['تقرير.pdf', 'דוח.pdf', '年报.pdf', 'отчёт.pdf', '年报2023.pdf', '报告2023.pdf'];
    const ids = names.map(docIdFromFilename);
    expect(new Set(ids).size).toBe(names.length);
    for (const id of ids) expect(isValidDocId(id)).toBe(true);
    expect(ids[0]).toMatch(/^document-[0-9a-f]{8}$/);
    expect(ids[4]).toMatch(/^2023-[0-9a-f]{8}$/);
    expect(docIdFromFilename('x/تقرير.pdf')).toBe(ids[0]);
  });
});
