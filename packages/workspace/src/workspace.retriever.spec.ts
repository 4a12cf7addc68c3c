import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { HashingEmbedder } from '@doctree/index';
import { runEvidenceRetrieverConformance, writeEvidenceConformancePdfs } from './testing/index.js';
import { tempDir } from './__fixtures__/workspace-fixtures.js';
import { workspaceRetriever } from './context.js';
import { EvidenceWorkspace } from './workspace.js';

let root: string | undefined;
afterAll(() => (root ? rm(root, { recursive: true, force: true }) : undefined));

// The built-in retriever (chunks/ and index/ of a workspace) under the shared EvidenceRetriever contract.
runEvidenceRetrieverConformance('LocalChunkRetriever (workspace chunks and index)', async (corpus) => {
  root = await tempDir();
  await EvidenceWorkspace.init(root);
  writeEvidenceConformancePdfs(join(root, 'raw/evidence'), corpus);
  const ws = await EvidenceWorkspace.open(root, { embedder: new HashingEmbedder({ dimension: 256 }), pdfWorkers: 0 });
  await ws.parse();
  await ws.chunk();
  await ws.embed();
  await ws.buildBm25();
  return workspaceRetriever(ws.context);
});
