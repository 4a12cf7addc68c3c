import { createHash } from 'node:crypto';
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

/** Options of {@link artifactsMatch}. */
export interface ArtifactsMatchOptions {
  /**
   * Also compare each file's sha256 with the manifest, so that damage keeping the size (a flipped byte, a same-length
   * edit) is noticed. Default true (about 5 ms for the 7.5 MB index of a 160-page filing); false checks sizes only.
   */
  sha256?: boolean;
}

/**
 * True when every artifact a manifest lists exists in `dir` with the recorded size and (by default) the recorded
 * sha256: the up-to-date check of a build, where false means "rebuild".
 */
export async function artifactsMatch(dir: string, artifacts: readonly IndexArtifact[], options: ArtifactsMatchOptions = {}): Promise<boolean> {
  const { sha256 } = { sha256: true, ...options };
  for (const artifact of artifacts) {
    try {
      const path = join(dir, artifact.name);
      if ((await stat(path)).size !== artifact.bytes) return false;
      if (sha256) {
        const data = await readFile(path);
        if (data.byteLength !== artifact.bytes || sha256Hex(data) !== artifact.sha256) return false;
      }
    } catch {
      return false;
    }
  }
  return true;
}

/** Hex sha256 of a file's bytes (or of a string's UTF-8 bytes). */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
