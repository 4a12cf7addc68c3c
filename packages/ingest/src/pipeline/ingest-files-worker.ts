import { parentPort } from 'node:worker_threads';
import { DocTreeError } from '@doctree/schema';
import { ingestFile } from './ingest-file.js';
import { ingestedFile } from './ingest-files.js';
import type { IngestFilesJob, IngestFilesWorkerMessage } from './ingest-files.js';

/**
 * Worker-thread entry of `ingestFiles`: ingests the files it is sent, one at a time (its pdf.js and JIT stay warm from
 * one file to the next), and posts progress and one `done` or `error` per file. Each file is read by this thread alone.
 */

if (parentPort) {
  const port = parentPort;
  const post = (message: IngestFilesWorkerMessage): void => port.postMessage(message);
  port.on('message', (job: IngestFilesJob) => {
    if (job?.type !== 'job') return;
    const { index, input, options } = job;
    ingestFile(input, { ...options, pdfWorkers: 0, onProgress: (event) => post({ type: 'progress', index, event }) }).then(
      (result) => post({ type: 'done', index, result: ingestedFile(result) }),
      (error: unknown) => post({ type: 'error', index, error: DocTreeError.from(error, 'INTERNAL', { file: input }).toJSON() }),
    );
  });
}
