import { join, resolve } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { assertOutputTarget, reportCommandFailure } from '@doctree/pipeline/command';
import { parseCommandArgs } from './cli-args.js';
import { loadCliConfig, processIo, type CliIo } from './cli-context.js';
import { ASK_USAGE, COLLECTION_ASK_USAGE, COLLECTION_USAGE, COMMAND_USAGE, DOCTOR_USAGE, EVAL_USAGE, INDEX_USAGE, INGEST_USAGE, TRACE_USAGE, WORKER_USAGE, WORKSPACE_USAGE } from './usage.js';

// Each command's module (and the packages it needs) is loaded when that command runs: `doctree ingest` does not load
// the agents, the index or the eval harness.

const HELP = `doctree - explainable question answering over long PDFs

Usage:
${INGEST_USAGE}${INDEX_USAGE}${ASK_USAGE}${COLLECTION_ASK_USAGE}${COLLECTION_USAGE}${TRACE_USAGE}${EVAL_USAGE}${WORKSPACE_USAGE}${WORKER_USAGE}${DOCTOR_USAGE}
Global options:
  --config FILE   configuration file (default: ./doctree.config.json when present)
  --json          machine-readable output
  -h, --help      show this help
  -v, --version   print the version
`;

/** `--jobs N|auto` of `doctree ingest`. */
function parseJobs(value: string): number | 'auto' {
  if (value === 'auto') return 'auto';
  const jobs = Number(value);
  if (!Number.isInteger(jobs) || jobs < 1) throw new DocTreeError('USAGE', `--jobs takes a whole number of at least 1 or "auto", not "${value}"`);
  return jobs;
}

/** Version of the CLI (kept in step with package.json by the release process). */
export const CLI_VERSION = '0.1.0';

