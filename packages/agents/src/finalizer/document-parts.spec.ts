import { DocumentParts, partsIn, withoutPartMentions } from './document-parts.js';

describe('partsIn', () => {
  it('reads the labelled parts a question names, in lists and abbreviated', () => {
    expect(partsIn('Compare Fig. 3a with Tables II and 4, Section 3.2, § 5 and Appendix C.').map((p) => p.text)).toEqual([
      'Figure 3a',
      'Table II',
      'Table 4',
      'Section 3.2',
      'Section 5',
      'Appendix C',
    ]);
  });

  it('takes no word after a noun for a label (labels are digits or capitals)', () => {
    expect(partsIn('How many figures are in the report, and does a table list revenue? Is there a note on leases?')).toEqual([]);
    expect(partsIn('What does table a say?')).toEqual([]);
  });

  it('removes part mentions so their numbers are not read as values', () => {
    expect(withoutPartMentions('What does Figure 14 show on Tables 3 and 4?')).not.toMatch(/\d/);
  });
});

describe('DocumentParts', () => {
  const parts = new DocumentParts();
  parts.add('Figure 1: Overview.\nSee Figs. 2 and 3(b).\nTables 4–6 compare runs.\nTABLE IX: Costs.\nII. RELATED WORK\nA Prompts\n4.1 Setup\nExhibit 10.2 Credit agreement');

  it('knows the labels captions, references and numbered headings write, in any of their forms', () => {
    for (const [kind, label] of [
      ['figure', '1'],
      ['figure', '3'],
      ['table', '5'],
      ['table', '9'],
      ['section', '2'],
      ['section', '4.1'],
      ['section', '4'],
      ['appendix', 'A'],
      ['exhibit', '10.2'],
      ['exhibit', '10'],
    ] as const)
      expect(parts.has({ kind, label })).toBe(true);
    for (const [kind, label] of [
      ['figure', '7'],
      ['table', '10'],
      ['appendix', 'D'],
      ['exhibit', '21'],
    ] as const)
      expect(parts.has({ kind, label })).toBe(false);
  });

  it('says which kinds the document labels at all', () => {
    expect(parts.labels('figure')).toBe(true);
    expect(parts.labels('algorithm')).toBe(false);
  });
});
