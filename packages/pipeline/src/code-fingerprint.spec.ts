import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeFingerprintOf } from './code-fingerprint.js';

describe('codeFingerprintOf (what makes a built-in eval system answer again after DocTree changed)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-code-fp-'));
    const pkg = join(dir, 'node_modules', '@example', 'lib');
    mkdirSync(join(pkg, 'dist', 'sub'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@example/lib', version: '0.1.0', main: './dist/index.js' }));
    writeFileSync(join(pkg, 'dist', 'index.js'), 'module.exports = require("./sub/rule.js");\n');
    writeFileSync(join(pkg, 'dist', 'sub', 'rule.js'), 'module.exports = { threshold: 0.5 };\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('changes when any code file of the package changes, although the version does not', () => {
    const before = codeFingerprintOf(['@example/lib'], dir);
    expect(before['@example/lib']).toMatch(/^[0-9a-f]{16}$/);
    expect(codeFingerprintOf(['@example/lib'], dir)).toEqual(before);
    writeFileSync(join(dir, 'node_modules', '@example', 'lib', 'dist', 'sub', 'rule.js'), 'module.exports = { threshold: 0.6 };\n');
    expect(codeFingerprintOf(['@example/lib'], dir)['@example/lib']).not.toBe(before['@example/lib']);
  });

  it('ignores specs, declaration files and source maps, and says which packages do not resolve', () => {
    const before = codeFingerprintOf(['@example/lib', '@example/missing'], dir);
    const dist = join(dir, 'node_modules', '@example', 'lib', 'dist');
    writeFileSync(join(dist, 'index.spec.js'), 'test');
    writeFileSync(join(dist, 'index.d.ts'), 'export {};');
    writeFileSync(join(dist, 'index.js.map'), '{}');
    expect(codeFingerprintOf(['@example/lib', '@example/missing'], dir)).toEqual(before);
    expect(before['@example/missing']).toBe('unresolved');
  });
});
