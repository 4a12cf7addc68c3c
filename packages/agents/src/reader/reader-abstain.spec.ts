import { textObservation } from '../__fixtures__/report-tree.js';
import { ExtractiveReader } from './extractive-reader.js';

describe('who declines a weakly supported answer', () => {
  // The evidence names a number but barely touches the question: a weak candidate (confidence about 0.45).
  const observations = [textObservation('t_1', 'The mill hosted 42 visitors.')];
  const question = 'What was the total annual value of refined steel shipments from the northern mill to export customers in Asia?';
  const reader = new ExtractiveReader({ minConfidence: 0.6 });

  it('the reader declines it by default, below its confidence floor', async () => {
    const result = await reader.read({ question, observations });
    expect(result).toMatchObject({ answer: 'Not answerable', answer_format: 'None' });
    expect(result.notes?.join(' ')).toMatch(/too weakly supported/);
  });

  it('with abstain "caller" it returns the weak answer with its low confidence, for a calibrated caller to weigh', async () => {
    const result = await reader.read({ question, observations, abstain: 'caller' });
    expect(result.answer).toBe(42);
    expect(result.confidence).toBeLessThan(0.6);
    expect(result.support[0]).toMatchObject({ node_id: 't_1' });
  });

  it('still declines when nothing in the evidence could answer', async () => {
    const result = await reader.read({ question, observations: [textObservation('t_2', 'No figures appear here.')], abstain: 'caller' });
    expect(result.answer_format).toBe('None');
  });
});
