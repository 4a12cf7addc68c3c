import { join } from 'node:path';

/** Folders `workspace init` creates, relative to the workspace root. `raw/` files are never moved or renamed. */
export const WORKSPACE_DIRS = [
  'raw/evidence',
  'raw/instruction/guidance',
  'raw/instruction/feedback',
  'raw/instruction/slides',
  'raw/instruction/exemplars',
  'parsed',
  'chunks',
  'index',
  'meta',
  'meta/builds',
  'meta/query_runs',
  'outputs',
  'outputs/audits',
] as const;

/** Kinds of instruction material under `raw/instruction/` (never citable). */
export const INSTRUCTION_KINDS = ['guidance', 'feedback', 'slides', 'exemplars'] as const;
/** One kind of instruction material. */
export type InstructionKind = (typeof INSTRUCTION_KINDS)[number];

/** Name of the workspace configuration file at the root (JSON: the repository ships no YAML parser). */
export const WORKSPACE_CONFIG_FILE = 'workspace.config.json';

/** Absolute paths of every file and folder of a workspace. */
export interface WorkspacePaths {
  root: string;
  config: string;
  raw: string;
  evidence: string;
  instruction: string;
  parsed: string;
  chunks: string;
  parents: string;
  children: string;
  chunkManifest: string;
  index: string;
  vectors: string;
  vectorsMeta: string;
  bm25: string;
  meta: string;
  project: string;
  sources: string;
  builds: string;
  queryRuns: string;
  parseReport: string;
  instructionBrief: string;
  styleBrief: string;
  versionLog: string;
  outputs: string;
  audits: string;
}

/** The paths of the workspace rooted at `root` (absolute). */
export function workspacePaths(root: string): WorkspacePaths {
  const meta = join(root, 'meta');
  const chunks = join(root, 'chunks');
  const index = join(root, 'index');
  const outputs = join(root, 'outputs');
  return {
    root,
    config: join(root, WORKSPACE_CONFIG_FILE),
    raw: join(root, 'raw'),
    evidence: join(root, 'raw', 'evidence'),
    instruction: join(root, 'raw', 'instruction'),
    parsed: join(root, 'parsed'),
    chunks,
    parents: join(chunks, 'parents.jsonl'),
    children: join(chunks, 'chunks.jsonl'),
    chunkManifest: join(chunks, 'chunk_manifest.json'),
    index,
    vectors: join(index, 'vectors.dtvx'),
    vectorsMeta: join(index, 'vectors.json'),
    bm25: join(index, 'bm25.json'),
    meta,
    project: join(meta, 'project.json'),
    sources: join(meta, 'sources.json'),
    builds: join(meta, 'builds'),
    queryRuns: join(meta, 'query_runs'),
    parseReport: join(meta, 'parse_quality_report.md'),
    instructionBrief: join(meta, 'instruction_brief.md'),
    styleBrief: join(meta, 'style_brief.md'),
    versionLog: join(meta, 'version_log.jsonl'),
    outputs,
    audits: join(outputs, 'audits'),
  };
}
