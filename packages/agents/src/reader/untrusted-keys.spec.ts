import { textObservation } from '../__fixtures__/report-tree.js';
import { ExtractiveReader } from './extractive-reader.js';
import { profileQuestion } from './question-profile.js';

// The reader looks question words up in its unit table ("how many grams" → `g`): a question measuring
// "constructors" or "toStrings" finds no unit there instead of a property of Object.prototype.
const reader = new ExtractiveReader();

describe('ExtractiveReader with questions about Object.prototype names', () => {
  it.each(['constructors', 'constructor', 'toStrings', 'valueOf', 'hasOwnProperty', 'prototypes', '__proto__'])('counts %s', async (measure) => {
    const observations = [textObservation('t_1', `The city hired 3 ${measure} and 2 architects in 2021; 4 ${measure} left.`)];
    const question = `How many ${measure} did the city hire?`;
    expect(typeof (profileQuestion(question).measure ?? '')).toBe('string');
    const result = await reader.read({ question, observations });
    expect(result.answer).toBe(3);
    expect(result.support[0]).toMatchObject({ node_id: 't_1' });
  });

  it('still reads a real unit from its abbreviation', async () => {
    const observations = [textObservation('t_1', 'Each bar weighs 16 g and costs 2 dollars.')];
    const result = await reader.read({ question: 'How many grams does each bar weigh?', observations });
    expect(result.answer).toBe(16);
  });
});
