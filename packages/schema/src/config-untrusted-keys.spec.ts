import { REDACTED, redactSecrets, resolveConfig } from './config.js';

// Configuration files are JSON written by people: a `__proto__` key is an own property after JSON.parse, and merging
// or redacting must keep it one (an assignment would make it the prototype, and its values inherited config).
describe('configuration keys named after Object.prototype properties', () => {
  it('a `__proto__` key of the file or of the overrides is an unknown key (refused by name), never configuration through the prototype', () => {
    const file = JSON.parse('{"__proto__": {"llm": {"provider": "openai", "api_key": "sk-injected-123456"}}, "data_dir": "data/proto"}') as Record<string, unknown>;
    expect(() => resolveConfig({ file, env: {} })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: 'unknown configuration key "__proto__"' }));
    const overrides = JSON.parse('{"__proto__": {"llm": {"provider": "openai", "api_key": "sk-injected-123456"}}}') as never;
    expect(() => resolveConfig({ env: {}, overrides })).toThrow(/unknown configuration key "__proto__"/);
    // Nothing leaked into later configurations either.
    expect(resolveConfig({ env: {} }).config.llm).toMatchObject({ provider: 'none' });
    expect(resolveConfig({ env: {} }).config.llm.api_key).toBeUndefined();
  });

  it('nested `__proto__`, constructor and toString keys are refused by name, overrides included', () => {
    const file = JSON.parse('{"llm": {"__proto__": {"provider": "openai"}, "model": "m-file"}, "constructor": 1, "toString": "x"}') as Record<string, unknown>;
    expect(() => resolveConfig({ file, env: {} })).toThrow(/unknown configuration key "llm.__proto__", "constructor", "toString"/);
    const overrides = JSON.parse('{"llm": {"__proto__": {"api_key": "sk-over-123456"}, "model": "m-over"}}') as never;
    expect(() => resolveConfig({ env: {}, overrides })).toThrow(/unknown configuration key "llm.__proto__"/);
  });

  it('redactSecrets keeps `__proto__` keys as own, redacted data', () => {
    const value = JSON.parse('{"__proto__": {"api_key": "sk-secret-123456", "note": "sk-secret-123456 used"}, "constructor": {"token": "t0k3n-value"}}') as Record<string, unknown>;
    const redacted = redactSecrets(value, ['sk-secret-123456']);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.hasOwn(redacted, '__proto__')).toBe(true);
    expect(JSON.stringify(redacted)).toBe(`{"__proto__":{"api_key":"${REDACTED}","note":"${REDACTED} used"},"constructor":{"token":"${REDACTED}"}}`);
  });
});
