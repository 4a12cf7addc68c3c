import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError } from '@doctree/schema';

import { captureIo } from '../testing/capture-io.js';
import { parseCommandArgs, positiveIntegerOption } from './command-args.js';
import { loadCommandConfig } from './command-config.js';
import { reportCommandFailure } from './command-failure.js';

const codeOf = (work: () => unknown): string | undefined => {
  try {
    work();
  } catch (error) {
    return DocTreeError.isInstance(error) ? error.code : 'NOT_A_DOCTREE_ERROR';
  }
  return undefined;
};

describe('command support', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-command-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads ./doctree.config.json under the environment and redacts its secrets', () => {
    writeFileSync(join(dir, 'doctree.config.json'), JSON.stringify({ embedder: { kind: 'hashing' } }));
    const config = loadCommandConfig({ cwd: dir, env: { OPENAI_API_KEY: 'sk-command-SECRET' } }, undefined);
    expect(config.configFile).toBe(join(dir, 'doctree.config.json'));
    expect(config.config.embedder.kind).toBe('hashing');
    expect(JSON.stringify(config.redact({ note: 'key sk-command-SECRET' }))).not.toContain('sk-command-SECRET');
  });

  it('names a missing or broken configuration file', () => {
    expect(codeOf(() => loadCommandConfig({ cwd: dir, env: {} }, 'nope.json'))).toBe('INPUT_NOT_FOUND');
    writeFileSync(join(dir, 'bad.json'), '{ not json');
    expect(codeOf(() => loadCommandConfig({ cwd: dir, env: {} }, 'bad.json'))).toBe('CONFIG_INVALID');
  });

  it('turns unknown options and bad integers into USAGE errors with the usage as hint', () => {
    expect(parseCommandArgs(['a.pdf', '--json'], { json: { type: 'boolean' } })).toEqual({ values: { json: true }, positionals: ['a.pdf'] });
    const error = (() => {
      try {
        parseCommandArgs(['--jsn'], { json: { type: 'boolean' } }, 'doctree x [--json]');
      } catch (e) {
        return e as DocTreeError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('USAGE');
    expect(error?.hint).toBe('doctree x [--json]');
    expect(positiveIntegerOption('limit', '12')).toBe(12);
    expect(positiveIntegerOption('limit', undefined)).toBeUndefined();
    for (const bad of ['0', '-1', '1.5', 'ten']) expect(codeOf(() => positiveIntegerOption('limit', bad))).toBe('USAGE');
  });

  it('reports a failure on one line with its exit status, and as JSON when asked', () => {
    const io = captureIo();
    const status = reportCommandFailure(new DocTreeError('INPUT_NOT_FOUND', 'no such file', { file: 'a.pdf' }), io, { program: 'doctree', json: true });
    expect(status).toBe(new DocTreeError('INPUT_NOT_FOUND', 'x').exitStatus);
    expect(io.err.split('\n')).toHaveLength(2);
    expect(io.err).toMatch(/^doctree: \[INPUT_NOT_FOUND\] /);
    expect(JSON.parse(io.out).error.code).toBe('INPUT_NOT_FOUND');
  });

  it('escapes control characters of the file name on the error line, not in the JSON error', () => {
    const io = captureIo();
    reportCommandFailure(new DocTreeError('INPUT_NOT_FOUND', 'no such file', { file: 'a\x1b[2J\u202e.pdf' }), io, { program: 'doctree', json: true });
    expect(io.err).toContain('a\\x1b[2J\\u202e.pdf');
    expect(io.err.trimEnd()).not.toMatch(/[\p{Cc}\u202e]/u);
    expect(JSON.parse(io.out).error.file).toBe('a\x1b[2J\u202e.pdf');
  });

  it('keeps stack traces of unexpected errors out unless DOCTREE_DEBUG is set', () => {
    const quiet = captureIo();
    reportCommandFailure(new Error('boom'), quiet, { program: 'doctree', json: false });
    expect(quiet.err).toMatch(/^doctree: \[INTERNAL\] .*boom/);
    expect(quiet.err).not.toMatch(/\n\s+at /);
    const debug = captureIo({ env: { DOCTREE_DEBUG: '1' } });
    reportCommandFailure(new Error('boom'), debug, { program: 'doctree', json: false });
    expect(debug.err).toMatch(/\n\s+at /);
  });
});
