/**
 * SDK acceptance check: what a user gets from `npm install @doctree/<name>`.
 *
 * Every publishable package (non-private, under packages/ or apps/) is packed with `npm pack` exactly
 * as `npm publish` would pack it, the tarballs are inspected, then installed together into a scratch
 * project in the OS temp directory (outside the workspace), where plain Node ESM imports them and
 * `tsc` (nodenext, strict, no `@doctree/source` condition) type-checks a consumer against them.
 *
 * Needs built dist/ folders: `nx test workspace-checks` builds every package first (the test target
 * depends on `^build` and this project implicitly depends on every publishable project).
 * Set DOCTREE_KEEP_SCRATCH=1 to keep the temp directory for inspection.
 */
import { createProjectGraphAsync } from '@nx/devkit';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import {
  findWorkspaceRoot,
  importSpecifiers,
  listPublishablePackages,
  localDependencySpecs,
  publishedEntryPoints,
  readManifest,
  relativeImportSpecifiers,
  unexpectedTarballEntries,
  type PackageManifest,
  type WorkspacePackage,
} from './index.js';

const execFileAsync = promisify(execFile);
const TIMEOUT = 300_000;

const root = findWorkspaceRoot(__dirname);
const publishable = listPublishablePackages(root);
const libraries = publishable.filter((pkg) => pkg.kind === 'lib');
const apps = publishable.filter((pkg) => pkg.kind === 'app');
const byName = (list: WorkspacePackage[]) => list.map((pkg) => [pkg.name, pkg] as const);
/** One row per import specifier (`@doctree/index`, `@doctree/index/testing`, ...) of each package. */
const bySpecifier = (list: WorkspacePackage[]) =>
  list.flatMap((pkg) => importSpecifiers(pkg.manifest).map((specifier) => [specifier, pkg] as const));
const specifiers = bySpecifier(publishable);
const tsc = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'tsc.cmd' : 'tsc');

/** Every TypeScript example (`examples/*.ts`, whoever adds it): each is compiled against the tarballs and run offline. */
const exampleFiles = readdirSync(join(root, 'examples'))
  .filter((f) => f.endsWith('.ts'))
  .sort();
/** What some examples promise to print (every example must at least exit 0 offline and print something). */
const EXAMPLE_OUTPUT: ReadonlyMap<string, readonly RegExp[]> = new Map([
  ['swap-the-retriever.ts', [/^lane word_overlap\.search: [1-9]\d* call\(s\), [1-9]\d* hits, retriever called [1-9]\d* time\(s\)$/m, /\[[^\]]*bm25_node\.search[^\]]*word_overlap\.search/, /^answer: 204\.9 \(pages 1\)$/m]],
  ['swap-the-reader.ts', [/^DocTree: 204\.9 from \d+ observations/m, /^RAG: +\S+ from \d+ chunks, pages \d/m]],
  ['swap-the-embedder.ts', [/^index embedder: trigram-256 \(256 dimensions\), [1-9]\d* texts embedded$/m, /^answer: 2140 \(pages 1\)$/m]],
]);

/** Environment of an offline run: no LLM endpoint or key, the hashing embedder unless the example picks its own. */
function offlineEnv(): NodeJS.ProcessEnv {
  const env = childEnv();
  for (const key of Object.keys(env)) if (/^(OPENAI_|ANTHROPIC_|DOCTREE_LLM)/.test(key)) delete env[key];
  return { ...env, DOCTREE_EMBEDDER: 'hashing' };
}

