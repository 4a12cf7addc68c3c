import { textObservation } from '../__fixtures__/report-tree.js';
import { valueRuns } from './enumerated-values.js';
import { ExtractiveReader } from './extractive-reader.js';
import { supportMatches } from './observation-text.js';

const reader = new ExtractiveReader();

describe('values stated together, one per item asked', () => {
  it('answers the values one sentence states together for the items a question enumerates, in order, as written', async () => {
    const report = textObservation(
      't_1',
      'Against a target enrolment rate of 90%, the college reached 83.0% over the year. In the spring and autumn terms the enrolment rate was 81.5% and 84.2%. The summer school stayed at 60%.',
      3,
    );
    const result = await reader.read({ question: 'What percentage did the enrolment rate reach in the spring and autumn terms respectively?', observations: [report] });
    expect(result).toMatchObject({ answer: ['81.5%', '84.2%'], answer_format: 'List' });
    expect(supportMatches(result.support[0]!, report)).toBe(true);
    expect(result.support[0]!.snippet).toContain('81.5% and 84.2%');
  });

  it('reads a run of values joined by commas and a final "and", of one kind, years left out', () => {
    expect(valueRuns('The three plants shipped 1,200, 950 and 700 crates in 2021.').map((run) => run.map((m) => m.value))).toEqual([[1200, 950, 700]]);
    // Values joined by other words, or of different kinds, are no enumeration.
    expect(valueRuns('Sales rose 5% to 1,200 units, and costs fell by 3%.')).toEqual([]);
    expect(valueRuns('Between 2019 and 2020 the rate was 4.1%.')).toEqual([]);
    expect(valueRuns('Margins were 12%, 14% and 15 points.')).toEqual([]);
  });
});
