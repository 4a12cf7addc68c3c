import { textObservation } from '../__fixtures__/report-tree.js';
import { ExtractiveReader } from './extractive-reader.js';
import { supportMatches } from './observation-text.js';
import { negatedShareVerb } from './text-number-candidates.js';

const reader = new ExtractiveReader();

describe('shares of those who do not do something', () => {
  it('reads the verb a percentage question negates, and none when no share is asked', () => {
    expect(negatedShareVerb('What percentage of households do not own a bicycle?', true)).toBe('own');
    expect(negatedShareVerb('What share of members have never attended a meeting?', true)).toBe('attend');
    expect(negatedShareVerb('Which members do not attend meetings?', false)).toBeUndefined();
    expect(negatedShareVerb('What percentage of households own a bicycle?', true)).toBeUndefined();
  });

  it('answers the rest of a stated share when the question asks the negated share, citing the sentence', async () => {
    const text = textObservation('t_1', 'In the 2022 mobility survey, 64% of households own a bicycle, up from 58% five years earlier.', 3);
    const result = await reader.read({ question: 'What percentage of households do not own a bicycle in the 2022 mobility survey?', observations: [text] });
    expect(result.answer).toBe(36);
    expect(supportMatches(result.support[0]!, text)).toBe(true);
    expect((result.notes ?? []).join(' ')).toContain('the rest of the 64%');
  });

  it('answers a negated share the document states as written', async () => {
    const text = textObservation('t_2', 'In the 2022 mobility survey, 27% of households do not own a bicycle, and most of them live downtown.', 3);
    const result = await reader.read({ question: 'What percentage of households do not own a bicycle in the 2022 mobility survey?', observations: [text] });
    expect(result.answer).toBe(27);
  });
});
