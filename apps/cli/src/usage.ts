/**
 * Usage text of the commands that load heavy packages, kept apart from them so `doctree --help` and the other
 * commands do not load those packages.
 */

/** Usage lines of `doctree ask` (part of the CLI help). */
export const ASK_USAGE = `  doctree ask <file.pdf|doc_dir> "<question>" [--json] [--trace out.json] [--llm none|openai]
                 [--max-replans N] [--dry-run] [--out DIR] [--password PW]
                 Answer a question about a document (ingested and indexed on first use, cached by content
                 hash): the answer, its confidence, supporting pages with snippets and the path taken.
                 --json prints the Answer (schema in docs/schemas); --trace writes the trace; --dry-run
                 answers offline and counts the prompt tokens the LLM path would send;
                 --password opens an encrypted PDF
`;

/** Usage lines of `doctree trace` (part of the CLI help). */
export const TRACE_USAGE = `  doctree trace <trace.json> [--json]
                 Replay a trace written by \`doctree ask --trace\`: the tool calls in order with their hits
`;

/** Usage of `doctree eval` (also part of `doctree --help`). */
export const EVAL_USAGE = `  doctree eval --questions FILE --systems doctree,rag[,...] --out DIR [--limit N] [--concurrency N]
                 [--llm none|openai] [--judge] [--embedder hashing|sif|openai] [--backend auto|faiss|exact]
                 [--docs DIR] [--json]
                 Evaluate systems on a dataset (questions.jsonl, MMLongBench-Doc samples.json, FinanceBench
                 JSONL): metrics.json, predictions.jsonl, traces/, report.md, report.html in DIR. Rerunning the
                 same command resumes an interrupted run. Systems: doctree, its ablations, rag, rag-hybrid,
                 bm25-pages. Documents are ingested into --docs (default data/eval)
`;
