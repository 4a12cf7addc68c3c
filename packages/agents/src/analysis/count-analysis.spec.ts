import { analyzeQuestion } from './question-analysis.js';
import { countAnalysis, singularNoun } from './count-analysis.js';

const count = (q: string) => countAnalysis(analyzeQuestion(q));

// Questions written for these tests (manuals, papers, reports, brochures).
describe('countAnalysis', () => {
  it('finds the head noun of the counted phrase and its modifiers', () => {
    expect(count('How many spray nozzle settings does the garden hose offer?')).toMatchObject({ phrase: 'spray nozzle settings', noun: 'settings', modifiers: ['spray', 'nozzle'] });
    expect(count('How many distinct warning lights are there on the dashboard?')).toMatchObject({ noun: 'lights', distinct: true, modifiers: ['warning'] });
    expect(count('How many volunteers joined the rescue team in 2020?')?.noun).toBe('volunteers');
    expect(count('How many more trucks than vans did the depot buy?')).toMatchObject({ noun: 'trucks', comparative: true });
    expect(count('What is the capital of Peru?')).toBeUndefined();
  });

  it('names document objects, pages holding them and headings that start with a word', () => {
    expect(count('How many diagrams are there in the brochure?')).toMatchObject({ object: 'figure', perPage: false, qualifiers: [] });
    expect(count('How many line graphs does the brochure show?')).toMatchObject({ object: 'chart', qualifiers: ['line'] });
    expect(count('How many slides contain photos?')).toMatchObject({ object: 'image', perPage: true });
    expect(count('How many annexes does the contract have?')).toMatchObject({ object: 'heading', headingWord: 'annex' });
    expect(count('How many chapters are in the novel?')).toMatchObject({ object: 'heading', headingWord: 'chapter' });
    expect(count('How many tenants signed the lease?')?.object).toBeUndefined();
  });

  it('reads quoted words as required, the clause as qualifiers, and the section or pages as the scope', () => {
    expect(count('How many tables report "latency" as a measure?')).toMatchObject({ object: 'table', required: ['latency'], qualifiers: [] });
    expect(count('How many figures regarding the pump assembly appear?')).toMatchObject({ object: 'figure', qualifiers: ['pump', 'assembly'] });
    expect(count('How many drawings appear in Appendix D?')).toMatchObject({ object: 'figure', section: 'Appendix D' });
    expect(count('How many tables are in the section on soil samples?')?.section).toBe('soil samples');
    expect(count('How many photos are in the Field Trips section?')?.section).toBe('Field Trips');
  });

  it('turns plural nouns into their singular', () => {
    expect(['appendices', 'graphs', 'batteries', 'boxes', 'photos', 'table'].map(singularNoun)).toEqual(['appendix', 'graph', 'battery', 'box', 'photo', 'table']);
  });
});
