import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DocTreeError } from '@doctree/schema';
import { writeJsonAtomic } from './io.js';
import { compactTimestamp, WORKSPACE_TOOL_VERSION } from './project.js';

/** Steps that write a build manifest. */
export const BuildStepSchema = z.enum(['parse', 'chunk', 'embed', 'bm25']);
/** A build step. */
export type BuildStep = z.infer<typeof BuildStepSchema>;

/** `meta/builds/<build_id>/build_manifest.json`. */
export const BuildManifestSchema = z.object({
  format: z.literal('doctree.workspace-build'),
  version: z.literal(1),
  build_id: z.string(),
  step: BuildStepSchema,
  created_at: z.string(),
  tool_version: z.string(),
  config_hash: z.string(),
  /** Inputs by hash: raw files for parse and chunk, chunk hashes (as one hash per document) for embed and bm25. */
  inputs: z.array(z.object({ doc_uid: z.string(), sha256: z.string() })),
  /** Models used: embedder id and dimension, reranker, chat model (null offline). */
  models: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  counts: z.record(z.string(), z.number()),
  /** Builds this one started from. */
  previous_build_id: z.string().nullable(),
});
/** A build manifest. */
export type BuildManifest = z.infer<typeof BuildManifestSchema>;

/** `build_id = <UTC timestamp>-<config hash, 8 digits>-<tool version>` (plus a short suffix when two builds share a second). */
export function makeBuildId(now: Date, configHash: string): string {
  return `${compactTimestamp(now)}-${configHash.slice(0, 8)}-${WORKSPACE_TOOL_VERSION}`;
}

/** Claims a new build id: creates `meta/builds/<build_id>/` exclusively (a suffix is added when the name is taken). */
export async function claimBuildId(buildsDir: string, now: Date, configHash: string): Promise<string> {
  await mkdir(buildsDir, { recursive: true });
  const base = makeBuildId(now, configHash);
  for (let attempt = 0; attempt < 20; attempt++) {
    const buildId = attempt === 0 ? base : `${base}-${randomBytes(2).toString('hex')}`;
    const dir = join(buildsDir, buildId);
    try {
      await mkdir(dir);
      return buildId;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: dir });
    }
  }
  throw new DocTreeError('IO_WRITE_FAILED', 'cannot claim a build id', { file: buildsDir });
}

/** Writes `meta/builds/<build_id>/build_manifest.json` (atomically) for a claimed build id. */
export async function writeBuildManifest(
  buildsDir: string,
  buildId: string,
  now: Date,
  fields: Omit<BuildManifest, 'format' | 'version' | 'build_id' | 'created_at' | 'tool_version'>,
): Promise<BuildManifest> {
  const manifest: BuildManifest = { format: 'doctree.workspace-build', version: 1, build_id: buildId, created_at: now.toISOString(), tool_version: WORKSPACE_TOOL_VERSION, ...fields };
  await writeJsonAtomic(join(buildsDir, buildId, 'build_manifest.json'), manifest);
  return manifest;
}
