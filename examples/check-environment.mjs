// Run after `npm run setup`: node examples/check-environment.mjs
import { resolveConfig, DocTreeError } from '@doctree/schema';
import { detectVectorBackend } from '@doctree/index';

try {
  const { config } = resolveConfig({ env: process.env });
  const backend = await detectVectorBackend({ backend: config.index.backend });
  console.log(`llm: ${config.llm.provider}, embedder: ${config.embedder.kind}, vectors: ${backend.active} (${backend.reason})`);
} catch (error) {
  if (DocTreeError.isInstance(error)) console.error(error.toOneLine());
  else throw error;
  process.exitCode = 1;
}
