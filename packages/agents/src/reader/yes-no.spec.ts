import type { Observation } from '@doctree/schema';
import { textObservation } from '../__fixtures__/report-tree.js';
import { ExtractiveReader } from './extractive-reader.js';
import { profileQuestion } from './question-profile.js';

const reader = new ExtractiveReader();

function table(nodeId: string, columns: string[], rows: string[][], caption?: string): Observation {
  const text = [columns.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
  return {
    node_id: nodeId,
    modality: 'table',
    page: 4,
    bbox: null,
    payload: { kind: 'table', columns, rows, units: [], markdown: text, text, ...(caption ? { caption } : {}) },
  };
}

describe('yes/no answers', () => {
  it('reads "Directly answer yes or no" questions as yes/no, but not questions that offer two alternatives', () => {
    expect(profileQuestion("Does smoke cause asthma? Directly answer 'yes' or 'no'.").kind).toBe('yes_no');
    expect(profileQuestion('Did the wage ratio increase or decrease in 2023?').kind).not.toBe('yes_no');
  });

  it('answers Yes when a sentence states the claim, No when a negation stands next to its terms', async () => {
    const stated = [textObservation('t_1', 'Exposure to ultraviolet light causes sunburn and damages the skin.', 3)];
    const yes = await reader.read({ question: "Does ultraviolet light cause sunburn? Directly answer 'yes' or 'no'.", observations: stated });
    expect(yes).toMatchObject({ answer: 'Yes', answer_format: 'Str' });
    expect(yes.support[0]!.snippet).toContain('causes sunburn');
    const denied = [textObservation('t_2', 'The pump does not require any lubrication during its service life.', 5)];
    expect((await reader.read({ question: 'Does the pump require lubrication?', observations: denied })).answer).toBe('No');
  });

  it('answers No when the table shows the value moved the other way over the years asked, Yes when it moved as asked', async () => {
    const balance = table('tab_3', ['(In millions)', '2023', '2022'], [
      ['Balance, beginning of period', '$ 86,939', '$ 83,111'],
      ['Long-term debt', '41,990', '47,032'],
      ['Total liabilities', '205,753', '198,298'],
    ]);
    const debt = await reader.read({ question: 'Has the company increased its debt between FY2022 and FY2023?', observations: [balance] });
    expect(debt).toMatchObject({ answer: 'No' });
    expect(debt.support.map((s) => s.snippet)).toEqual(['Long-term debt | 41,990 | 47,032', 'Long-term debt | 41,990']);
    expect(debt.notes?.join('\n')).toMatch(/went down/);
    const liabilities = await reader.read({ question: 'Did total liabilities grow between FY2022 and FY2023?', observations: [balance] });
    expect(liabilities.answer).toBe('Yes');
  });

  it('answers No when a sentence about the subject states the opposite change', async () => {
    const text = [textObservation('t_4', 'Gross margin declined to 20.1% in fiscal 2023 from 20.9% in fiscal 2022, reflecting higher raw material costs.', 6)];
    const result = await reader.read({ question: 'Does the company have an improving gross margin profile as of FY2023?', observations: text });
    expect(result.answer).toBe('No');
  });

  it('answers No when what the question asks to exist appears nowhere in the evidence', async () => {
    const page = [textObservation('t_5', 'Submitted on behalf of the applicant. Page 12 of 12. Please retain a copy for your records.', 12)];
    const result = await reader.read({ question: "Is there a stamp shown on the last page? Directly answer 'yes' or 'no'.", observations: page });
    expect(result).toMatchObject({ answer: 'No', answer_format: 'Str' });
    expect(result.notes?.join('\n')).toMatch(/never mentions "stamp"/);
    // Weak evidence gives a modest confidence.
    expect(result.confidence).toBeLessThan(0.7);
  });
});
