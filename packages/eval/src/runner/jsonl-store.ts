import { open, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

import { DocTreeError, formatIssues } from '@doctree/schema';
import type { z } from 'zod';

import { writeFileAtomic } from '@doctree/schema/node';

/** Records of a JSON-lines file read by {@link readJsonLinesFile}. */
export interface JsonLinesContent<T> {
  records: T[];
  /** The last line was cut short (an interrupted write) and has been dropped. */
  repaired: boolean;
}

/**
 * Reads an append-only JSON-lines file written by {@link JsonLinesAppender}. A cut-short last line (a write interrupted
 * by a crash) is dropped and the file rewritten atomically without it; a bad line anywhere else throws
 * `SCHEMA_INVALID` naming the file and line. A missing file reads as empty.
 */
export async function readJsonLinesFile<S extends z.ZodType>(path: string, schema: S, what: string): Promise<JsonLinesContent<z.output<S>>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], repaired: false };
    throw new DocTreeError('INPUT_UNREADABLE', `cannot read ${path}: ${(error as Error).message}`, { file: path, cause: error });
  }
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n') || text === '';
  const records: z.output<S>[] = [];
  const kept: string[] = [];
  let repaired = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const last = i === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      if (last && !endsClean) {
        repaired = true;
        break;
      }
      throw new DocTreeError('SCHEMA_INVALID', `${path}: line ${i + 1} is not valid JSON`, { file: path, details: { line: i + 1 }, cause, hint: `Remove line ${i + 1} (it will be answered again) or delete the file to start over.` });
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new DocTreeError('SCHEMA_INVALID', `${path}: line ${i + 1} is not a valid ${what}: ${formatIssues(parsed.error)}`, { file: path, details: { line: i + 1 }, hint: `Remove line ${i + 1} (it will be answered again) or delete the file to start over.` });
    }
    records.push(parsed.data);
    kept.push(line);
    if (last && !endsClean) repaired = true;
  }
  if (repaired) await writeFileAtomic(path, kept.map((l) => `${l}\n`).join(''));
  return { records, repaired };
}

/**
 * Appends records to a JSON-lines file, one complete line per write, serialised so that concurrent callers never
 * interleave. Call {@link close} when done.
 */
export class JsonLinesAppender {
  #handle: Promise<FileHandle>;
  #queue: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {
    this.#handle = open(path, 'a');
    this.#handle.catch(() => undefined);
  }

  /** Appends one record as a line; resolves when it is written. */
  append(record: unknown): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    const write = this.#queue.then(async () => {
      const handle = await this.#handle;
      await handle.appendFile(line, 'utf8');
    });
    this.#queue = write.catch(() => undefined);
    return write.catch((error: unknown) => {
      throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: this.path });
    });
  }

  /** Waits for pending writes and closes the file. */
  async close(): Promise<void> {
    await this.#queue;
    const handle = await this.#handle.catch(() => undefined);
    await handle?.close();
  }
}
