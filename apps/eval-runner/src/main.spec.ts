import { run } from './main.js';

describe('doctree-eval-runner', () => {
  it('prints usage with --help and refuses experiment files it cannot run yet, with the usage status', async () => {
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await run(['--help'])).toBe(0);
      expect(String(out.mock.calls[0]?.[0])).toMatch(/experiment\.json/);
      expect(await run(['experiment.json'])).toBe(2);
      expect(String(err.mock.calls[0]?.[0])).toMatch(/^doctree-eval-runner: \[USAGE\]/);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
