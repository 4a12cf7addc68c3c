// Ingest every PDF, Markdown and MinerU content_list.json of a folder from a service (run `npm run setup` first):
//   node examples/ingest-a-folder.mjs [folder] [out-folder]
// Files are read side by side, one per core; each lands in <out-folder>/<doc_id>/ and a file that fails does not stop
// the others. Without arguments it ingests the bundled samples into ./data/samples/.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestFiles } from '@doctree/ingest';
import { DocTreeError } from '@doctree/schema';

const samples = fileURLToPath(new URL('../data/samples/', import.meta.url));
const [folder = samples, outDir = join('data', 'samples')] = process.argv.slice(2);
const inputs = readdirSync(folder)
  .filter((name) => /\.(pdf|md|markdown)$|content_list\.json$/i.test(name))
  .map((name) => join(folder, name));

try {
  for await (const outcome of ingestFiles(inputs, { outDir })) {
    if (outcome.error) {
      console.error(`failed: ${outcome.error.toOneLine()}`);
      process.exitCode = outcome.error.exitStatus;
      continue;
    }
    const { docId, summary } = outcome.result;
    console.log(`${docId}: ${summary.pages} pages, ${summary.tables} tables, ${summary.figures} figures -> ${outcome.result.docDir}`);
  }
} catch (error) {
  if (!DocTreeError.isInstance(error)) throw error;
  console.error(error.toOneLine()); // e.g. two files that would share a document folder
  process.exitCode = error.exitStatus;
}
