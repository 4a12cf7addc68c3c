import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertSystemId, isModuleSystem, parseModuleSystem, type QaSystem, type QaSystemDescription } from '@doctree/eval';
import { DocTreeError } from '@doctree/schema';
import { createEvalSystemContext, createEvalSystems, DocTreeQaSystem, EVAL_SYSTEM_IDS, type CreateEvalSystemsOptions, type DocTreeQaSystemOptions, type EvalSystemContext } from './eval-systems.js';

/**
 * What a system factory of a module gets: the evaluation's shared context (documents — one ingest, embedder and vector
 * backend —, reader, router, chat model, configuration) and builders for the DocTree system with parts of your own and
 * for the built-in systems.
 */
export interface EvalSystemFactoryContext extends EvalSystemContext {
  /**
   * The DocTree agent as a system, with parts of your own: `agent(index)` returns agent options per document
   * (`retrievers`, `reader`, `judger`, `planner`, `router`, `hub.replace`…); `parts` describes them for the run's
   * fingerprint and report. Give it its own `id`.
   */
  doctreeSystem(options: DocTreeQaSystemOptions): QaSystem;
  /** A built-in system by id (`doctree`, an ablation, `rag`, `rag-hybrid`, `bm25-pages`). */
  builtInSystem(id: string): QaSystem;
}

/** What a system module exports (default export, `createSystem`, or the export named after `#`). */
export type EvalSystemFactory = (context: EvalSystemFactoryContext) => QaSystem | Promise<QaSystem>;

/** Options of {@link loadEvalSystems}. */
export interface LoadEvalSystemsOptions extends CreateEvalSystemsOptions {
  /** Folder relative module paths are resolved from. Default the current directory. */
  baseDir?: string;
  /** Loads a module by file URL. Default the runtime's `import()` (tests running as CommonJS pass another loader). */
  importModule?: (url: string) => Promise<Record<string, unknown>>;
  /**
   * Systems by id beside the built-in ones, each made by its factory over the shared context (how an app plugs in a
   * system whose packages the pipeline does not import, e.g. `doctree-pg` of the CLI). Default none.
   */
  factories?: ReadonlyMap<string, EvalSystemFactory>;
}

/**
 * Creates the systems of an evaluation from built-in ids and modules: `./my-system.mjs`, `module:./x.js#createSystem`
 * (paths relative to `baseDir`). A module exports an {@link EvalSystemFactory} (default export, `createSystem`, or the
 * export named after `#`); what it returns must be a `QaSystem` (an `id` and `answer()`). Each module system's
 * description gets `code` — the module file's sha256 and the `@doctree/*` versions it resolves — so a rerun answers
 * again after the module or the packages changed (see `runEvaluation`).
 *
 * @example
 * ```ts
 * const systems = await loadEvalSystems(['doctree', './systems/my-retriever.mjs'], { config, baseDir: process.cwd() });
 * ```
 * @throws DocTreeError `USAGE` for an unknown or repeated id, `INPUT_NOT_FOUND` for a missing module, `CONFIG_INVALID`
 *   for a module without the factory, a factory that throws or returns no system — each naming the module, with a hint.
 */
