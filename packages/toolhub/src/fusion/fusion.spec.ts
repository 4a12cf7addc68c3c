import type { Hit, RouterDecision } from '@doctree/schema';
import { navigatorFor, type DocNavigator } from '../navigation/doc-navigator.js';
import { nodeHit } from '../hits/node-hit.js';
import { annualReportTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { diversifyHits, rerankContextFromDecision, rerankHits, resolveRerankFeatures } from './feature-rerank.js';
import { reciprocalRankFusion, weightedFusion } from './reciprocal-rank-fusion.js';

const h = (nodeId: string, method: string, score: number, extra: Record<string, unknown> = {}): Hit => ({
  eid: `d:${nodeId}`,
  doc_id: 'd',
  page_idx: 0,
  node_id: nodeId,
  modality: 'text',
  snippet: `${nodeId} by ${method}`,
  bbox: null,
  score_raw: score,
  method,
  extra,
});

describe('reciprocal rank fusion', () => {
  it('sums 1/(60 + rank) over lanes, keeping the lanes that contributed', () => {
    const bm25 = [h('a', 'bm25', 9), h('b', 'bm25', 5), h('c', 'bm25', 1)];
    const dense = [h('b', 'dense', 0.8), h('d', 'dense', 0.7)];
    const fused = reciprocalRankFusion([bm25, dense]);
    expect(fused.map((x) => x.node_id)).toEqual(['b', 'a', 'd', 'c']);
    const score = new Map(fused.map((x) => [x.node_id, x.score!]));
    expect(score.get('b')).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(score.get('a')).toBeCloseTo(1 / 61, 12);
    expect(score.get('d')).toBeCloseTo(1 / 62, 12);
    expect(score.get('c')).toBeCloseTo(1 / 63, 12);
    const b = fused[0]!;
    expect(b.extra['via']).toEqual(['bm25', 'dense']);
    expect(b.extra['lanes']).toEqual([
      { method: 'bm25', rank: 2, score_raw: 5 },
      { method: 'dense', rank: 1, score_raw: 0.8 },
    ]);
    // the hit itself is the one from the lane that ranked it best
    expect(b.method).toBe('dense');
  });

  it('takes k and lane weights, and counts a node once per lane', () => {
    const fused = reciprocalRankFusion([[h('a', 'x', 1), h('a', 'x', 0.5), h('b', 'x', 0.1)], [h('b', 'y', 1)]], { k: 1, weights: { y: 3 } });
    const score = new Map(fused.map((x) => [x.node_id, x.score!]));
    expect(score.get('a')).toBeCloseTo(1 / 2, 12);
    expect(score.get('b')).toBeCloseTo(1 / 3 + 3 / 2, 12);
  });

  it('with combine max, a node found by two views of one retrieval counts once, at its best rank', () => {
    // A table indexed in two views comes back from both stages; summed it would bury the page ranked first by one stage.
    const stages = [
      [h('tab', 'x', 1), h('text', 'x', 0.9)],
      [h('tab', 'y', 1), h('other', 'y', 0.5)],
    ];
    const summed = reciprocalRankFusion(stages, { k: 1 });
    expect(summed[0]!.node_id).toBe('tab');
    expect(summed[0]!.score).toBeCloseTo(1, 12);
    const best = reciprocalRankFusion(stages, { k: 1, combine: 'max' });
    const score = new Map(best.map((x) => [x.node_id, x.score!]));
    expect(score.get('tab')).toBeCloseTo(1 / 2, 12);
    expect(score.get('text')).toBeCloseTo(1 / 3, 12);
  });

  it('weighted fusion min-max normalises each lane', () => {
    const fused = weightedFusion([[h('a', 'bm25_node.search', 10), h('b', 'bm25_node.search', 0)], [h('b', 'dense.search', 0.9), h('a', 'dense.search', 0.3)]]);
    const score = new Map(fused.map((x) => [x.node_id, x.score!]));
    expect(score.get('a')).toBeCloseTo(0.35, 12);
    expect(score.get('b')).toBeCloseTo(0.45, 12);
  });
});

describe('feature rerank and diversification on the fixture', () => {
  let fixture: FixtureIndex;
  let nav: DocNavigator;
  const hitOf = (id: string, score: number): Hit => ({ ...nodeHit(nav, nav.require(id), { method: 'lane', score }), score });
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    nav = navigatorFor(fixture.index);
  });
  afterAll(() => fixture.cleanup());

  it('a hinted page, a named label and asked years lift the right node over a slightly better fused one', () => {
    const hits = [hitOf('t_2', 1), hitOf('tab_1', 0.95), hitOf('t_4', 0.9)];
    const plain = rerankHits(nav, hits, { query: 'overview' });
    expect(plain[0]!.node_id).toBe('t_2');
    const byPage = rerankHits(nav, hits, { query: 'overview', page_hints: [4] });
    expect(byPage[0]!.node_id).toBe('tab_1');
    expect(byPage[0]!.extra['features']).toMatchObject({ page: 1 });
    const byLabel = rerankHits(nav, hits, { query: 'What does Table 1 report?' });
    expect(byLabel[0]!.node_id).toBe('tab_1');
    expect(byLabel.find((x) => x.node_id === 't_4')!.extra['features']).toMatchObject({ label: 0.3 });
    const byYear = rerankHits(nav, [hitOf('t_4', 1), hitOf('tab_1', 0.97)], { query: 'capital spending', years: [2021] });
    expect(byYear[0]!.node_id).toBe('tab_1');
  });

  it('intent favours tables for table questions, and plan feature lists switch features off', () => {
    const hits = [hitOf('t_4', 1), hitOf('tab_1', 0.95)];
    expect(rerankHits(nav, hits, { query: 'x', intent: 'table' })[0]!.node_id).toBe('tab_1');
    const onlyYears = rerankHits(nav, hits, { query: 'x', intent: 'table' }, { features: ['year'] });
    expect(onlyYears[0]!.node_id).toBe('t_4');
    expect(resolveRerankFeatures(['is_title_hit', 'unit_match', 'toc_distance', 'bogus'])).toEqual({ features: ['title', 'unit', 'same_section'], unknown: ['bogus'] });
    expect(resolveRerankFeatures(['constructor', 'toString', '__proto__'])).toEqual({ features: [], unknown: ['constructor', 'toString', '__proto__'] });
  });

  it('builds a rerank context from a router decision', () => {
    const decision: RouterDecision = {
      query_type: 'table_number',
      candidates: [{ type: 'table_number', score: 0.9 }],
      signals: {
        page_hints: [4],
        objects: [{ kind: 'table', label: 'Table 1', text: 'Table 1' }],
        units: ['$'],
        years: [2022],
        operations: ['lookup'],
        expected_format: 'Float',
        keywords: ['capital expenditures'],
        entities: [],
      },
      risk: { level: 'low', reasons: [] },
      constraints: [],
      sub_questions: [],
      confidence: 0.8,
      source: 'rules',
    };
    expect(rerankContextFromDecision('q', decision)).toEqual({
      query: 'q',
      page_hints: [4],
      units: ['$'],
      years: [2022],
      labels: ['Table 1'],
      keywords: ['capital expenditures'],
      intent: 'table',
    });
  });

  it('diversifies by section: one section does not fill the top', () => {
    const hits = [hitOf('t_2', 1), hitOf('t_3', 0.99), hitOf('cap_1', 0.98), hitOf('t_5', 0.9)];
    const out = diversifyHits(hits, 'section', { penalty: 0.2 });
    expect(out.map((x) => x.node_id)).toEqual(['t_2', 't_5', 't_3', 'cap_1']);
    expect(out[1]!.score).toBeCloseTo(0.9);
    expect(out[2]!.score).toBeCloseTo(0.99 * 0.8);
    expect(out[2]!.extra['score_before_diversity']).toBe(0.99);
    expect(diversifyHits(hits, 'page').map((x) => x.node_id)[1]).toBe('t_5');
  });
});
