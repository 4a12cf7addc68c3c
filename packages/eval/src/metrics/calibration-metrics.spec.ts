import type { ScoredPrediction } from './aggregate.js';
import { calibrationMetrics } from './calibration-metrics.js';

/** A scored prediction with what calibration reads: answer, confidence, rule score, answerability. */
function scored(answer: string, confidence: number, accuracy: number, answerable = true): ScoredPrediction {
  return {
    id: `q${Math.random()}`,
    system: 'sys',
    doc_file: 'd.pdf',
    question: 'q',
    answer,
    answer_format: answer === 'Not answerable' ? 'None' : 'Str',
    confidence,
    ranked_pages: [],
    pages: [],
    support: [],
    latency_ms: 1,
    llm_calls: 0,
    tokens: { prompt: 0, completion: 0 },
    gold: { answer: 'x', answer_format: 'Str', answerable, evidence_pages: [], evidence_sources: null, source_labels: [], format_label: 'Str' },
    score: { accuracy, rule: 'str-anls', scored_answer: answer, answered: answer !== 'Not answerable', recall_at: {}, hit_at: {}, reciprocal_rank: null },
  };
}

describe('calibrationMetrics', () => {
  it('is 0 ECE when confidence matches the share right, and AUROC counts ties half', () => {
    const rows = [...Array.from({ length: 4 }, (_, i) => scored('a', 0.75, i < 3 ? 1 : 0)), ...Array.from({ length: 4 }, (_, i) => scored('b', 0.25, i < 1 ? 1 : 0))];
    const c = calibrationMetrics(rows);
    expect(c.ece).toBeCloseTo(0, 9);
    // right above wrong: 3·3 pairs; ties at 0.75: 3·1, at 0.25: 1·3, half each; the right 0.25 below the wrong 0.75: 0.
    expect(c.auroc).toBeCloseTo((9 + 1.5 + 1.5) / 16, 9);
    expect(c.bins.find((b) => b.lo === 0.7)).toMatchObject({ n: 4, accuracy: 0.75, mean_confidence: 0.75 });
  });

  it('shows overconfidence as a large ECE', () => {
    const c = calibrationMetrics([scored('a', 0.95, 0), scored('b', 0.95, 0), scored('c', 0.95, 1), scored('d', 0.95, 0)]);
    expect(c.ece).toBeCloseTo(0.7, 9);
    expect(c.bins[9]).toMatchObject({ n: 4, accuracy: 0.25 });
  });

  it('counts declined unanswerable and answerable questions, and no AUROC when all outputs are right', () => {
    const c = calibrationMetrics([scored('Not answerable', 0.8, 1, false), scored('x', 0.6, 1, false), scored('Not answerable', 0.3, 1), scored('y', 0.9, 1), scored('z', 0.9, 1)]);
    expect(c.unanswerable_declined).toBe(0.5);
    expect(c.answerable_declined).toBeCloseTo(1 / 3, 9);
    expect(c.auroc).toBeNull();
  });
});