export async function loadEvalSystems(specs: readonly string[], options: LoadEvalSystemsOptions): Promise<QaSystem[]> {
  if (specs.length === 0) throw new DocTreeError('USAGE', 'no systems given', { hint: `Choose from: ${[...EVAL_SYSTEM_IDS, ...(options.factories?.keys() ?? [])].join(', ')}, or a module (./my-system.mjs).` });
  const factories = options.factories ?? new Map<string, EvalSystemFactory>();
  const builtIn = specs.filter((s) => !isModuleSystem(s) && !factories.has(s));
  // Unknown ids are refused before any module is loaded or document prepared.
  if (builtIn.length > 0) createEvalSystems(builtIn, { ...options, context: placeholderContext(options) });
  const context = createEvalSystemContext(options);
  const factoryContext: EvalSystemFactoryContext = {
    ...context,
    doctreeSystem: (o) => new DocTreeQaSystem(context, o),
    builtInSystem: (id) => createEvalSystems([id], { ...options, context })[0]!,
  };
  const systems: QaSystem[] = [];
  for (const spec of specs) {
    const factory = factories.get(spec);
    if (factory !== undefined) systems.push(await factory(factoryContext));
    else systems.push(isModuleSystem(spec) ? await loadModuleSystem(spec, factoryContext, options.baseDir ?? process.cwd(), options.importModule ?? nativeImport) : createEvalSystems([spec], { ...options, context })[0]!);
  }
  const ids = systems.map((s) => s.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new DocTreeError('USAGE', `system "${repeated}" is given twice`, { hint: 'A module system needs an id of its own (e.g. doctree-my-retriever).' });
  return systems;
}

/** The built-in checks only need the ids: a context that is never used. */
function placeholderContext(options: CreateEvalSystemsOptions): EvalSystemContext {
  return { config: options.config } as EvalSystemContext;
}

const nativeImport = (url: string): Promise<Record<string, unknown>> => import(url) as Promise<Record<string, unknown>>;

async function loadModuleSystem(spec: string, context: EvalSystemFactoryContext, baseDir: string, importModule: (url: string) => Promise<Record<string, unknown>>): Promise<QaSystem> {
  const { file, exportName } = parseModuleSystem(spec);
  const path = resolve(baseDir, file);
  let source: Buffer;
  try {
    source = await readFile(path);
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', `system module ${file} does not exist or cannot be read`, { file: path, cause, hint: 'Give the path of a .mjs / .js file relative to the experiment file (or the current directory for doctree eval).' });
  }
  const sha256 = createHash('sha256').update(source).digest('hex');
  let exports: Record<string, unknown>;
  try {
    // The content hash in the URL: an edited module is loaded afresh, not from the import cache.
    exports = await importModule(`${pathToFileURL(path).href}?sha256=${sha256}`);
  } catch (cause) {
    throw new DocTreeError('CONFIG_INVALID', `system module ${file} failed to load: ${(cause as Error)?.message ?? String(cause)}`, { file: path, cause, hint: 'Run `node <module>` to see the error; the module must be ESM (.mjs, or .js in a "type": "module" package) or CommonJS (.cjs).' });
  }
  const names = exportName !== undefined ? [exportName] : ['default', 'createSystem'];
  const name = names.find((n) => typeof exports[n] === 'function');
  if (name === undefined) {
    const have = Object.keys(exports).filter((k) => typeof exports[k] === 'function');
    throw new DocTreeError('CONFIG_INVALID', `system module ${file} exports no function ${names.map((n) => `"${n}"`).join(' or ')}`, {
      file: path,
      hint: `Export a factory (context) => QaSystem${exportName === undefined ? ' as default or createSystem' : ` named ${exportName}`}${have.length > 0 ? `; the module exports ${have.join(', ')} (name it after #, e.g. module:${file}#${have[0]})` : ''}.`,
    });
  }
  let system: unknown;
  try {
    system = await (exports[name] as EvalSystemFactory)(context);
  } catch (cause) {
    const e = DocTreeError.from(cause, 'CONFIG_INVALID');
    throw new DocTreeError(e.code, `the system factory ${name} of ${file} failed: ${e.message}`, { file: path, cause, ...(e.hint ? { hint: e.hint } : {}) });
  }
  const candidate = system as Partial<QaSystem> | null | undefined;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.answer !== 'function') {
    throw new DocTreeError('CONFIG_INVALID', `the system factory ${name} of ${file} returned ${candidate === null ? 'null' : typeof candidate} instead of a QaSystem`, {
      file: path,
      hint: 'Return an object with an id and answer(question, { path }) — e.g. context.doctreeSystem({ id, agent }) or a BaseQaSystem subclass of @doctree/eval.',
    });
  }
  try {
    assertSystemId(candidate.id);
  } catch (cause) {
    const e = DocTreeError.from(cause, 'USAGE');
    throw new DocTreeError('CONFIG_INVALID', `the system of ${file}: ${e.message}`, { file: path, cause, ...(e.hint ? { hint: e.hint } : {}) });
  }
  return withCode(candidate as QaSystem, { module: basename(path), module_sha256: sha256, ...doctreeVersions(path) });
}

/** The `@doctree/*` versions a module resolves (what its imports run), for the fingerprint. */
function doctreeVersions(modulePath: string): Record<string, string> {
  const require = createRequire(modulePath);
  const out: Record<string, string> = {};
  for (const name of ['@doctree/pipeline', '@doctree/agents', '@doctree/toolhub', '@doctree/index', '@doctree/eval', '@doctree/schema']) {
    try {
      const manifest = require(`${name}/package.json`) as { version?: unknown };
      if (typeof manifest.version === 'string') out[name] = manifest.version;
    } catch {
      // Not resolvable from the module's folder: the module does not import it.
    }
  }
  return out;
}

/** The system with `code` added to its description (its own `code` entries win). */
function withCode(system: QaSystem, code: Record<string, string>): QaSystem {
  const describe = (): QaSystemDescription => {
    const own = system.describe?.() ?? {};
    return { ...own, code: { ...code, ...(own.code ?? {}) } };
  };
  return new Proxy(system, {
    get(target, key, receiver) {
      if (key === 'describe') return describe;
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
