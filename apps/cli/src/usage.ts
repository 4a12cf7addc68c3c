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
export const TRACE_USAGE = `  doctree trace <trace.json> [--json] [--html out.html [--doc <doc_dir|file.pdf>]]
                 Show the path of a trace written by \`doctree ask --trace\` (or an eval's traces/): route,
                 plan, every tool call with its arguments and hits (with their text), the evidence pack,
                 reader, judger, replans and the final answer. --json prints the tool calls; --html writes
                 one self-contained viewer page with the evidence pages rendered and the supporting boxes
                 highlighted (--doc: the document folder or PDF; default data/default/<doc_id>)
`;

/** Usage of `doctree eval` (also part of `doctree --help`). */
export const EVAL_USAGE = `  doctree eval --questions FILE --systems doctree,rag[,...] --out DIR [--limit N] [--concurrency N]
                 [--llm none|openai] [--judge] [--embedder hashing|sif|openai] [--backend auto|faiss|exact]
                 [--docs DIR] [--store postgres://…] [--json]
                 Evaluate systems on a dataset (questions.jsonl, MMLongBench-Doc samples.json, FinanceBench
                 JSONL): metrics.json, predictions.jsonl, traces/, report.md, report.html in DIR. Rerunning the
                 same command resumes an interrupted run (a system whose configuration or module changed is
                 answered again). Systems: doctree, its ablations, rag, rag-hybrid, bm25-pages, or a module
                 exporting a system factory (./my-system.mjs, module:./x.js#createSystem). Documents are
                 ingested into --docs (default data/eval). doctree-pg (the agent over documents written to and
                 read back from PostgreSQL) and doctree-pg-hybrid (plus hybrid search in SQL) need --store
                 (or DOCTREE_STORE)
  doctree eval --collection DIR --questions FILE [--questions FILE]... --out DIR [--filter FIELD=V|FIELD~TEXT]...
                 [--max-docs N] [--single-run DIR [--single-system ID] | --no-single] [--limit N] [--json]
                 Ask every question of the whole collection (doctree collection ingest) without naming its
                 document, and of its own document alone (or take those answers from --single-run):
                 collection.md / collection.json in DIR with document-selection accuracy@1 and @3, evidence
                 recall@5 on the question's own document and answer accuracy, the differences in pp; resumes
`;

/** Usage lines of `doctree ingest` (part of the CLI help). */
export const INGEST_USAGE = `  doctree ingest <file.pdf|content_list.json|file.md|folder>... [--out DIR] [--doc-id ID] [--password PW]
                 [--middle middle.json] [--report] [--json]
                 Build content lists and doctree.mm.json into DIR/<doc_id>/ (default DIR: data/default);
                 several files are ingested in one process, --jobs N|auto at a time (default auto: one per
                 core; --doc-id and --middle need a single file)
`;

/** Usage lines of `doctree index` (part of the CLI help). */
export const INDEX_USAGE = `  doctree index <doc_dir|file> [--embedder hashing|sif|openai] [--backend auto|faiss|exact] [--force]
                 [--out DIR] [--password PW] [--json]
                 Build <doc_dir>/index/ (summaries, dense + BM25F sparse indexes, graph); a file is ingested
                 first (cached by content hash). A no-op when the document and the configuration are unchanged
`;

/** Usage lines of `doctree collection` (part of the CLI help). */
export const COLLECTION_USAGE = `  doctree collection ingest|sync|status --collection-dir DIR [--input-dir DIR] [--force] [--jobs N|auto]
                 [--wait SECONDS] [--embedder hashing|sif|openai] [--backend auto|faiss|exact] [--no-recursive] [--json]
                 A folder of PDF / Markdown / MinerU / PageIndex (*_structure.json) files as one collection,
                 sub-folders included (hidden ones and symlink loops skipped; --no-recursive: the folder only):
                 ingest builds what is new or changed (one worker per core), sync also removes deleted
                 files, status lists [NEW]/[MODIFIED]/[DELETED]/[FAILED] without changing anything. A second
                 run waits --wait seconds for the lock (default: fails at once, naming the holder)
                 --store postgres://… (or DOCTREE_STORE) keeps the collection --collection NAME (default: the
                 folder name of --collection-dir, else "default") in PostgreSQL + pgvector instead of the folder
                 (every collection subcommand); ingest|sync --queue redis://…|postgres://… enqueues one job per
                 document for \`doctree worker\` instead of building here (docs/scale-out.md)
  doctree collection meta set <doc_id> company=ACME year=2023 form=10-K title=... --collection-dir DIR
  doctree collection meta show [doc_id] --collection-dir DIR [--json]
                 Edit (an empty value clears) or show the metadata document selection filters on
  doctree collection export-pageindex --collection-dir DIR [--doc ID]... [--out FILE|DIR]
  doctree collection import-pageindex <tree_structure.json>... --collection-dir DIR
                 PageIndex trees {doc_name, doc_description, structure} (1-based pages) out and in
`;