/**
 * Runs the `doctree` command with the given arguments and returns the exit status.
 * Errors become one-line messages on stderr (or a JSON error with `--json`), never stack traces.
 */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const json = argv.includes('--json');
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      io.stdout(HELP);
      return command === undefined ? 2 : 0;
    }
    if (command === '-v' || command === '--version') {
      io.stdout(`${CLI_VERSION}\n`);
      return 0;
    }
    // `doctree <command> --help` / `-h`: that command's usage, exit 0.
    const usage = COMMAND_USAGE.get(command);
    if (usage !== undefined && rest.some((a) => a === '-h' || a === '--help')) {
      io.stdout(`Usage:\n${usage}\nGlobal options: --config FILE, --json, -h/--help, -v/--version (see doctree --help)\n`);
      return 0;
    }
    switch (command) {
      case 'doctor': {
        const { values } = parseCommandArgs(rest, { json: { type: 'boolean' }, config: { type: 'string' }, store: { type: 'string' }, queue: { type: 'string' } });
        const config = loadCliConfig(io, values.config as string | undefined);
        const { buildDoctorReport, formatDoctorReport } = await import('./commands/doctor.js');
        const path = io.env['PATH'];
        const storeUrl = (values.store as string | undefined) ?? io.env['DOCTREE_STORE'];
        const queueUrl = (values.queue as string | undefined) ?? io.env['DOCTREE_QUEUE'];
        const report = await buildDoctorReport(config, { ...(path !== undefined ? { path } : {}), ...(storeUrl ? { storeUrl } : {}), ...(queueUrl ? { queueUrl } : {}) });
        io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report));
        return report.ok ? 0 : 1;
      }
      case 'ingest': {
        const { values, positionals } = parseCommandArgs(rest, {
          json: { type: 'boolean' },
          config: { type: 'string' },
          out: { type: 'string' },
          'doc-id': { type: 'string' },
          password: { type: 'string' },
          middle: { type: 'string' },
          report: { type: 'boolean' },
          jobs: { type: 'string' },
        });
        if (positionals.length === 0) throw new DocTreeError('USAGE', 'ingest needs an input file (a PDF, a MinerU content_list.json or a Markdown file)');
        const config = loadCliConfig(io, values.config as string | undefined);
        const { assertIngestOutputs, expandIngestInputs, ingestCommand, ingestFilesCommand } = await import('./commands/ingest.js');
        const given = positionals.map((input) => resolve(io.cwd, input));
        const shared = {
          outDir: resolve(io.cwd, (values.out as string | undefined) ?? join(config.config.data_dir, 'default')),
          report: Boolean(values.report),
          json: Boolean(values.json),
          ...(values.password ? { password: values.password as string } : {}),
          limits: config.config.ingest.limits,
          ocr: config.config.ingest.ocr,
        };
        // A folder stands for the PDFs, Markdown and content_list.json files directly inside it.
        const inputs = expandIngestInputs(given);
        assertIngestOutputs(shared.outDir, inputs, {
          given,
          ...(values.middle ? { middle: resolve(io.cwd, values.middle as string) } : {}),
          ...(values['doc-id'] ? { docId: values['doc-id'] as string } : {}),
        });
        if (inputs.length > 1 || inputs[0] !== given[0]) {
          if (values['doc-id'] || values.middle) {
            throw new DocTreeError('USAGE', '--doc-id and --middle name one document; give one input file with them', {
              hint: 'Without --doc-id each file gets its own id from its name.',
            });
          }
          return await ingestFilesCommand(io, { ...shared, inputs, ...(values.jobs !== undefined ? { jobs: parseJobs(values.jobs as string) } : {}) });
        }
        await ingestCommand(io, {
          ...shared,
          input: given[0]!,
          ...(values['doc-id'] ? { docId: values['doc-id'] as string } : {}),
          ...(values.middle ? { middle: resolve(io.cwd, values.middle as string) } : {}),
        });
        return 0;
      }
      case 'index': {
        const { values, positionals } = parseCommandArgs(rest, {
          json: { type: 'boolean' },
          config: { type: 'string' },
          out: { type: 'string' },
          embedder: { type: 'string' },
          backend: { type: 'string' },
          force: { type: 'boolean' },
          password: { type: 'string' },
        });
        if (positionals.length !== 1) throw new DocTreeError('USAGE', 'index takes exactly one document folder or input file');
        const embedder = values.embedder as string | undefined;
        const backend = values.backend as string | undefined;
        if (embedder !== undefined && !['hashing', 'sif', 'openai'].includes(embedder)) throw new DocTreeError('USAGE', `--embedder must be hashing, sif or openai, not "${embedder}"`);
        if (backend !== undefined && !['auto', 'faiss', 'exact'].includes(backend)) throw new DocTreeError('USAGE', `--backend must be auto, faiss or exact, not "${backend}"`);
        const config = loadCliConfig(io, values.config as string | undefined, {
          ...(embedder ? { embedder: { kind: embedder as 'hashing' | 'sif' | 'openai' } } : {}),
          ...(backend ? { index: { backend: backend as 'auto' | 'faiss' | 'exact' } } : {}),
        });
        const { indexCommand } = await import('./commands/index-command.js');
        const input = resolve(io.cwd, positionals[0]!);
        const outDir = resolve(io.cwd, (values.out as string | undefined) ?? join(config.config.data_dir, 'default'));
        // A document folder is indexed in place; a file goes to <out>/<doc_id>/, and --out must not be a document's folder.
        if (values.out !== undefined) assertOutputTarget({ option: '--out', target: outDir, inputs: [input], example: '--out data/default' });
        await indexCommand(io, config, {
          input,
          outDir,
          ...(values.password ? { password: values.password as string } : {}),
          cacheDir: resolve(io.cwd, config.config.data_dir, '.cache'),
          force: Boolean(values.force),
          json: Boolean(values.json),
        });
        return 0;
      }
      case 'eval': {
        const { evalCli } = await import('./commands/eval.js');
        await evalCli(io, rest);
        return 0;
      }
      case 'ask': {
        if (rest.some((a) => a === '--collection-dir' || a.startsWith('--collection-dir=') || a === '--collection' || a.startsWith('--collection='))) {
          const { collectionAskCli } = await import('./commands/collection-ask.js');
          await collectionAskCli(io, rest);
          return 0;
        }
        const { askCli } = await import('./commands/ask.js');
        await askCli(io, rest);
        return 0;
      }
      case 'collection': {
        const { collectionCli } = await import('./commands/collection.js');
        return await collectionCli(io, rest);
      }
      case 'workspace': {
        const { workspaceCli } = await import('./commands/workspace.js');
        return await workspaceCli(io, rest);
      }
      case 'worker': {
        const { workerCli } = await import('./commands/worker.js');
        return await workerCli(io, rest);
      }
      case 'trace': {
        const { traceCli } = await import('./commands/trace.js');
        await traceCli(io, rest);
        return 0;
      }
      default:
        throw new DocTreeError('USAGE', `unknown command "${command}"`);
    }
  } catch (error) {
    return reportCommandFailure(error, io, { program: 'doctree', json });
  }
}

