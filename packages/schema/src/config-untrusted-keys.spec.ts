import { REDACTED, redactSecrets, resolveConfig } from './config.js';

// Configuration files are JSON written by people: a `__proto__` key is an own property after JSON.parse, and merging
// or redacting must keep it one (an assignment would make it the prototype, and its values inherited config).
describe('configuration keys named after Object.prototype properties', () => {
  it('a `__proto__` key of the file or of the overrides does not inject configuration through the prototype', () => {
    const file = JSON.parse('{"__proto__": {"llm": {"provider": "openai", "api_key": "sk-injected-123456"}}, "data_dir": "data/proto"}') as Record<string, unknown>;
    const { config, sources } = resolveConfig({ file, env: {} });
    expect(config.llm.provider).toBe('none');
    expect(config.llm.api_key).toBeUndefined();
    expect(config.data_dir).toBe('data/proto');
    expect(sources.api_key).toBe('unset');
    const overrides = JSON.parse('{"__proto__": {"llm": {"provider": "openai", "api_key": "sk-injected-123456"}}}') as never;
    expect(resolveConfig({ env: {}, overrides }).config.llm).toMatchObject({ provider: 'none' });
  });

  it('nested `__proto__`, constructor and toString keys merge as data, overrides included', () => {
    const file = JSON.parse('{"llm": {"__proto__": {"provider": "openai"}, "model": "m-file"}, "constructor": 1, "toString": "x"}') as Record<string, unknown>;
    const { config } = resolveConfig({ file, env: {}, overrides: JSON.parse('{"llm": {"__proto__": {"api_key": "sk-over-123456"}, "model": "m-over"}}') as never });
    expect(config.llm.provider).toBe('none');
    expect(config.llm.model).toBe('m-over');
    expect(config.llm.api_key).toBeUndefined();
    expect(typeof String(config)).toBe('string');
  });

  it('redactSecrets keeps `__proto__` keys as own, redacted data', () => {
    const value = JSON.parse('{"__proto__": {"api_key": "sk-secret-123456", "note": "sk-secret-123456 used"}, "constructor": {"token": "t0k3n-value"}}') as Record<string, unknown>;
    const redacted = redactSecrets(value, ['sk-secret-123456']);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.hasOwn(redacted, '__proto__')).toBe(true);
    expect(JSON.stringify(redacted)).toBe(`{"__proto__":{"api_key":"${REDACTED}","note":"${REDACTED} used"},"constructor":{"token":"${REDACTED}"}}`);
  });
});