/** Usage lines of `doctree ask --collection-dir` (part of the CLI help). */
export const COLLECTION_ASK_USAGE = `  doctree ask --collection-dir DIR "<question>" [--mode select|all] [--doc ID]... [--where field=value]...
                 [--max-docs N] [--no-cross] [--json] [--trace out.json] [--llm none|openai]
                 Ask a collection: documents are selected (metadata the question names, description match,
                 node hits of the selection index; scores shown; a configured chat model chooses among the
                 first candidates), then asked; a question naming several documents' subjects (two companies,
                 two years) is asked of each and combined, citing document and page (--no-cross: asked
                 whole); --doc skips selection,
                 --where filters on company, year, quarter or form; --store postgres://… (or DOCTREE_STORE) with
                 --collection NAME asks a collection kept in PostgreSQL
`;

/** Usage lines of `doctree workspace` (part of the CLI help). */
export const WORKSPACE_USAGE = `  doctree workspace init [DIR] [--collection COL] | sources | meta set --doc-uid ID [--accessed-at YYYY-MM-DD] [--published-date D]
                 [--citation-key K] [--title T] [--publisher P] [--url U] [--author A]... [--citable true|false]
  doctree workspace parse [--force] | chunk | embed | build-bm25
  doctree workspace query "<question>" [--mode evidence|papers] [--filter year=2020,source_type=evidence] [--top-k N]
  doctree workspace audit <draft.md> | verify-citations <draft.md> | export-used-sources [evidence_pack.md]
                 Evidence workspace for writers (every command: --workspace DIR, default the working directory;
                 --json; --llm none|openai; --collection COL: a DocTree collection is the evidence store):
                 raw/evidence (or the collection's documents) is citable, raw/instruction/** feeds the briefs only;
                 evidence packs quote the cited page verbatim; every output is a new vNNN file
`;

/** Usage line of `doctree doctor` (part of the CLI help). */
export const DOCTOR_USAGE = `  doctree doctor [--json] [--config FILE] [--store postgres://…] [--queue redis://…|postgres://…]
                 Report Node, PDF engine, vector backend, LLM endpoint, OCR, and the store and job queue in
                 use (DOCTREE_STORE, DOCTREE_QUEUE; one bounded connect each, passwords redacted)
`;

/** Usage lines of `doctree worker` (part of the CLI help). */
export const WORKER_USAGE = `  doctree worker --queue redis://…|postgres://… --store postgres://… [--collection NAME] [--concurrency N] [--json]
                 Take document jobs from the queue (BullMQ), build each as collection sync does and commit it
                 to the PostgreSQL collection store in one transaction; runs until Ctrl-C (DOCTREE_QUEUE,
                 DOCTREE_STORE give the URLs; passwords are never printed; docs/scale-out.md)
`;

/** Each command's usage, for `doctree <command> --help`. */
export const COMMAND_USAGE: ReadonlyMap<string, string> = new Map([
  ['ingest', INGEST_USAGE],
  ['index', INDEX_USAGE],
  ['ask', ASK_USAGE],
  ['trace', TRACE_USAGE],
  ['eval', EVAL_USAGE],
  ['doctor', DOCTOR_USAGE],
  ['workspace', WORKSPACE_USAGE],
  ['collection', COLLECTION_USAGE],
  ['worker', WORKER_USAGE],
]);
