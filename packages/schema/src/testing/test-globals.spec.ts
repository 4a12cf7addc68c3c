import { conformanceTestGlobals } from './test-globals.js';

describe('conformanceTestGlobals', () => {
  it('returns the running framework globals', () => {
    const globals = conformanceTestGlobals('runExampleConformance');
    expect(globals.describe).toBe(describe);
    expect(globals.expect).toBe(expect);
  });

  it('names the suite and the missing globals outside a test framework', () => {
    const g = globalThis as unknown as Record<string, unknown>;
    const saved = g['afterAll'];
    delete g['afterAll'];
    try {
      expect(() => conformanceTestGlobals('runExampleConformance')).toThrow(/runExampleConformance must be called from a test file .*missing afterAll/);
    } finally {
      g['afterAll'] = saved;
    }
  });
});
