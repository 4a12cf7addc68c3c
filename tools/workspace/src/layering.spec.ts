/**
 * Proves the layering rules of the root eslint.config.mjs (`@nx/enforce-module-boundaries` with tag
 * constraints) by linting virtual probe files through the ESLint Node API
 * (`new ESLint({ cwd: workspaceRoot })`, `lintText(code, { filePath })`). Nothing is written into the
 * repository: `lintText` gets the code and a (non-existent) file path inside the project.
 *
 * ESLint runs in one plain Node child process for all probes, exactly as `npx eslint` would load the
 * flat config (native ESM, no Jest module registry or transforms, no --experimental-vm-modules).
 *
 * Documented layering (AGENTS.md, eslint.config.mjs): schema <- ingest, index <- toolhub <- agents;
 * rag-baseline uses schema + index; eval uses schema only; pipeline composes every library; apps use
 * every library; nothing imports an app.
 */
import { createProjectGraphAsync, type ProjectGraph } from '@nx/devkit';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findWorkspaceRoot } from './index.js';

const RULE = '@nx/enforce-module-boundaries';
const root = findWorkspaceRoot(__dirname);

/** Any message the rule uses to reject an import that breaks the layering. */
const REJECTION = /can only depend on libs tagged with|Imports of apps are forbidden|Circular dependency between/;
/** The message of a tag constraint proper (as opposed to cycle detection). */
const TAG_REJECTION = /A project tagged with "[^"]+" can only depend on libs tagged with/;

const LIBS = ['schema', 'ingest', 'index', 'toolhub', 'agents', 'rag-baseline', 'eval', 'pipeline', 'langchain', 'evidence-workspace', 'store-postgres', 'jobs'] as const;
const APPS = ['cli', 'eval-runner'] as const;
const TARGETS: readonly string[] = [...LIBS, ...APPS];

/** Which workspace projects each project may import (the documented layering, by Nx project name). */
const ALLOWED: Record<string, readonly string[]> = {
  schema: [],
  ingest: ['schema'],
  index: ['schema'],
  toolhub: ['schema', 'index'],
  agents: ['schema', 'index', 'toolhub'],
  'rag-baseline': ['schema', 'index'],
  eval: ['schema'],
  pipeline: ['schema', 'ingest', 'index', 'toolhub', 'agents', 'rag-baseline', 'eval'],
  langchain: ['schema', 'index', 'toolhub', 'agents', 'pipeline'],
  'evidence-workspace': ['schema', 'ingest', 'index', 'toolhub', 'agents', 'pipeline'],
  'store-postgres': ['schema', 'index', 'pipeline'],
  jobs: ['schema', 'pipeline', 'store-postgres'],
  cli: LIBS,
  'eval-runner': LIBS,
  'workspace-checks': LIBS,
  reliability: LIBS,
};
const SOURCES = Object.keys(ALLOWED);

interface Message {
  ruleId: string | null;
  severity: number;
  message: string;
}

interface LintOutput {
  /** Per probe file path: whether ESLint ignores it and the rule's configured entry. */
  configs: Record<string, { ignored: boolean; rule: unknown }>;
  /** Per probe key (`from|specifier`): the messages of `lintText`. */
  results: Record<string, Message[]>;
}

/** Runs in a child `node --input-type=module`: argv[1] is JSON `{ cwd, files, probes: [{ key, filePath, code }] }`. */
const LINT_SCRIPT = `
import { ESLint } from 'eslint';
const input = JSON.parse(process.argv[1]);
const eslint = new ESLint({ cwd: input.cwd });
const out = { configs: {}, results: {} };
for (const file of input.files) {
  const config = await eslint.calculateConfigForFile(file);
  out.configs[file] = { ignored: await eslint.isPathIgnored(file), rule: config?.rules?.[${JSON.stringify(RULE)}] ?? null };
}
for (const probe of input.probes) {
  const [result] = await eslint.lintText(probe.code, { filePath: probe.filePath, warnIgnored: true });
  out.results[probe.key] = result.messages.map(({ ruleId, severity, message }) => ({ ruleId, severity, message }));
}
process.stdout.write(JSON.stringify(out));
`;

let graph: ProjectGraph;
let lint: LintOutput;

function probeFile(project: string): string {
  const node = graph.nodes[project];
  if (!node) throw new Error(`Nx project "${project}" is not in the project graph`);
  return join(root, node.data.root, 'src', 'probe.ts');
}

/** The npm name of a project (`evidence-workspace` is `@doctree/workspace`), read from its package.json. */
const packageName = (project: string): string => {
  const node = graph.nodes[project];
  if (!node) throw new Error(`Nx project "${project}" is not in the project graph`);
  return (JSON.parse(readFileSync(join(root, node.data.root, 'package.json'), 'utf8')) as { name: string }).name;
};
const probeKey = (from: string, specifier: string) => `${from}|${specifier}`;
const probeCode = (specifier: string) => `import * as probe from '${specifier}';\n\nexport const reexported = probe;\n`;

