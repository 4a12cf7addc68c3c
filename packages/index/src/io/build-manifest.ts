import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import type { IndexArtifact } from '@doctree/schema';

/**
 * Reads a JSON file and validates it with `schema`; undefined when the file is missing, not JSON or invalid. For
 * build manifests, where any of those simply means "rebuild".
 */
export async function readValidJsonIfPresent<T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** True when every artifact a manifest lists exists in `dir` with the recorded size (a cheap check for a damaged build). */
export async function artifactsMatch(dir: string, artifacts: readonly IndexArtifact[]): Promise<boolean> {
  for (const artifact of artifacts) {
    try {
      if ((await stat(join(dir, artifact.name))).size !== artifact.bytes) return false;
    } catch {
      return false;
    }
  }
  return true;
}
