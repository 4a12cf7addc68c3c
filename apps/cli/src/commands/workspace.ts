import { isAbsolute, relative, resolve } from 'node:path';
import { createChatClient } from '@doctree/agents';
import { ingestLimitsFromConfig, ingestOcrFromConfig } from '@doctree/ingest';
import { DocTreeError, type ChatModelClient, type DocTreeConfigInput } from '@doctree/schema';
import * as ws from '@doctree/workspace';
import { escapeControlChars } from '@doctree/pipeline/command';
import { parseCommandArgs, positiveIntegerOption } from '../cli-args.js';
import { loadCliConfig, type CliConfig, type CliIo } from '../cli-context.js';
import { WORKSPACE_USAGE } from '../usage.js';
import { openCollectionWorkspace } from './workspace-collection.js';

/** Subcommands of `doctree workspace`. */
export const WORKSPACE_SUBCOMMANDS = ['init', 'sources', 'meta', 'parse', 'chunk', 'embed', 'build-bm25', 'query', 'audit', 'verify-citations', 'export-used-sources'] as const;

const COMMON = {
  workspace: { type: 'string' },
  json: { type: 'boolean' },
  config: { type: 'string' },
  llm: { type: 'string' },
} as const;

/** The chat client the configuration asks for (none offline or with `--llm none`). */
async function chatFor(config: CliConfig): Promise<ChatModelClient | undefined> {
  if (config.config.llm.provider === 'none') return undefined;
  return createChatClient(config.config);
}

