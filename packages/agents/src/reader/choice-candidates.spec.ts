import type { Observation } from '@doctree/schema';
import { textObservation } from '../__fixtures__/report-tree.js';
import { distinctOptions } from './choice-candidates.js';
import { ExtractiveReader } from './extractive-reader.js';
import { observationText, supportMatches } from './observation-text.js';

const reader = new ExtractiveReader();

function section(nodeId: string, text: string, headings: string[], page: number): Observation {
  return { node_id: nodeId, modality: 'section', page, bbox: null, payload: { kind: 'text', text, heading_path: headings } };
}

describe('choice answers', () => {
  it('answers an order question with "before" or "after", from the order the document gives the two steps', async () => {
    const setup = section(
      's_1',
      'Setting up the dryer\nConnect the exhaust hose to the back panel.\nLevel the dryer with the adjustable feet.\nPlug the power cord into a grounded outlet.',
      ['2 Installation'],
      6,
    );
    const after = await reader.read({ question: 'In the installation chapter, does "Plug the power cord" come before or after "Level the dryer"?', observations: [setup] });
    expect(after).toMatchObject({ answer: 'after', answer_format: 'Str' });
    expect(supportMatches(after.support[0]!, setup)).toBe(true);
    const before = await reader.read({ question: 'Does "Connect the exhaust hose" come before or after "Level the dryer"?', observations: [setup] });
    expect(before.answer).toBe('before');
  });

  it('picks the option with the larger value near its mention, and answers the words that tell the options apart', async () => {
    const text = textObservation('t_1', 'The lemon tart needs 3 eggs and a short pastry base. The plum cake needs 5 eggs and two cups of flour.', 12);
    const result = await reader.read({ question: 'Which recipe needs more eggs, the lemon tart or the plum cake?', observations: [text] });
    expect(result).toMatchObject({ answer: 'plum cake', answer_format: 'Str' });
    for (const s of result.support) expect(observationText(text).text).toContain(s.snippet);
    const fewer = await reader.read({ question: 'Which recipe needs fewer eggs, the lemon tart or the plum cake?', observations: [text] });
    expect(fewer.answer).toBe('lemon tart');
  });

  it('compares quantities, not the years written next to an option', async () => {
    const text = textObservation('t_4', 'The north plant, opened in 2005, makes 40 units a day. The south plant makes 55 units a day.', 7);
    const result = await reader.read({ question: 'Which plant makes more units a day, the north plant or the south plant?', observations: [text] });
    expect(result.answer).toBe('south plant');
    expect(result.notes?.join(' ')).toMatch(/north plant 40/);
  });

  it('answers one of the options the question names even when the evidence only discusses one of them', async () => {
    const text = textObservation(
      't_2',
      'Most of the surveyed studies rely on ensemble pruning. Ensemble pruning removes weak members after training. Early stopping is mentioned once.',
      3,
    );
    const result = await reader.read({ question: 'Among the two methods: ensemble pruning and early stopping, which one do most surveyed studies rely on?', observations: [text] });
    expect(['ensemble pruning', 'early stopping']).toContain(result.answer);
    expect(result.answer).toBe('ensemble pruning');
  });

  it('declines rather than answer something that is not an option', async () => {
    const text = textObservation('t_3', 'The museum opens at nine and closes at five.', 2);
    const result = await reader.read({ question: 'Which wing was renovated first, the north wing or the south wing?', observations: [text] });
    expect(result.answer_format).toBe('None');
  });

  it('keeps the words that tell options apart', () => {
    expect(distinctOptions(['To replace the filter', 'to replace the hose'])).toEqual(['filter', 'hose']);
    expect(distinctOptions(['north plant', 'south plant'])).toEqual(['north plant', 'south plant']);
  });
});
