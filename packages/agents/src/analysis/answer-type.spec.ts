import { profileQuestion } from '../reader/question-profile.js';
import { choiceOptions, ordinalItem, textAnswerType } from './answer-type.js';

describe('choiceOptions', () => {
  it('reads the options an instruction quotes, but not a yes/no instruction', () => {
    expect(choiceOptions("Did the harbour or the airport handle more freight in 2019? Directly answer 'harbour' or 'airport'.")).toMatchObject({
      options: ['harbour', 'airport'],
      basis: 'compare',
      extreme: 'max',
    });
    expect(choiceOptions("Does the valve close automatically? Directly answer 'yes' or 'no'.")).toBeUndefined();
  });

  it('reads a pair of opposite words, with the two things an order question quotes', () => {
    expect(choiceOptions('In the setup chapter, does "Fill the tank" come before or after "Connect the hose"?')).toEqual({
      options: ['before', 'after'],
      basis: 'order',
      opposite: true,
      subjects: ['Fill the tank', 'Connect the hose'],
    });
    expect(choiceOptions('Is the error rate of the new sensor higher or lower than the old one?')).toEqual({ options: ['higher', 'lower'], basis: 'compare', opposite: true });
  });

  it('reads alternatives closing a which-question and alternatives introduced before it', () => {
    expect(choiceOptions('Which recipe needs more eggs, the lemon tart or the plum cake?')).toMatchObject({ options: ['lemon tart', 'plum cake'], basis: 'compare', extreme: 'max' });
    expect(choiceOptions('Among the three layers: the base layer, the middle layer, and the top layer, which one is thinnest?')?.options).toEqual(['base layer', 'middle layer', 'top layer']);
  });

  it('names no options for questions that only mention an "or" inside what they ask', () => {
    expect(choiceOptions('How many visitors arrived by train or by bus in 2021?')).toBeUndefined();
    expect(choiceOptions('What share of members are retired or unemployed?')).toBeUndefined();
    expect(choiceOptions('Who founded the museum?')).toBeUndefined();
  });
});

describe('textAnswerType', () => {
  it('tells the short text a question asks for', () => {
    expect(textAnswerType('Who designed the east wing of the library?')).toBe('person');
    expect(textAnswerType('Which agency approved the new runway?')).toBe('organization');
    expect(textAnswerType('Where was the first prototype assembled?')).toBe('place');
    expect(textAnswerType('What does the abbreviation KMT stand for?')).toBe('expansion');
    expect(textAnswerType('What is the fax number of the county office?')).toBe('code');
    expect(textAnswerType('What was the title given to chapter three?')).toBe('name');
    expect(textAnswerType('In this manual, what is the cleaning program called?')).toBe('name');
    expect(textAnswerType('What is the main ingredient of the glaze?')).toBe('phrase');
  });

  it('asks a definition, and no short text of explanations and descriptions', () => {
    expect(textAnswerType('How does the handbook define a late submission?')).toBe('definition');
    expect(textAnswerType('What does "dwell time" mean in this guide?')).toBe('definition');
    expect(textAnswerType('Why did the bridge close in 2020?')).toBeUndefined();
    expect(textAnswerType('Describe the cooling procedure.')).toBeUndefined();
  });
});

describe('ordinalItem', () => {
  it('reads the position of a list item the question asks, counted from the start or the end', () => {
    expect(ordinalItem('What is the third step of the descaling procedure?')).toEqual({ position: 3, fromEnd: false, noun: 'step' });
    expect(ordinalItem('Under "Storage", what is the 2nd rule?')).toEqual({ position: 2, fromEnd: false, noun: 'rule' });
    expect(ordinalItem('What is the last tip in the travel section?')).toEqual({ position: 1, fromEnd: true, noun: 'tip' });
  });

  it('reads no list item from pages, figures, periods, dates or enumerations of ordinals', () => {
    expect(ordinalItem('What is shown on the second page?')).toBeUndefined();
    expect(ordinalItem('What does the first figure show?')).toBeUndefined();
    expect(ordinalItem('What was revenue in the second quarter?')).toBeUndefined();
    expect(ordinalItem('What was announced on 1st March 2021?')).toBeUndefined();
    expect(ordinalItem('What were the sales of the first and second plants respectively?')).toBeUndefined();
  });
});

describe('the answer kind of "what kind of" questions', () => {
  it('asks a thing, not a number, even when the question names a rate', () => {
    expect(profileQuestion('If the growth rate drops below 2 cm a week, what kind of soil should the seedlings be moved to?').kind).toBe('text');
    expect(profileQuestion('What was the growth rate of the seedlings in 2021?').kind).toBe('number');
  });
});
