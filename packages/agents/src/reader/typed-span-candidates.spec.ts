import type { Observation } from '@doctree/schema';
import { textObservation } from '../__fixtures__/report-tree.js';
import { ExtractiveReader } from './extractive-reader.js';
import { supportMatches } from './observation-text.js';

const reader = new ExtractiveReader();

function table(nodeId: string, columns: string[], rows: string[][]): Observation {
  const text = [columns.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
  return { node_id: nodeId, modality: 'table', page: 8, bbox: null, payload: { kind: 'table', columns, rows, units: [], markdown: text, text } };
}

describe('short typed answers', () => {
  it('answers what an abbreviation stands for with the words whose initials spell it', async () => {
    const text = textObservation(
      't_1',
      'The programme is run by the ministry through its agencies, mainly the Coastal Monitoring Bureau (CMB), the Harbour Works Office (HWO) and the Lighthouse Trust.',
      4,
    );
    const result = await reader.read({ question: 'What does HWO stand for in this report?', observations: [text] });
    expect(result).toMatchObject({ answer: 'Harbour Works Office', answer_format: 'Str' });
    expect(supportMatches(result.support[0]!, text)).toBe(true);
  });

  it('answers where with the place named after "in", not the clause around it', async () => {
    const text = textObservation('t_2', 'The first glass furnace was built in the Old Quarry District of Lenvik, and it produced bottles for two decades.', 2);
    const result = await reader.read({ question: 'Where was the first glass furnace built?', observations: [text] });
    expect(result.answer).toBe('Old Quarry District of Lenvik');
  });

  it('answers who with a name', async () => {
    const text = textObservation('t_3', 'The east wing of the library was designed by Maria Lindqvist after the fire of 1921.', 6);
    const result = await reader.read({ question: 'Who designed the east wing of the library?', observations: [text] });
    expect(result.answer).toBe('Maria Lindqvist');
  });

  it('answers a phone number from a labelled field that abbreviates the word asked', async () => {
    const text = textObservation('t_4', 'Hillside Care Centre 12 Mill Lane Dunmore DX4 7QP Tel: 0161 555 0142 Date of visit: 3 May 2021', 1);
    const other = textObservation('t_5', 'Hillside Care Centre cares for up to 40 residents, 25 of whom live with dementia.', 1);
    const result = await reader.read({ question: 'What is the telephone number of Hillside Care Centre?', observations: [other, text] });
    expect(result.answer).toBe('0161 555 0142');
    expect(supportMatches(result.support[0]!, text)).toBe(true);
  });

  it('answers a text cell at the row and column the question names', async () => {
    const parts = table('tab_1', ['Component', 'Material', 'Supplier'], [
      ['Frame', 'Aluminium alloy', 'Nordal'],
      ['Seat post', 'Carbon fibre', 'Veloline'],
      ['Chain guard', 'Recycled plastic', 'Nordal'],
    ]);
    const result = await reader.read({ question: 'What is the material of the seat post?', observations: [parts] });
    expect(result).toMatchObject({ answer: 'Carbon fibre', answer_format: 'Str' });
    expect(result.support[0]!.snippet).toContain('Carbon fibre');
  });

  it('answers a definition with the statement after the title naming the term, not a clause of it', async () => {
    const text = textObservation(
      't_6',
      'Rule of thirds. Important elements of a picture sit on the lines that divide it into three equal parts. This rule is based on how the eye scans an image.',
      5,
    );
    const result = await reader.read({ question: 'How does this guide define the rule of thirds?', observations: [text] });
    expect(result.answer).toBe('Important elements of a picture sit on the lines that divide it into three equal parts.');
    expect(supportMatches(result.support[0]!, text)).toBe(true);
  });
});
