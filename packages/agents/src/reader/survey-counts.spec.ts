import type { Observation } from '@doctree/schema';
import { textObservation } from '../__fixtures__/report-tree.js';
import { EvidenceSet } from './evidence-model.js';
import { ExtractiveReader } from './extractive-reader.js';
import { supportMatches } from './observation-text.js';
import { profileQuestion } from './question-profile.js';
import { baseOfGroup, groupLabelMatch, groupQuestion, groupShareCandidates, surveyBases, surveyCountCandidates } from './survey-counts.js';

function table(nodeId: string, columns: string[], rows: string[][], page: number): Observation {
  const text = [columns.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
  return { node_id: nodeId, modality: 'table', page, bbox: null, payload: { kind: 'table', columns, rows, units: [], markdown: text, text } };
}

const reader = new ExtractiveReader();

// A made-up city commuter survey: findings on early pages, the methodology (bases) at the end.
const findings = textObservation(
  't_4',
  'Opinions of the new river bridge differ by how people travel. Most drivers (62%) and about four-in-ten cyclists (41%) say the new bridge shortened their trip. ' +
    'Residents rate the night bus service as excellent (9%), good (35%), not good (30%) or poor (24%).',
  4,
);
const modes = table('tab_2', ['', 'Walk', 'Cycle', 'Drive'], [['Total', '18', '22', '60'], ['Graduate students', '31', '40', '29'], ['Retirees', '44', '6', '50']], 6);
const method = textObservation('t_30', 'The findings are based on a survey of 2,400 residents conducted by telephone in March and April.', 14);
const bases = table(
  'tab_9',
  ['Group', 'Unweighted sample size', 'Plus or minus'],
  [
    ['Total sample', '2,400', '2.3 percentage points'],
    ['Drivers', '1,320', '3.1 percentage points'],
    ['Cyclists', '610', '4.6 percentage points'],
    ['Grad students', '180', '8.4 percentage points'],
  ],
  15,
);
const report = [findings, modes, method, bases];

describe('survey reports: bases, shares of groups and counts of people', () => {
  it('answers "how many <group> <did something>" with the group share times the group base, citing both and showing the formula', async () => {
    const result = await reader.read({ question: 'How many cyclists said the new bridge shortened their trip?', observations: report });
    expect(result).toMatchObject({ answer: 250, answer_format: 'Int' });
    expect(result.support.map((s) => s.page)).toEqual([4, 15]);
    for (const s of result.support) expect(supportMatches(s, report.find((o) => o.node_id === s.node_id)!)).toBe(true);
    expect(result.notes?.join(' ')).toMatch(/41% \([^)]*cyclists, page 4\)/);
    expect(result.notes?.join(' ')).toMatch(/× 610 \(Cyclists, page 15\) = 250\.1 → 250/);
  });

  it('counts the whole sample for a group named with the sample noun, the share attached to the answer option asked', async () => {
    const result = await reader.read({ question: 'How many residents rated the night bus service as poor?', observations: report });
    // 24% of 2,400.
    expect(result).toMatchObject({ answer: 576, answer_format: 'Int' });
    expect(result.support[1]!.snippet).toContain('2,400 residents');
  });

  it('reads the share a sentence gives a group it opens with "Among <group>,"', async () => {
    const survey = [textObservation('t_5', 'Among part-time workers, 37% say they use the shuttle at least weekly, while 12% never use it.', 5), bases, table('tab_10', ['Group', 'Sample size'], [['Part-time workers', '420']], 16)];
    const result = await reader.read({ question: 'How many part-time workers use the shuttle at least weekly?', observations: survey });
    // 37% of 420 = 155.4.
    expect(result.answer).toBe(155);
  });

  it('rounds as the question asks ("to the nearest hundred")', async () => {
    const result = await reader.read({ question: 'How many drivers say the new bridge shortened their trip? Round to the nearest hundred.', observations: report });
    // 62% of 1,320 = 818.4.
    expect(result.answer).toBe(800);
  });

  it('never counts a group no base covers with the whole sample', () => {
    const question = 'How many retired cyclists said the new bridge shortened their trip?';
    expect(surveyCountCandidates(new EvidenceSet(report, profileQuestion(question)))).toEqual([]);
    // Nor without any base in the evidence.
    const noBases = [findings, modes];
    expect(surveyCountCandidates(new EvidenceSet(noBases, profileQuestion('How many cyclists said the new bridge shortened their trip?')))).toEqual([]);
  });

  it('reads "what percentage of <group>" at the group row and the column the question names', async () => {
    const result = await reader.read({ question: 'What percentage of graduate students cycle to campus?', observations: report });
    expect(result).toMatchObject({ answer: 40 });
    expect(result.support[0]!.snippet).toContain('Graduate students');
    const shares = groupShareCandidates(new EvidenceSet(report, profileQuestion('What percentage of retirees walk?')));
    expect(shares[0]?.answer).toBe(44);
    // A share asked as "how many percent of …" is the share, not a count of people.
    expect(await reader.read({ question: 'How many percent of retirees drive?', observations: report })).toMatchObject({ answer: 50 });
  });

  it('reads bases from a sample-size table, labels written with (n=…) and the whole sample in a sentence', () => {
    const labelled = textObservation('t_7', 'Share who own an e-bike. Men (n=512) 14%. Women (n=498) 9%. Total for all riders (n=1,010) 12%.', 9);
    const found = surveyBases([bases, method, labelled]).map((b) => [b.label, b.n, b.total]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['Total sample', 2400, true],
        ['Cyclists', 610, false],
        ['residents', 2400, true],
        ['Men', 512, false],
        ['Women', 498, false],
        ['Total for all riders', 1010, true],
      ]),
    );
    // Percentages and plus-or-minus columns are not bases.
    expect(found.some(([, n]) => n === 2.3 || n === 14)).toBe(false);
  });

  it('matches a group to a label through abbreviations and a one-letter slip, not through a word of another group', () => {
    expect(groupLabelMatch(['graduate', 'students'], 'Grad students')).toBeGreaterThan(0.5);
    expect(groupLabelMatch(['cylcists'], 'Cyclists')).toBeGreaterThan(0);
    expect(groupLabelMatch(['drivers'], 'Cyclists')).toBe(0);
    const found = surveyBases([bases]);
    expect(baseOfGroup(['cyclists'], found)?.n).toBe(610);
    expect(baseOfGroup(['people'], found)?.n).toBe(2400);
    expect(baseOfGroup(['retirees'], found)).toBeUndefined();
  });

  it('reads the group and what is asked about it from the question, scope and instructions left out', () => {
    const ask = groupQuestion('In the city survey of 2023, how many cyclists (the exact number) said the new bridge shortened their trip? Give the answer to the nearest ten.');
    expect(ask?.group).toEqual(['cyclists']);
    expect(ask?.clause).toEqual(expect.arrayContaining(['new', 'bridg', 'shorten', 'trip']));
    expect(ask?.clause).not.toContain('exact');
    expect(ask?.roundTo).toBe(10);
    expect(ask?.asks).toBe('count');
    expect(groupQuestion('How many percent of cyclists wear a helmet?')?.asks).toBe('share');
    expect(groupQuestion('What percentage of part-time workers use the shuttle?')?.group).toEqual(['part-time', 'workers']);
    expect(groupQuestion('What was the revenue in 2023?')).toBeUndefined();
  });
});