async function runOffline(command: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, { cwd, env: offlineEnv(), maxBuffer: 64 * 1024 * 1024, timeout: TIMEOUT });
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`\`${command} ${args.join(' ')}\` failed in ${cwd}:\n${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

interface Packed {
  /** Absolute path of the .tgz. */
  tarball: string;
  /** Absolute path of the unpacked tarball (its `package/` folder). */
  unpacked: string;
  /** Files in the tarball, relative to the package root, sorted. */
  files: string[];
  /** The package.json as it ships. */
  manifest: PackageManifest;
}

interface NodeProbe {
  importResolved?: string;
  resolveError?: string;
  requireResolved?: string;
  requireResolveError?: string;
  exports?: string[];
  importError?: string;
}

/** Environment for child processes: no Jest/npm-script leftovers that could change how Node or npm behave. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['NODE_PATH'];
  for (const key of Object.keys(env)) {
    if (
      /^npm_(package|lifecycle)_/i.test(key) ||
      /^npm_config_(prefix|local_prefix|global|global_prefix|location|workspaces?|include_workspace_root|dry_run|json|omit|include|production|ignore_scripts)$/i.test(key)
    ) {
      delete env[key];
    }
  }
  return env;
}

async function run(command: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, { cwd, env: childEnv(), maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`\`${command} ${args.join(' ')}\` failed in ${cwd}:\n${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? walk(full, base) : [relative(base, full).split(sep).join('/')];
  });
}

function installedDir(scratch: string, name: string): string {
  return join(scratch, 'node_modules', ...name.split('/'));
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel);
}

async function pack(pkg: WorkspacePackage, dest: string): Promise<Packed> {
  // From the package directory, exactly like `npm publish` (lifecycle scripts included).
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest], pkg.dir);
  const json = stdout.slice(stdout.search(/^\[/m));
  const [info] = JSON.parse(json) as Array<{ filename: string }>;
  if (!info) throw new Error(`npm pack printed no result for ${pkg.name}`);
  const tarball = join(dest, info.filename);
  const out = join(dest, 'unpacked', pkg.name.replace(/^@/, '').replace('/', '__'));
  mkdirSync(out, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', out], dest);
  const unpacked = join(out, 'package');
  return { tarball, unpacked, files: walk(unpacked).sort(), manifest: readManifest(join(unpacked, 'package.json')) };
}

/** Runtime (value) exports a TypeScript consumer sees for every module imported by `file`. */
function declaredValueExports(file: string, options: ts.CompilerOptions): Map<string, string[]> {
  const program = ts.createProgram([file], options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`TypeScript could not read ${file}`);
  const isTypeOnly = (decl: ts.Declaration) =>
    (ts.isExportSpecifier(decl) && (decl.isTypeOnly || decl.parent.parent.isTypeOnly)) ||
    (ts.isImportSpecifier(decl) && (decl.isTypeOnly || decl.parent.parent.isTypeOnly)) ||
    (ts.isNamespaceExport(decl) && decl.parent.isTypeOnly) ||
    (ts.isImportClause(decl) && decl.isTypeOnly);
  const isValueExport = (symbol: ts.Symbol): boolean => {
    let current = symbol;
    for (let depth = 0; current.flags & ts.SymbolFlags.Alias && depth < 50; depth++) {
      if (current.declarations?.some(isTypeOnly)) return false;
      current = checker.getImmediateAliasedSymbol(current) ?? current;
      if (!(current.flags & ts.SymbolFlags.Alias)) break;
    }
    return (current.flags & ts.SymbolFlags.Value) !== 0;
  };
  const result = new Map<string, string[]>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(statement.moduleSpecifier);
    const names = moduleSymbol
      ? checker
          .getExportsOfModule(moduleSymbol)
          .filter(isValueExport)
          .map((s) => s.getName())
          .sort()
      : [];
    result.set(statement.moduleSpecifier.text, names);
  }
  return result;
}

const PROBE_SCRIPT = `
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
const require = createRequire(import.meta.url);
const targets = JSON.parse(process.argv[2]);
const out = {};
for (const { name, load } of targets) {
  const r = {};
  try { r.importResolved = fileURLToPath(import.meta.resolve(name)); }
  catch (e) { r.resolveError = String(e && e.stack || e); }
  try { r.requireResolved = require.resolve(name); }
  catch (e) { r.requireResolveError = String(e && e.message || e); }
  if (load) {
    try { r.exports = Object.keys(await import(name)).sort(); }
    catch (e) { r.importError = String(e && e.stack || e); }
  }
  out[name] = r;
}
process.stdout.write(JSON.stringify(out));
`;

let tmp = '';
const packed = new Map<string, Packed>();

beforeAll(async () => {
  const unbuilt = publishable.filter((pkg) => !existsSync(join(pkg.dir, 'dist')));
  if (unbuilt.length > 0) {
    throw new Error(
      `No dist/ in ${unbuilt.map((p) => p.relativeDir).join(', ')}: build first (\`npx nx test workspace-checks\` does, through ^build).`,
    );
  }
  tmp = mkdtempSync(join(realpathSync(tmpdir()), 'doctree-packed-install-'));
  const dest = join(tmp, 'tarballs');
  mkdirSync(dest);
  const results = await Promise.all(publishable.map(async (pkg) => [pkg.name, await pack(pkg, dest)] as const));
  for (const [name, result] of results) packed.set(name, result);
}, TIMEOUT);

