import { findLabelMentions, parseCaptionLabel } from './labels.js';

describe('parseCaptionLabel', () => {
  it.each([
    ['Figure 3: Accuracy over time', 'Figure 3'],
    ['Fig. 12. Overview of the pipeline', 'Figure 12'],
    ['TABLE II Results on the test set', 'Table II'],
    ['Table 2-1 Selected financial data', 'Table 2-1'],
    ['Table A.1: Hyper-parameters', 'Table A.1'],
    ['Figure 4b shows', 'Figure 4b'],
  ])('%s → %s', (caption, label) => {
    expect(parseCaptionLabel(caption)?.label).toBe(label);
  });

  it('does not take running text for a caption', () => {
    expect(parseCaptionLabel('As shown in Figure 3, accuracy rises.')).toBeUndefined();
    expect(parseCaptionLabel('Tableau de bord')).toBeUndefined();
  });
});

describe('findLabelMentions', () => {
  it('finds single and listed mentions with spans', () => {
    const text = 'Results are in Table 2, see also Figures 3 and 4 and Fig. 5(b).';
    const mentions = findLabelMentions(text);
    expect(mentions.map((m) => m.label)).toEqual(['Table 2', 'Figure 3', 'Figure 4', 'Figure 5']);
    expect(text.slice(mentions[0]!.start, mentions[0]!.end)).toBe('Table 2');
  });
});
