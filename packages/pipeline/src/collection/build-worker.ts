import { parentPort } from 'node:worker_threads';
import { DocTreeError, type DocTreeConfig } from '@doctree/schema';
import { createIndexComponents, type IndexComponents } from '../index-components.js';
import { buildCollectionDocument } from './build-document.js';
import type { BuildWorkerJob, BuildWorkerMessage } from './build-pool.js';

/**
 * Worker-thread entry of `runCollectionBuilds`: builds the documents it is sent one at a time with components made
 * once from the configuration (the embedder's word vectors load once per worker), and posts progress and one `done`
 * or `error` per document. `@doctree/agents` (the chat client) is loaded only when an LLM is configured: offline,
 * each worker saves its start-up (about 0.3 s CPU on 2 cores).
 */

/** Components of this worker: made once, from the first job's configuration. */
async function workerComponents(config: DocTreeConfig, cacheDir: string): Promise<IndexComponents> {
  const chat = config.llm.provider === 'none' ? undefined : (await import('@doctree/agents')).createChatClient(config);
  return createIndexComponents(config, { cacheDir, ...(chat ? { chat } : {}) });
}

if (parentPort) {
  const port = parentPort;
  const post = (message: BuildWorkerMessage): void => port.postMessage(message);
  let components: Promise<IndexComponents> | undefined;
  port.on('message', (message: BuildWorkerJob) => {
    if (message?.type !== 'job') return;
    const { job, cacheDir } = message;
    components ??= workerComponents(job.config, cacheDir);
    components
      .then((made) => buildCollectionDocument(job, made, (event) => post({ type: 'progress', index: job.index, event })))
      .then(
        (result) => post({ type: 'done', index: job.index, result }),
        (error: unknown) => post({ type: 'error', index: job.index, error: DocTreeError.from(error, 'INTERNAL', { file: job.input }).toJSON() }),
      );
  });
}
