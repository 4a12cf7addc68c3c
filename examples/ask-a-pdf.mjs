// Ask a question about a PDF from a TypeScript/JavaScript service, offline (run `npm run setup` first):
//   node examples/ask-a-pdf.mjs [file.pdf] ["question"]
// The first call ingests and indexes the PDF into ./data/default/<doc_id>/ (cached by content hash); later calls reuse it.
import { fileURLToPath } from 'node:url';
import { askQuestion } from '@doctree/pipeline';
import { DocTreeError, resolveConfig } from '@doctree/schema';

const sample = fileURLToPath(new URL('../data/samples/northwind-annual-report-2023.pdf', import.meta.url));
const [file = sample, question = 'What was the revenue of the Industrial Sensors segment in 2023?'] =
  process.argv.slice(2);

try {
  const { config } = resolveConfig({ env: process.env }); // offline unless OPENAI_API_KEY / OPENAI_BASE_URL are set
  const run = await askQuestion(file, question, { config });
  console.log(`answer: ${JSON.stringify(run.answer.answer)} (${run.answer.answer_format}, confidence ${run.answer.confidence.toFixed(2)})`);
  for (const support of run.answer.support) console.log(`  p.${support.page} ${support.node_id}: ${support.snippet}`);
  console.log(`ranked pages: ${run.rankedPages.slice(0, 5).join(', ')}; tool calls: ${run.answer.trace.events.filter((e) => e.type === 'tool_call').length}`);
} catch (error) {
  if (!DocTreeError.isInstance(error)) throw error;
  console.error(error.toOneLine());
  process.exitCode = error.exitStatus;
}
