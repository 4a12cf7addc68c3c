// Test support: a deterministic "build" of a plain-text source into a stored document (one node per paragraph, hashed
// embeddings), with knobs the job specs use: a delay per document, a transient failure, a permanent one.
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { DocTreeError } from '@doctree/schema';
import type { StoredDocument } from '@doctree/store-postgres';
import type { DocumentJob } from '../document-job.js';
import type { DocumentJobHandlers } from '../job-handlers.js';

/** Knobs of {@link fixtureHandlers}. */
export interface FixtureBuildOptions {
  /** Wait this long in every build (so a worker can be killed mid-job). */
  delayMs?: number;
  /** Called when a build starts. */
  onStart?: (job: DocumentJob) => void;
  /** Failures so far by doc id (for "fails N times then works"). */
  failures?: Map<string, number>;
}

/** A deterministic 16-dimension vector of a text (the jobs specs test plumbing, not retrieval quality). */
function vectorOf(text: string): Float32Array {
  const digest = createHash('sha256').update(text).digest();
  return Float32Array.from({ length: 16 }, (_, i) => digest[i]! / 255 + 0.01);
}

/** Builds `{ nodes, embeddings }` from the text file of a job: `FAIL-TWICE` fails the first two attempts, `BAD-INPUT` always (permanently). */
export function fixtureHandlers(options: FixtureBuildOptions = {}): DocumentJobHandlers<StoredDocument> {
  return {
    async build(job, signal) {
      options.onStart?.(job);
      const text = await readFile(job.path, 'utf8');
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (signal.aborted) throw new DocTreeError('CANCELLED', 'cancelled');
      if (text.includes('BAD-INPUT')) throw new DocTreeError('INPUT_UNSUPPORTED', `${job.doc_id}: not a document`, { file: job.path });
      if (text.includes('FAIL-TWICE')) {
        const seen = options.failures?.get(job.doc_id) ?? 0;
        options.failures?.set(job.doc_id, seen + 1);
        if (seen < 2) throw new Error(`transient failure ${seen + 1} of ${job.doc_id}`);
      }
      const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
      const vectors = paragraphs.map(vectorOf);
      return {
        collection: job.collection,
        doc_id: job.doc_id,
        content_sha256: job.sha256,
        row: { path: job.path },
        nodes: paragraphs.map((p, i) => ({ node_id: `p${i}`, role: 'paragraph', modality: 'text' as const, page_idx: i, text: p })),
        embeddings: vectors.map((vector, i) => ({ node_id: `p${i}`, view: 'node', vector })),
        embedder_id: 'fixture-sha256-16',
      };
    },
  };
}
