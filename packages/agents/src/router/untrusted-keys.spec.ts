import type { RouterDecision } from '@doctree/schema';
import { TemplatePlanner } from '../planner/template-planner.js';
import { extractSignals } from './question-signals.js';
import { RuleRouter } from './rule-router.js';

// Questions, and LLM router decisions, are untrusted text: the router's tables (number words, ordinals, rounding
// words) and the planner's statement synonyms are looked up with their words, which may name Object.prototype
// properties.
const PROTO_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

describe('router and planner with Object.prototype names', () => {
  it('extracts signals of questions made of them', () => {
    for (const word of PROTO_WORDS) {
      const signals = extractSignals(`What does page ${word} and the ${word} page say about ${word}? Round to the nearest ${word}.`, { pageCount: 10 });
      expect(signals.page_hints).toEqual([]);
      expect(signals.round).toBeUndefined();
      for (const keyword of signals.keywords) expect(typeof keyword).toBe('string');
    }
    expect(extractSignals('What is on page three and the second page? Round to the nearest tenth.', { pageCount: 10 })).toMatchObject({ page_hints: [2, 3], round: 1 });
  });

  it('routes and plans them; a decision naming a "constructor" statement gets no inherited synonyms', async () => {
    const router = new RuleRouter();
    const planner = new TemplatePlanner();
    const decision = router.decide(`Which constructor and toString appear in the __proto__ statement? (valueOf, hasOwnProperty, prototype)`, { pageCount: 5 });
    const plan = await planner.plan(decision);
    for (const stage of plan.stages) for (const term of stage.query_terms ?? []) expect(typeof term).toBe('string');

    // An LLM router may name any object: its text is data.
    const llmDecision: RouterDecision = {
      ...decision,
      query_type: 'lookup',
      signals: {
        ...decision.signals,
        objects: PROTO_WORDS.map((text) => ({ kind: 'statement' as const, text })),
      },
    };
    const fromLlm = await planner.plan(llmDecision);
    const terms = fromLlm.stages.flatMap((s) => s.query_terms ?? []);
    for (const term of terms) expect(typeof term).toBe('string');
    expect(terms).toEqual(expect.arrayContaining(PROTO_WORDS));
    expect(terms.join(' ')).not.toContain('native code');
  });
});
