import type { Observation } from '@doctree/schema';
import { textObservation } from '../__fixtures__/report-tree.js';
import { ExtractiveReader } from './extractive-reader.js';
import { expectedItemCount, headerRowCount, questionParts, splitEnumeration } from './list-candidates.js';
import { observationText, supportMatches } from './observation-text.js';

const reader = new ExtractiveReader();

function section(nodeId: string, text: string, headings: string[], page = 2): Observation {
  return { node_id: nodeId, modality: 'section', page, bbox: null, payload: { kind: 'text', text, heading_path: headings } };
}

function table(nodeId: string, columns: string[], rows: string[][], caption?: string): Observation {
  const text = [columns.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
  return { node_id: nodeId, modality: 'table', page: 7, bbox: null, payload: { kind: 'table', columns, rows, units: [], markdown: text, text, ...(caption ? { caption } : {}) } };
}

describe('list answers', () => {
  it('lists the bullet items under the heading the question names, not another list of the page', async () => {
    const manual = section(
      's_1',
      'Cleaning\nThe machine must be cleaned daily.\nRequired tools:\n• Cleaning brush\n• Cleaning tablets\n• Soft cloth\nSafety notes\n- Never immerse the machine in water\n- Unplug the machine before cleaning it',
      ['5 Care'],
    );
    const result = await reader.read({ question: 'What are the required tools?', observations: [manual] });
    expect(result).toMatchObject({ answer: ['Cleaning brush', 'Cleaning tablets', 'Soft cloth'], answer_format: 'List' });
    expect(supportMatches(result.support[0]!, manual)).toBe(true);
  });

  it('lists the cells of the table column whose header names what is asked', async () => {
    const courses = table('tab_1', ['Course code', 'Course title', 'Credits'], [
      ['HB101', 'Soil Science Basics', '4'],
      ['HB214', 'Greenhouse Practice', '4'],
      ['HB330', 'Plant Pathology', '2'],
    ]);
    const result = await reader.read({ question: 'What are the course titles?', observations: [courses] });
    expect(result).toMatchObject({ answer: ['Soil Science Basics', 'Greenhouse Practice', 'Plant Pathology'], answer_format: 'List' });
    for (const s of result.support) expect(observationText(courses).text).toContain(s.snippet);
  });

  it('reads the asked column of the rows the question names by their labels', async () => {
    const errors = table('tab_2', ['Error', 'Description', 'Action'], [
      ['12', 'Water tank empty', 'Fill the tank'],
      ['40', 'Pump blocked', 'Clean the filter'],
      ['140', 'Sensor fault', 'Call service'],
    ]);
    const result = await reader.read({ question: 'What are the descriptions of codes 40 and 140?', observations: [errors] });
    expect(result).toMatchObject({ answer: ['Pump blocked', 'Sensor fault'], answer_format: 'List' });
    expect(result.support.map((s) => s.snippet)).toEqual(['40 | Pump blocked', '140 | Sensor fault']);
  });

  it('reads a header wrapped over the first rows as the header, not as list items', async () => {
    // Columns "Fault" / "Fault" / "Remedy", first row "code" / "text": the header's second line.
    const faults = table('tab_5', ['Fault', 'Fault', 'Remedy'], [
      ['code', 'text', ''],
      ['21', 'Lid open', 'Close the lid'],
      ['35', 'Filter clogged', 'Rinse the filter'],
      ['52', 'Motor overheated', 'Let the motor cool down'],
    ]);
    expect(headerRowCount(faults.payload.kind === 'table' ? faults.payload.rows : [])).toBe(1);
    const named = await reader.read({ question: 'What are the fault texts of fault codes 21 and 52?', observations: [faults] });
    expect(named).toMatchObject({ answer: ['Lid open', 'Motor overheated'], answer_format: 'List' });
    const all = await reader.read({ question: 'List all fault texts.', observations: [faults] });
    expect(all).toMatchObject({ answer: ['Lid open', 'Filter clogged', 'Motor overheated'], answer_format: 'List' });
    // The column holding the codes the question names picks the rows; it is not the answer even when one code is missing.
    const partly = await reader.read({ question: 'What are the fault texts of fault codes 21 and 99?', observations: [faults] });
    expect(partly.answer).not.toEqual(['21', '35', '52']);
    // A table of text only keeps its first row as data.
    expect(headerRowCount([['Oak', 'Deciduous'], ['Pine', 'Evergreen']])).toBe(0);
  });

  it('splits an enumeration in one sentence, and prefers a list as long as the question says', async () => {
    const text = textObservation('t_3', 'Common pollinators include a bumblebee and a hoverfly. Seeds are also spread by birds, wind and running water.', 9);
    const result = await reader.read({ question: 'What are two examples of pollinators?', observations: [text] });
    expect(result).toMatchObject({ answer: ['bumblebee', 'hoverfly'], answer_format: 'List' });
    expect(expectedItemCount('Which five valves are fitted to the boiler?')).toBe(5);
    expect(expectedItemCount('Which seven valves does the manual list?')).toBe(7);
    expect(expectedItemCount('What are the risks named in Section 3.3?')).toBeUndefined();
    expect(splitEnumeration('The segments are Safety, Health Care and Consumer.')).toEqual(['Safety', 'Health Care', 'Consumer']);
    expect(splitEnumeration('Seeds are spread by birds, wind and running water.')).toEqual(['spread by birds', 'wind', 'running water']);
  });

  it('answers one value per item a question enumerates "respectively", as a list', async () => {
    expect(questionParts('What were the outputs of the north and south plants respectively?')?.parts).toEqual(['north plants', 'south plants']);
    expect(questionParts('How many farms use drip irrigation, sprinkler irrigation, and flood irrigation, respectively?')?.parts).toEqual([
      'drip irrigation',
      'sprinkler irrigation',
      'flood irrigation',
    ]);
    const report = textObservation('t_6', 'Sales in the northern region grew 5.3% in 2022. Sales in the southern region grew 4.1% in 2022.', 2);
    const result = await reader.read({ question: 'How much did sales grow in the southern and northern regions respectively, in percent?', observations: [report] });
    expect(result).toMatchObject({ answer: ['4.1', '5.3'], answer_format: 'List' });
    expect(result.support).toHaveLength(2);
  });

  it('answers the list item a question asks by its position, from the list under the heading it names', async () => {
    const storage = section('s_2', 'Keep the jars in a cool, dry place.\nClose the lid after each use.\nDo not freeze the contents.', ['4 Care', '4.2 Storage'], 9);
    const cleaning = section('s_3', 'Rinse the jars with warm water.\nDry them with a soft cloth.\nDo not use abrasive cleaners.', ['4 Care', '4.1 Cleaning'], 9);
    const storageList = { ...storage, modality: 'list' as const };
    const cleaningList = { ...cleaning, modality: 'list' as const };
    const second = await reader.read({ question: 'What is the second rule for storage?', observations: [cleaningList, storageList] });
    expect(second).toMatchObject({ answer: 'Close the lid after each use.', answer_format: 'Str' });
    expect(supportMatches(second.support[0]!, storageList)).toBe(true);
    const last = await reader.read({ question: 'What is the last rule for cleaning?', observations: [storageList, cleaningList] });
    expect(last.answer).toBe('Do not use abrasive cleaners.');
    // A list shorter than the position asked gives no item.
    const tenth = await reader.read({ question: 'What is the tenth rule for storage?', observations: [storageList] });
    expect(tenth.answer).not.toBe('Do not freeze the contents.');
  });

  it('keeps an enumeration without a lead to parallel items, not the opening of its sentence', () => {
    expect(splitEnumeration('In 2020, the regional fund financed Harbour Repairs, School Meals, Rural Broadband and Flood Defences.')).toEqual([
      'Harbour Repairs',
      'School Meals',
      'Rural Broadband',
      'Flood Defences',
    ]);
  });

  it('keeps an "and" inside an item of an enumeration; only the last item holds the final conjunction', () => {
    expect(splitEnumeration('Operating costs are research and development, sales and marketing and general administration.')).toEqual([
      'research and development',
      'sales and marketing',
      'general administration',
    ]);
    // With a comma before the final conjunction, the last item is whole.
    expect(splitEnumeration('The lab tests include Soil and Water Samples, Air Filters, and Food and Feed Residues.')).toEqual(['Soil and Water Samples', 'Air Filters', 'Food and Feed Residues']);
  });
});