beforeAll(async () => {
  // The rule reads the *cached* project graph and silently skips itself when there is none
  // (fresh clone, `rm -rf .nx`, plain `npx jest`). Computing the graph writes that cache.
  graph = await createProjectGraphAsync({ exitOnError: false });

  const probes = SOURCES.flatMap((from) =>
    TARGETS.filter((target) => target !== from).map((target) => ({
      key: probeKey(from, packageName(target)),
      filePath: probeFile(from),
      code: probeCode(packageName(target)),
    })),
  );
  const input = { cwd: root, files: SOURCES.map(probeFile), probes };
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', LINT_SCRIPT, JSON.stringify(input)], {
    cwd: root,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  lint = JSON.parse(stdout) as LintOutput;
}, 120_000);

function messagesFor(from: string, specifier: string): Message[] {
  const messages = lint.results[probeKey(from, specifier)];
  if (!messages) throw new Error(`No probe linted for ${from} -> ${specifier}`);
  return messages;
}

const describeMessages = (messages: Message[]) =>
  messages.map((m) => `${m.ruleId ?? '(no rule)'} [${m.severity === 2 ? 'error' : 'warn'}]: ${m.message.split('\n')[0]}`);

function expectRejected(from: string, specifier: string, pattern: RegExp = REJECTION): void {
  const errors = messagesFor(from, specifier).filter((m) => m.ruleId === RULE && m.severity === 2);
  expect({ from, import: specifier, errors: describeMessages(errors) }).toEqual({
    from,
    import: specifier,
    errors: expect.arrayContaining([expect.stringMatching(pattern)]),
  });
}

function expectAllowed(from: string, specifier: string): void {
  expect({ from, import: specifier, messages: describeMessages(messagesFor(from, specifier)) }).toEqual({
    from,
    import: specifier,
    messages: [],
  });
}

describe('layering rules (root eslint.config.mjs, @nx/enforce-module-boundaries)', () => {
  it('applies the rule as an error to the TypeScript sources of every project', () => {
    for (const project of SOURCES) {
      const { ignored, rule } = lint.configs[probeFile(project)] ?? { ignored: true, rule: null };
      const severity = Array.isArray(rule) ? rule[0] : rule;
      expect({ project, ignored, ruleIsError: severity === 2 || severity === 'error' }).toEqual({
        project,
        ignored: false,
        ruleIsError: true,
      });
    }
  });

  it('covers every project in the workspace (a new project needs a place in the layering)', () => {
    expect(Object.keys(graph.nodes).sort()).toEqual([...SOURCES].sort());
    for (const lib of LIBS) expect(graph.nodes[lib]?.data.tags).toEqual(expect.arrayContaining([`scope:${lib}`, 'type:lib']));
    for (const app of APPS) expect(graph.nodes[app]?.data.tags).toContain('type:app');
  });

  describe('rejects imports that break the layering', () => {
    it('schema cannot import agents', () => expectRejected('schema', '@doctree/agents'));
    it('index cannot import toolhub', () => expectRejected('index', '@doctree/toolhub'));
    it('eval cannot import index', () => expectRejected('eval', '@doctree/index', TAG_REJECTION));
    it.each(LIBS.map((lib) => [lib]))('%s cannot import the cli app', (lib) => expectRejected(lib, '@doctree/cli'));

    // The cases above may also trip cycle detection (the upper layer already depends on the lower one),
    // so these imports, which close no cycle, prove the tag constraints on their own.
    it.each([
      ['ingest', '@doctree/toolhub'],
      ['index', '@doctree/ingest'],
      ['rag-baseline', '@doctree/toolhub'],
      ['eval', '@doctree/rag-baseline'],
      ['toolhub', '@doctree/eval'],
      ['cli', '@doctree/eval-runner'],
      ['workspace-checks', '@doctree/cli'],
    ])('%s cannot import %s (tag constraint)', (from, specifier) => expectRejected(from, specifier, TAG_REJECTION));
  });

  describe('allows imports that follow the layering', () => {
    it('ingest can import schema', () => expectAllowed('ingest', '@doctree/schema'));
    it('toolhub can import index', () => expectAllowed('toolhub', '@doctree/index'));
    it('the cli app can import agents', () => expectAllowed('cli', '@doctree/agents'));
  });

  describe('full matrix', () => {
    const pairs = SOURCES.flatMap((from) => TARGETS.filter((target) => target !== from).map((target) => [from, target] as const));
    it.each(pairs)('%s -> %s', (from, target) => {
      if (ALLOWED[from]?.includes(target)) expectAllowed(from, packageName(target));
      else expectRejected(from, packageName(target));
    });
  });
});