function rel(root: string, path: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/**
 * `doctree workspace <command>`: the evidence workspace for writers (`@doctree/workspace`). Every command takes
 * `--workspace DIR` (default: the working directory) and `--json`. Returns the exit status.
 */
export async function workspaceCli(io: CliIo, argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || !(WORKSPACE_SUBCOMMANDS as readonly string[]).includes(sub)) {
    throw new DocTreeError('USAGE', sub === undefined ? 'workspace needs a command' : `unknown workspace command "${sub}"`, { hint: `Usage:\n${WORKSPACE_USAGE}` });
  }
  const { values, positionals } = parseCommandArgs(
    rest,
    {
      ...COMMON,
      mode: { type: 'string' },
      filter: { type: 'string' },
      'top-k': { type: 'string' },
      force: { type: 'boolean' },
      'doc-uid': { type: 'string' },
      'accessed-at': { type: 'string' },
      'published-date': { type: 'string' },
      'citation-key': { type: 'string' },
      title: { type: 'string' },
      publisher: { type: 'string' },
      url: { type: 'string' },
      author: { type: 'string', multiple: true },
      citable: { type: 'string' },
      'project-id': { type: 'string' },
      collection: { type: 'string' },
    },
    WORKSPACE_USAGE,
  );
  const json = Boolean(values.json);
  const llm = values.llm as string | undefined;
  if (llm !== undefined && llm !== 'none' && llm !== 'openai') throw new DocTreeError('USAGE', `--llm must be none or openai, not "${llm}"`);
  const overrides: DocTreeConfigInput = llm ? { llm: { provider: llm } } : {};
  const config = loadCliConfig(io, values.config as string | undefined, overrides);
  const out = (value: unknown, text: string): void => io.stdout(json ? `${JSON.stringify(config.redact(value), null, 2)}\n` : text);
  const warn = (w: string): void => io.stderr(`doctree: warning: ${escapeControlChars(config.redact(w))}\n`);

  if (sub === 'init') {
    if (positionals.length > 1) throw new DocTreeError('USAGE', 'workspace init takes at most one folder');
    const dir = resolve(io.cwd, positionals[0] ?? (values.workspace as string | undefined) ?? '.');
    // The collection is stored relative to the workspace, so the two can move together.
    const collectionAt = values.collection !== undefined ? resolve(io.cwd, values.collection as string) : undefined;
    const collection = collectionAt !== undefined ? (isAbsolute(relative(dir, collectionAt)) ? collectionAt : relative(dir, collectionAt) || '.') : undefined;
    const result = await ws.EvidenceWorkspace.init(dir, { ...(values['project-id'] ? { projectId: values['project-id'] as string } : {}), ...(collection !== undefined ? { collection } : {}) });
    const where = collection !== undefined ? `  evidence comes from the collection ${collectionAt} (its documents are the citable sources)` : '  put evidence under raw/evidence/ and instruction material under raw/instruction/{guidance,feedback,slides,exemplars}/';
    out(result, `Workspace ${result.root} (project ${result.project.project_id})\n${result.config_written ? `  wrote ${ws.WORKSPACE_CONFIG_FILE} with the defaults (verify-citations k = 10, T = 0.55, rerank on, counterevidence off)` : `  kept the existing ${ws.WORKSPACE_CONFIG_FILE}`}\n${where}\n`);
    return 0;
  }

  const root = resolve(io.cwd, (values.workspace as string | undefined) ?? '.');
  const chat = sub === 'query' || sub === 'audit' || sub === 'verify-citations' ? await chatFor(config) : undefined;
  const options: ws.EvidenceWorkspaceOptions = {
    ...(chat ? { chat } : {}),
    llm: config.config.llm,
    // Parsing follows the configuration's ingest limits and OCR settings, as `doctree ingest` does.
    ingestLimits: ingestLimitsFromConfig(config.config.ingest.limits),
    ingestOcr: ingestOcrFromConfig(config.config.ingest.ocr),
    onWarning: warn,
  };
  let workspace = await ws.EvidenceWorkspace.open(root, options);
  // A collection (`--collection DIR`, or `collection` of the configuration) is the evidence store: its documents are
  // registered as sources before the command runs, and query, audit and verify-citations retrieve through it.
  const collectionDir = values.collection !== undefined ? resolve(io.cwd, values.collection as string) : workspace.context.config.collection !== undefined ? resolve(root, workspace.context.config.collection) : undefined;
  if (collectionDir !== undefined) {
    const retrieve = sub === 'query' || sub === 'audit' || sub === 'verify-citations';
    workspace = (await openCollectionWorkspace(root, collectionDir, { config: config.config, workspace: options, retrieve })).workspace;
  }
  switch (sub) {
    case 'sources': {
      const scan = await workspace.scan();
      const lines = scan.sources.map((s) => `  ${s.doc_uid.padEnd(32)} ${`${s.source_type}/${s.source_subtype}`.padEnd(24)} citable=${String(s.citable).padEnd(5)} ${s.citation_key}${s.present ? '' : ' (missing from raw/)'}`);
      out(scan, `${scan.sources.length} source(s) in ${rel(root, workspace.context.paths.sources)}\n${lines.join('\n')}${lines.length ? '\n' : ''}`);
      return 0;
    }
    case 'meta': {
      if (positionals[0] !== 'set' || positionals.length !== 1) throw new DocTreeError('USAGE', 'usage: doctree workspace meta set --doc-uid ID [--accessed-at YYYY-MM-DD] [--published-date …] [--citation-key …] …');
      const docUid = values['doc-uid'] as string | undefined;
      if (!docUid) throw new DocTreeError('USAGE', 'meta set needs --doc-uid');
      const citable = values.citable as string | undefined;
      if (citable !== undefined && citable !== 'true' && citable !== 'false') throw new DocTreeError('USAGE', `--citable must be true or false, not "${citable}"`);
      const update = {
        ...(values['accessed-at'] !== undefined ? { accessed_at: values['accessed-at'] as string } : {}),
        ...(values['published-date'] !== undefined ? { published_date: values['published-date'] as string } : {}),
        ...(values['citation-key'] !== undefined ? { citation_key: values['citation-key'] as string } : {}),
        ...(values.title !== undefined ? { title: values.title as string } : {}),
        ...(values.publisher !== undefined ? { publisher: values.publisher as string } : {}),
        ...(values.url !== undefined ? { url: values.url as string } : {}),
        ...(values.author !== undefined ? { authors: values.author as string[] } : {}),
        ...(citable !== undefined ? { citable: citable === 'true' } : {}),
      };
      if (Object.keys(update).length === 0) throw new DocTreeError('USAGE', 'meta set needs at least one field to set (e.g. --accessed-at 2024-03-01)');
      const record = await workspace.setMeta(docUid, update);
      out(record, `${record.doc_uid}: updated (revision ${record.revision}); logged in meta/version_log.jsonl\n`);
      return 0;
    }
    case 'parse': {
      const result = await workspace.parse({ force: Boolean(values.force) });
      out(result, `Parsed ${result.parsed.length}, unchanged ${result.reused.length}, failed ${result.failed.length} (build ${result.build_id})\n  report: ${rel(root, result.report)}\n${result.failed.map((f) => `  FAILED ${f.doc_uid}: ${escapeControlChars(f.error)}\n`).join('')}`);
      return result.failed.length > 0 ? 1 : 0;
    }
    case 'chunk': {
      const { build_id, manifest } = await workspace.chunk();
      const c = manifest.changes;
      out({ build_id, manifest }, `Chunked ${manifest.totals.docs} document(s): ${manifest.totals.parents} parents, ${manifest.totals.chunks} chunks (build ${build_id})\n  added ${c.added.length}, updated ${c.updated.length}, removed ${c.removed.length}, unchanged ${c.unchanged.length}\n`);
      return 0;
    }
    case 'embed': {
      const result = await workspace.embed();
      out(result, `Embedded ${result.embedded} chunk(s), reused ${result.reused} (${result.embedder}; build ${result.build_id})\n`);
      return 0;
    }
    case 'build-bm25': {
      const result = await workspace.buildBm25();
      out(result, `BM25 index of ${result.chunks} chunk(s), ${result.reused} reused (build ${result.build_id})\n`);
      return 0;
    }
    case 'query': {
      if (positionals.length !== 1) throw new DocTreeError('USAGE', 'workspace query takes one question (quote it)');
      const mode = (values.mode as string | undefined) ?? 'evidence';
      if (mode !== 'evidence' && mode !== 'papers') throw new DocTreeError('USAGE', `--mode must be evidence or papers, not "${mode}"`);
      const topK = positiveIntegerOption('top-k', values['top-k']);
      const result = await workspace.query(positionals[0]!, { mode, filters: ws.parseFilters(values.filter as string | undefined), ...(topK ? { topK } : {}) });
      const evidence = result.run.evidence;
      out(
        ws.queryJson(result),
        `${rel(root, result.output)} (query ${result.run.query_id}, build ${result.run.build_id}${result.reused ? `, hits of ${result.run.reused_from}` : ''})\n${evidence
          .slice(0, 5)
          .map((e) => `  ${e.citation_key} ${e.page !== null ? `p.${e.page}` : 'char anchor'} (${e.retrieval_score.toFixed(3)}): ${escapeControlChars(e.exact_quote.replace(/\s+/g, ' ').slice(0, 140))}\n`)
          .join('')}${evidence.length > 5 ? `  … ${evidence.length - 5} more in the pack\n` : ''}`,
      );
      return 0;
    }
    case 'audit': {
      if (positionals.length !== 1) throw new DocTreeError('USAGE', 'workspace audit takes one draft file');
      const result = await workspace.audit(resolve(io.cwd, positionals[0]!));
      const needed = result.claims.filter((c) => c.status === 'EVIDENCE_NEEDED').length;
      out(result, `${rel(root, result.output)}: ${result.claims.length} claim(s), ${needed} EVIDENCE_NEEDED\n`);
      return 0;
    }
    case 'verify-citations': {
      if (positionals.length !== 1) throw new DocTreeError('USAGE', 'workspace verify-citations takes one draft file');
      const result = await workspace.verifyCitations(resolve(io.cwd, positionals[0]!));
      const c = result.counts;
      out(result, `${rel(root, result.output)}: OK ${c.OK}, WEAK ${c.WEAK}, MISSING ${c.MISSING}, NOT_CITABLE ${c.NOT_CITABLE} (k = ${result.k}, T = ${result.threshold})\n`);
      if (result.failed) io.stderr(`doctree: error: the draft cites a source that is not citable (see ${rel(root, result.output)})\n`);
      return result.failed ? 1 : 0;
    }
    case 'export-used-sources': {
      if (positionals.length > 1) throw new DocTreeError('USAGE', 'workspace export-used-sources takes at most one evidence pack');
      const result = await workspace.exportUsedSources(positionals[0] ? resolve(io.cwd, positionals[0]) : undefined);
      out(result, `${rel(root, result.markdown)}, ${rel(root, result.bibtex)}, ${rel(root, result.csl_json)}: ${result.doc_uids.length} source(s)\n`);
      return 0;
    }
    default:
      throw new DocTreeError('USAGE', `unknown workspace command "${sub}"`);
  }
}
