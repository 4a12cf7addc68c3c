import { resolve } from 'node:path';
import { DocumentQueue, redactUrl } from '@doctree/jobs';
import type { DocumentJob, QueueCounts } from '@doctree/jobs';
import { METADATA_EXTRACTOR_VERSION, metadataIsStale, planChanges, scanInputDir } from '@doctree/pipeline';
import { escapeControlChars } from '@doctree/pipeline/command';
import { DocTreeError } from '@doctree/schema';
import type { PostgresCollectionStore } from '@doctree/store-postgres';

/** What `doctree collection ingest|sync --queue …` enqueued (printed as JSON with `--json`). */
export interface CollectionEnqueueReport {
  format: 'doctree.collection-enqueue';
  version: 1;
  mode: 'ingest' | 'sync';
  /** The collection (store URL redacted, `#schema/collection`). */
  collection: string;
  input_dir: string;
  /** The queue URL, password redacted. */
  queue: string;
  /** Documents whose build was enqueued, by change. */
  added: string[];
  updated: string[];
  /**
   * Unchanged documents whose metadata an older extractor read: a `refresh` job was enqueued for each (the worker
   * extracts their metadata again from the stored text, nothing rebuilt). Absent from reports of earlier versions.
   */
  refreshed: string[];
  /** Documents whose removal was enqueued (sync only). */
  removed: string[];
  /** Unchanged documents with current metadata: no job. */
  unchanged: string[];
  /** Jobs the queue already held (same document, same content; for a refresh, same extractor too): not added again. */
  already_queued: number;
  /** Job ids, in the order the jobs were made: builds and refreshes in the order of the scan, then removals. */
  job_ids: string[];
  /** The queue's jobs by state after enqueuing. */
  counts: QueueCounts;
}

/** Options of {@link enqueueCollectionJobs}. */
export interface EnqueueCollectionJobsOptions {
  mode: 'ingest' | 'sync';
  /** `redis://…` or `postgres://…` (BullMQ's PostgreSQL backend). */
  queueUrl: string;
  /** The Postgres collection the workers commit to. */
  store: PostgresCollectionStore;
  /** Collection name (jobs carry it; `doctree worker --collection` must name the same). */
  name: string;
  /** Input folder; default the collection's. */
  inputDir?: string;
  /** Enqueue every document, changed or not. */
  force?: boolean;
  /** Enter sub-folders of the input folder. Default true. */
  recursive?: boolean;
}

/**
 * The producer side of distributed ingest: scans the input folder against the collection in the Postgres store (as
 * `collection sync` does), and enqueues one job per document to build (new, modified, failed; all with `force`), one
 * `refresh` job per unchanged document whose metadata an older extractor read (`metadataIsStale`; its id carries
 * {@link METADATA_EXTRACTOR_VERSION}, so it is not the completed build job's, and a later extractor refreshes again)
 * and — for a sync — one per document to remove, with idempotent job ids (a second run while the jobs wait adds
 * nothing). Workers (`doctree worker --queue … --store … --collection NAME`) take them.
 */
export async function enqueueCollectionJobs(options: EnqueueCollectionJobsOptions): Promise<CollectionEnqueueReport> {
  // The queue first: an unreachable queue (or a missing Redis driver) changes nothing in the store.
  const queue = await DocumentQueue.open({ url: options.queueUrl });
  try {
    return await enqueueOn(queue, options);
  } finally {
    await queue.close();
  }
}

async function enqueueOn(queue: DocumentQueue, options: EnqueueCollectionJobsOptions): Promise<CollectionEnqueueReport> {
  const existing = await options.store.readManifest();
  const inputDir = options.inputDir !== undefined ? resolve(options.inputDir) : existing?.input_dir;
  if (inputDir === undefined) throw new DocTreeError('USAGE', 'no input folder: the collection does not exist yet', { hint: 'Pass --input-dir.' });
  const manifest = await options.store.initialize({ input_dir: inputDir });
  const planned = planChanges(manifest, await scanInputDir(inputDir, options.recursive === false ? { recursive: false } : {}));
  const rows = new Map(manifest.documents.map((d) => [d.doc_id, d]));
  const report: CollectionEnqueueReport = {
    format: 'doctree.collection-enqueue',
    version: 1,
    mode: options.mode,
    collection: options.store.location,
    input_dir: inputDir,
    queue: redactUrl(options.queueUrl),
    added: [],
    updated: [],
    refreshed: [],
    removed: [],
    unchanged: [],
    already_queued: 0,
    job_ids: [],
    counts: { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0, dead: 0 },
  };
  const jobs: DocumentJob[] = [];
  for (const p of planned) {
    if (p.file !== undefined && (options.force || p.change !== 'unchanged')) {
      jobs.push({ op: 'upsert', collection: options.name, doc_id: p.doc_id, path: p.file.absolute, sha256: p.file.sha256 });
      (p.change === 'modified' || p.change === 'unchanged' ? report.updated : report.added).push(p.doc_id);
    } else if (p.change === 'unchanged') {
      const row = rows.get(p.doc_id);
      if (p.file !== undefined && row !== undefined && metadataIsStale(row)) {
        // The job carries the content hash: a file changed before a worker takes it is built instead.
        jobs.push({ op: 'refresh', collection: options.name, doc_id: p.doc_id, path: p.file.absolute, sha256: p.file.sha256, extractor: METADATA_EXTRACTOR_VERSION });
        report.refreshed.push(p.doc_id);
      } else report.unchanged.push(p.doc_id);
    }
  }
  if (options.mode === 'sync') {
    for (const p of planned.filter((x) => x.change === 'deleted')) {
      const row = rows.get(p.doc_id);
      if (row === undefined) continue;
      jobs.push({ op: 'remove', collection: options.name, doc_id: p.doc_id, path: '', sha256: row.sha256 });
      report.removed.push(p.doc_id);
    }
  }
  const result = await queue.enqueue(jobs);
  report.job_ids = result.jobIds;
  report.already_queued = result.duplicates;
  report.counts = await queue.counts();
  return report;
}

/** Human-readable summary of {@link enqueueCollectionJobs}. */
export function formatEnqueue(report: CollectionEnqueueReport, name: string): string {
  const c = report.counts;
  return `${escapeControlChars(
    [
      `Enqueued ${report.input_dir} -> ${report.collection} on ${report.queue}`,
      `  build: added ${report.added.length}, updated ${report.updated.length}; refresh metadata: ${report.refreshed.length}; remove: ${report.removed.length}; unchanged ${report.unchanged.length}; already queued ${report.already_queued}`,
      `  queue: ${c.waiting} waiting, ${c.active} active, ${c.delayed} delayed, ${c.completed} completed, ${c.failed} failed, ${c.dead} dead letter(s)`,
      `  workers take them: doctree worker --queue <url> --store <url> --collection ${name}`,
    ].join('\n'),
    { keepLayout: true },
  )}\n`;
}