afterAll(() => {
  if (!tmp) return;
  if (process.env['DOCTREE_KEEP_SCRATCH']) console.log(`Kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
});

function packedOf(name: string): Packed {
  const result = packed.get(name);
  if (!result) throw new Error(`${name} was not packed`);
  return result;
}

describe('publishable packages', () => {
  it('are every non-private package under packages/ and apps/', () => {
    expect(publishable.length).toBeGreaterThan(0);
    for (const pkg of publishable) expect(pkg.relativeDir).toMatch(/^(packages|apps)\//);
  });

  it('are all dependencies of workspace-checks, so `nx test workspace-checks` builds them first', async () => {
    const graph = await createProjectGraphAsync({ exitOnError: false });
    const self = Object.values(graph.nodes).find((node) => node.data.root === relative(root, join(__dirname, '..')).split(sep).join('/'));
    expect(self?.name).toBe('workspace-checks');
    const rootsOfDependencies = new Set((graph.dependencies[self?.name ?? ''] ?? []).map((dep) => graph.nodes[dep.target]?.data.root));
    expect(publishable.map((pkg) => pkg.relativeDir).filter((dir) => !rootsOfDependencies.has(dir))).toEqual([]);
    expect(graph.nodes[self?.name ?? '']?.data.targets?.['test']?.dependsOn).toEqual(expect.arrayContaining(['^build']));
  }, 120_000);
});

describe('npm pack', () => {
  it.each(byName(publishable))('%s: tarball holds only package.json, README.md, LICENSE, dist/** (bin/** for apps)', (_name, pkg) => {
    const { files } = packedOf(pkg.name);
    expect(files).toContain('package.json');
    expect(unexpectedTarballEntries(files, pkg.kind)).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/'))).not.toEqual([]);
  });

  it.each(byName(publishable))('%s: ships README.md and LICENSE and names its licence', (_name, pkg) => {
    const { files, manifest, unpacked } = packedOf(pkg.name);
    const problems: string[] = [];
    const nonEmpty = (file: string) => files.includes(file) && readFileSync(join(unpacked, file), 'utf8').trim() !== '';
    if (!nonEmpty('README.md')) problems.push(`${pkg.name}: README.md is missing from the tarball (add ${pkg.relativeDir}/README.md)`);
    if (!nonEmpty('LICENSE')) problems.push(`${pkg.name}: LICENSE is missing from the tarball (add ${pkg.relativeDir}/LICENSE)`);
    if (typeof manifest.license !== 'string' || manifest.license.trim() === '' || manifest.license === 'UNLICENSED') {
      problems.push(`${pkg.name}: package.json must name its licence in "license" (got ${JSON.stringify(manifest.license)})`);
    }
    expect(problems).toEqual([]);
  });

  it.each(byName(publishable))('%s: packed package.json has no file:/workspace:/link:/path dependency specs', (_name, pkg) => {
    const { manifest } = packedOf(pkg.name);
    expect(manifest.name).toBe(pkg.name);
    expect(manifest.version).toBe(pkg.manifest.version);
    expect(localDependencySpecs(manifest)).toEqual([]);
  });

  it.each(byName(publishable))('%s: main, types, bin and exports point at files that ship', (_name, pkg) => {
    const { files, manifest } = packedOf(pkg.name);
    const entryPoints = publishedEntryPoints(manifest);
    expect(entryPoints).not.toEqual([]);
    expect(entryPoints.filter((file) => !files.includes(file))).toEqual([]);
  });
});

describe('installing the tarballs into a scratch project outside the workspace', () => {
  let scratch = '';
  let probe: Record<string, NodeProbe> = {};
  let consumerOptions: ts.CompilerOptions = {};
  /** Per package, the runtime exports its shipped types declare (as a TypeScript consumer sees them). */
  let valueExports = new Map<string, string[]>();

  beforeAll(async () => {
    if (!tmp || packed.size !== publishable.length) throw new Error('Packing failed; see the errors above');
    scratch = join(tmp, 'consumer');
    mkdirSync(scratch);
    writeFileSync(
      join(scratch, 'package.json'),
      `${JSON.stringify({ name: 'doctree-scratch-consumer', version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    // A typical TypeScript consumer of a Node SDK also has @types/node; use the workspace's version.
    const typesNode = readManifest(join(root, 'node_modules', '@types', 'node', 'package.json')).version;
    const tarballs = publishable.map((pkg) => packedOf(pkg.name).tarball);
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--prefix', scratch, ...tarballs, `@types/node@${typesNode}`],
      scratch,
    );

    // The consumer: one strict nodenext module importing every package, with no custom conditions.
    const imports = specifiers.map(([specifier], i) => `import * as p${i} from '${specifier}';`).join('\n');
    const surface = specifiers.map((_row, i) => `typeof p${i}`).join(', ');
    writeFileSync(join(scratch, 'check.ts'), `${imports}\n\nexport type PublicSurface = [${surface}];\n`);
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2023'],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
    };
    writeFileSync(join(scratch, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, files: ['check.ts'] }, null, 2)}\n`);
    consumerOptions = ts.parseJsonConfigFileContent({ compilerOptions }, ts.sys, scratch).options;
    valueExports = declaredValueExports(join(scratch, 'check.ts'), consumerOptions);

    // Libraries are imported for real; apps only resolved (importing an app may start it).
    const targets = specifiers.map(([specifier, pkg]) => ({ name: specifier, load: pkg.kind === 'lib' }));
    writeFileSync(join(scratch, 'probe.mjs'), PROBE_SCRIPT);
    const { stdout } = await run(process.execPath, ['probe.mjs', JSON.stringify(targets)], scratch);
    probe = JSON.parse(stdout) as Record<string, NodeProbe>;
  }, TIMEOUT);

  it('the scratch project lies outside the workspace', () => {
    expect(isInside(realpathSync(scratch), realpathSync(root))).toBe(false);
  });

  it.each(byName(publishable))('%s: installs as a real copy of this version, once', (_name, pkg) => {
    const dir = installedDir(scratch, pkg.name);
    expect(lstatSync(dir).isSymbolicLink()).toBe(false);
    expect(readManifest(join(dir, 'package.json')).version).toBe(pkg.manifest.version);
    // No second copy of a sibling (e.g. an older release from the registry) nested under this one.
    const nested = join(dir, 'node_modules', '@doctree');
    expect(existsSync(nested) ? readdirSync(nested) : []).toEqual([]);
  });

  it.each(specifiers)('%s: resolves inside the scratch node_modules (import, and require where exported)', (specifier, pkg) => {
    const result = probe[specifier];
    expect(result?.resolveError).toBeUndefined();
    expect(result?.importResolved).toBeDefined();
    const home = realpathSync(installedDir(scratch, pkg.name));
    for (const resolved of [result?.importResolved, result?.requireResolved].filter((r) => r !== undefined)) {
      expect({ resolved, exists: existsSync(resolved) }).toEqual({ resolved, exists: true });
      const real = realpathSync(resolved);
      expect({ resolved: real, insideScratchInstall: isInside(real, home) }).toEqual({ resolved: real, insideScratchInstall: true });
      expect(isInside(real, realpathSync(root))).toBe(false);
      expect(real).not.toMatch(/[\\/]src[\\/]/);
    }
  });

  it.each(bySpecifier(libraries))('%s: imports under plain Node ESM with every value export its types declare', (specifier) => {
    const result = probe[specifier];
    expect(result?.importError).toBeUndefined();
    expect(Array.isArray(result?.exports)).toBe(true);
    const declared = valueExports.get(specifier);
    expect(declared).toBeDefined();
    const runtime = new Set(result?.exports);
    // Types promise it, so a user would get `undefined`/"does not provide an export named" at runtime.
    expect((declared ?? []).filter((name) => !runtime.has(name))).toEqual([]);
    if ((declared ?? []).length > 0) expect(runtime.size).toBeGreaterThan(0);
  });

  it(
    'type-checks a strict nodenext consumer with tsc, through the exports map and without the @doctree/source condition',
    async () => {
      await run(tsc, ['-p', join(scratch, 'tsconfig.json')], scratch);

      expect(consumerOptions.customConditions ?? []).toEqual([]);
      for (const [specifier, pkg] of specifiers) {
        const { resolvedModule } = ts.resolveModuleName(
          specifier,
          join(scratch, 'check.ts'),
          consumerOptions,
          ts.sys,
          undefined,
          undefined,
          ts.ModuleKind.ESNext,
        );
        expect(resolvedModule?.resolvedFileName).toMatch(/\.d\.ts$/);
        const real = realpathSync(resolvedModule?.resolvedFileName as string);
        expect({ specifier, insideScratchInstall: isInside(real, realpathSync(installedDir(scratch, pkg.name))) }).toEqual({
          specifier,
          insideScratchInstall: true,
        });
      }
    },
    TIMEOUT,
  );

  describe('examples/*.ts: compiled in a strict project against the tarballs and run offline', () => {
    beforeAll(async () => {
      if (!scratch) throw new Error('The scratch project was not installed; see the errors above');
      // The repository's layout in the scratch project: examples/ (experiments included) and data/samples/, so the
      // examples' relative paths hold; compiled to examples-dist/ beside examples/.
      cpSync(join(root, 'examples'), join(scratch, 'examples'), { recursive: true });
      cpSync(join(root, 'data', 'samples'), join(scratch, 'data', 'samples'), { recursive: true });
      const compilerOptions = {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023'],
        strict: true,
        skipLibCheck: false,
        types: ['node'],
        rootDir: 'examples',
        outDir: 'examples-dist',
      };
      writeFileSync(join(scratch, 'tsconfig.examples.json'), `${JSON.stringify({ compilerOptions, include: ['examples/*.ts'] }, null, 2)}\n`);
      await run(tsc, ['-p', join(scratch, 'tsconfig.examples.json')], scratch);
    }, TIMEOUT);

    it('every examples/*.ts compiled (one .js each), the swap examples among them', () => {
      expect(exampleFiles).toEqual(expect.arrayContaining(['swap-the-embedder.ts', 'swap-the-reader.ts', 'swap-the-retriever.ts']));
      const compiled = readdirSync(join(scratch, 'examples-dist')).filter((f) => f.endsWith('.js'));
      expect(compiled.sort()).toEqual(exampleFiles.map((f) => f.replace(/\.ts$/, '.js')));
    });

    it.each(exampleFiles)(
      '%s runs offline and prints what it promises',
      async (file) => {
        const { stdout } = await runOffline(process.execPath, [join(scratch, 'examples-dist', file.replace(/\.ts$/, '.js'))], scratch);
        expect(stdout.trim()).not.toBe('');
        for (const pattern of EXAMPLE_OUTPUT.get(file) ?? []) expect(stdout).toMatch(pattern);
      },
      TIMEOUT,
    );

    it(
      'the custom-retriever experiment runs through the packed doctree-eval-runner, then resumes by fingerprint and answers again after the module changed',
      async () => {
        const runner = join(scratch, 'node_modules', '.bin', 'doctree-eval-runner');
        const experiment = join(scratch, 'examples', 'experiments', 'custom-retriever.json');
        const out = join(scratch, 'runs', 'experiment');
        const first = await runOffline(runner, [experiment, '--out', out], scratch);
        expect(first.stdout).toMatch(/^DocTree \+ word-overlap lane +\d/m);
        expect(first.stdout).toMatch(/^BM25 over pages \(reference\) +\d/m);
        const predictions = readFileSync(join(out, 'samples', 'hashing', 'predictions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { system: string; error?: unknown });
        expect(predictions.filter((p) => p.system === 'doctree-word-overlap' && p.error === undefined)).toHaveLength(3);
        const trace = readdirSync(join(out, 'samples', 'hashing', 'traces', 'doctree-word-overlap'))[0]!;
        expect(readFileSync(join(out, 'samples', 'hashing', 'traces', 'doctree-word-overlap', trace), 'utf8')).toContain('word_overlap.search');

        const again = await runOffline(runner, [experiment, '--out', out], scratch);
        expect(again.stderr).toMatch(/resuming 3 answers of doctree-word-overlap \(fingerprint [0-9a-f]{12}\)/);
        const module = join(scratch, 'examples', 'experiments', 'word-overlap-system.mjs');
        writeFileSync(module, `${readFileSync(module, 'utf8')}\n// edited\n`);
        const edited = await runOffline(runner, [experiment, '--out', out], scratch);
        expect(edited.stderr).toContain('doctree-word-overlap changed since the last run: answering again');
        expect(edited.stderr).toMatch(/resuming 3 answers of bm25-pages/);
      },
      TIMEOUT,
    );

    it(
      'doctree eval --systems takes the same module, and a bad module is a one-line error with a hint',
      async () => {
        const doctree = join(scratch, 'node_modules', '.bin', 'doctree');
        const args = ['eval', '--questions', 'data/samples/northwind-questions.jsonl', '--limit', '2', '--llm', 'none', '--embedder', 'hashing', '--docs', 'runs/docs'];
        const { stdout } = await runOffline(doctree, [...args, '--systems', 'bm25-pages,./examples/experiments/word-overlap-system.mjs', '--out', 'runs/cli'], scratch);
        expect(stdout).toMatch(/^DocTree \+ word-overlap lane +\d/m);
        const bad = await execFileAsync(doctree, [...args, '--systems', 'module:./examples/experiments/word-overlap-system.mjs#nothing', '--out', 'runs/bad'], { cwd: scratch, env: offlineEnv() }).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? '' }),
        );
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toMatch(/exports no function "nothing"/);
        expect(bad.stderr).not.toMatch(/^\s+at /m);
      },
      TIMEOUT,
    );
  });

  it.each(byName(apps))('%s: bin launchers only import files that shipped', (_name, pkg) => {
    const dir = installedDir(scratch, pkg.name);
    const { bin } = readManifest(join(dir, 'package.json'));
    const bins = typeof bin === 'string' ? { [pkg.name.split('/').pop() as string]: bin } : (bin ?? {});
    expect(Object.keys(bins)).not.toEqual([]);
    const problems: string[] = [];
    for (const [command, target] of Object.entries(bins)) {
      const file = join(dir, target);
      if (!existsSync(join(scratch, 'node_modules', '.bin', command))) problems.push(`${command}: not linked into node_modules/.bin`);
      if (!existsSync(file)) {
        problems.push(`${command}: ${target} is not in the tarball`);
        continue;
      }
      const source = readFileSync(file, 'utf8');
      if (!source.startsWith('#!/usr/bin/env node')) problems.push(`${command}: ${target} lacks a "#!/usr/bin/env node" line`);
      for (const specifier of relativeImportSpecifiers(source)) {
        const imported = join(dirname(file), specifier);
        if (!existsSync(imported)) problems.push(`${command}: ${target} imports ${specifier}, which is not in the tarball`);
      }
    }
    expect(problems).toEqual([]);
  });
});
