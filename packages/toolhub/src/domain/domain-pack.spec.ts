import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError } from '@doctree/schema';

import { extractCells } from '../extract/extract-column.js';
import type { TableGrid } from '../table/table-reader.js';
import { conceptMatch, conceptQueryTerms, conceptsIn } from '../vocabulary/concept-vocabulary.js';
import { builtinDomainPack, detectDomainPack, detectDomainPackInSlices, detectionHits, domainPackFrom, leadText, loadDomainPack, selectDomainPack } from './domain-pack.js';

const dir = mkdtempSync(join(tmpdir(), 'domain-pack-'));
function writePack(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

const CLINICAL = {
  format: 'doctree.domain-pack',
  version: 1,
  name: 'clinical',
  abbreviations: [{ short: 'ae', long: 'adverse event' }],
  concepts: [{ name: 'adverse events', triggers: ['\\bside effects?\\b'], aliases: ['adverse events', 'adverse event', 'treatment emergent adverse events'] }],
  statements: [{ name: 'safety table', triggers: ['\\bsafety (?:table|summary)\\b'], rows: ['adverse events'] }],
  detect: { phrases: ['clinical study report', 'protocol', 'randomized'], min_hits: 2 },
};

describe('domain packs', () => {
  it('loads a user JSON pack whose concept is then found in a question and in row labels', async () => {
    const pack = await loadDomainPack(writePack('clinical.json', CLINICAL));
    expect(pack.name).toBe('clinical');
    expect(conceptsIn('How many patients reported side effects in week 4?', pack.concepts).map((c) => c.name)).toContain('adverse events');
    expect(conceptsIn('Which AE was most frequent?', pack.concepts).map((c) => c.name)).toContain('adverse events');
    expect(conceptMatch('Treatment emergent adverse events (TEAE)', pack.concepts).score).toBe(1);
    expect(conceptQueryTerms('List the side effects', { concepts: pack.concepts })).toContain('adverse events');
    // It extends the generic pack: its concepts come along, finance ones do not.
    expect(pack.concepts.map((c) => c.name)).toContain('employees');
    expect(conceptsIn('What was capex in 2021?', pack.concepts)).toEqual([]);
  });

  it('rejects a bad pack file with a DocTreeError that says how to fix it', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['not-json.json', '{ "format": ', 'SCHEMA_INVALID'],
      ['no-aliases.json', { ...CLINICAL, concepts: [{ name: 'x', aliases: [] }] }, 'SCHEMA_INVALID'],
      ['bad-regex.json', { ...CLINICAL, concepts: [{ name: 'x', triggers: ['(unclosed'], aliases: ['x'] }] }, 'SCHEMA_INVALID'],
      ['nested.json', { ...CLINICAL, quantity_terms: ['(a+)+b'] }, 'SCHEMA_INVALID'],
      ['v2.json', { ...CLINICAL, version: 2 }, 'FORMAT_VERSION_UNSUPPORTED'],
    ];
    for (const [name, value, code] of cases) {
      const error = await loadDomainPack(writePack(name, value)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DocTreeError);
      expect((error as DocTreeError).code).toBe(code);
      expect((error as DocTreeError).hint).toBeTruthy();
    }
    const missing = await loadDomainPack(join(dir, 'absent.json')).catch((e: unknown) => e);
    expect((missing as DocTreeError).code).toBe('INPUT_NOT_FOUND');
  });

  it('chooses finance for a 10-K-like document and generic for a manual', async () => {
    const tenK = 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 — for the fiscal year ended December 31, 2024';
    const manual = 'Dishwasher DW-200 user manual. Safety instructions. Installation. Loading the racks. Troubleshooting and warranty.';
    expect(detectDomainPack(tenK).pack.name).toBe('finance');
    expect(detectDomainPack(tenK).chosenBy).toBe('document');
    expect(detectDomainPack(manual).pack.name).toBe('generic');
    expect((await selectDomainPack(manual, { pack: 'finance' })).pack.name).toBe('finance');
    expect((await selectDomainPack(tenK, { pack: 'generic' })).chosenBy).toBe('config');
    const clinical = domainPackFrom(CLINICAL);
    expect(detectDomainPack('Clinical Study Report. A randomized protocol', { candidates: [builtinDomainPack('finance'), clinical] }).pack.name).toBe('clinical');
  });

  it('reads a tree by its first pages only: later pages quoting a filing do not make a manual finance, nor a long section', () => {
    // A 12-page tree: the root and a section running to the last page start on page 0 (their char_span covers their
    // subtree); the finance wording is on pages 8–11 only.
    const opening = 'Dishwasher DW-200 user manual. Safety instructions. Installation and loading the racks.';
    const appendix = 'Appendix: the maker\'s FORM 10-K. Consolidated balance sheets, net income, total assets and earnings per share.';
    const text = `${opening}\n${'Troubleshooting. '.repeat(200)}\n${appendix}`;
    const at = (part: string): [number, number] => [text.indexOf(part), text.indexOf(part) + part.length];
    const tree = (finalWords: string) => {
      const body = text.replace(appendix, finalWords);
      return {
        text: body,
        nodes: [
          { page_span: [0, 11] as const, char_span: [0, body.length] as const },
          { page_span: [0, 11] as const, char_span: [0, body.length] as const },
          { page_span: [0, 0] as const, char_span: at(opening) },
          { page_span: [1, 7] as const, char_span: [opening.length, body.length - finalWords.length] as const },
          { page_span: [8, 11] as const, char_span: [body.length - finalWords.length, body.length] as const },
        ],
      };
    };
    const manual = tree(appendix);
    expect(detectDomainPack(manual).pack.name).toBe('generic');
    expect(leadText(manual)).toBe(opening);
    // The same phrases on the first page do choose finance.
    const filing = { ...manual, text: `${appendix.padEnd(opening.length, ' ')}${manual.text.slice(opening.length)}` };
    expect(detectDomainPack(filing).pack.name).toBe('finance');
    expect(detectDomainPack(filing).hits).toEqual(expect.arrayContaining(['form 10-k', 'consolidated balance sheets']));
    // A short document is all first pages; one node over every page gives a bounded lead.
    expect(leadText({ text: 'Two pages.', nodes: [{ page_span: [0, 1], char_span: [0, 10] }] })).toBe('Two pages.');
    expect(leadText({ text: 'x'.repeat(200_000), nodes: [{ page_span: [0, 40], char_span: [0, 200_000] }] }, 2)).toHaveLength(20_000);
  });

  it('finds detection phrases only as whole words, at the text edges too, whatever other occurrences surround them', () => {
    const pack = domainPackFrom({ ...CLINICAL, detect: { phrases: ['study report', 'phase 3', 'c++'], min_hits: 1, first_pages: 2 } });
    expect(detectionHits('Clinical Study Report', pack)).toEqual(['study report']);
    expect(detectionHits('substudy reports; a study report.', pack)).toEqual(['study report']);
    expect(detectionHits('substudy reports and phase 30', pack)).toEqual([]);
    expect(detectionHits('Phase\n 3 trial written in C++2', pack)).toEqual(['phase 3']);
    expect(detectionHits('written in c++, phase 3b', pack)).toEqual(['c++']);
  });

  it('detects in slices with the same result, pausing between them (a long lead text) and stopping when the pause throws', async () => {
    const words = ['Form', '10-K', 'ANNUAL', 'Report', 'ΟΔΟΣ', 'consolidated', 'balance', 'sheets', '’s', 'x'];
    const spaces = [' ', '\n', '  \t', '\n\n   '];
    let text = 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\n';
    for (let i = 0; text.length < 300_000; i++) text += words[(i * 7) % words.length]! + spaces[(i * 3) % spaces.length]!;
    text += ' Consolidated   Statements\nof Cash   Flows ';
    const finance = builtinDomainPack('finance');
    // the phrases found by one regular expression per phrase over the text normalised in one go
    const normalised = ` ${text.toLowerCase().replace(/[’]/g, "'").replace(/\s+/g, ' ')} `;
    const escape = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const reference = (finance.data.detect?.phrases ?? []).filter((p) => new RegExp(`(?<![a-z0-9])${escape(p.toLowerCase())}(?![a-z0-9])`).test(normalised));
    expect(reference.length).toBeGreaterThanOrEqual(2);
    let pauses = 0;
    const sliced = await detectDomainPackInSlices(text, {}, async () => {
      pauses++;
    });
    expect(sliced).toEqual(detectDomainPack(text));
    expect(sliced.pack.name).toBe('finance');
    expect(pauses).toBeGreaterThan(300_000 / 65_536);
    expect(detectionHits(text, finance)).toEqual(reference);
    expect(sliced.hits).toEqual(reference);
    const stopped = await detectDomainPackInSlices(text, {}, () => Promise.reject(new DocTreeError('CANCELLED', 'the question was cancelled'))).catch((e: unknown) => e);
    expect((stopped as DocTreeError).code).toBe('CANCELLED');
  });

  it('keeps finance knowledge out of the generic pack', () => {
    const generic = builtinDomainPack('generic');
    expect(conceptsIn('What were purchases of PP&E in 2022?', generic.concepts)).toEqual([]);
    expect(generic.statements).toEqual([]);
    expect(builtinDomainPack('finance').statements.map((s) => s.name)).toContain('balance sheet');
  });

  it('lets table extraction find a row the pack names in other words', () => {
    const clinical = domainPackFrom(CLINICAL);
    const body = [
      ['Patients enrolled', '120', '118'],
      ['Treatment emergent adverse events', '14', '9'],
    ];
    const grid: TableGrid = { rows: [['', 'Arm A', 'Arm B'], ...body], headerRows: 1, columns: ['', 'Arm A', 'Arm B'], body, rowLabels: body.map((r) => r[0]!), units: [null, null, null], source: 'rows' };
    const cells = (concepts?: typeof clinical.concepts) => extractCells(grid, { rows: ['side effects'], columns: ['Arm A'], ...(concepts ? { concepts } : {}) }).cells;
    expect(cells(clinical.concepts).map((c) => c.row)).toEqual(['Treatment emergent adverse events']);
    expect(cells()).toEqual([]);
  });
});
