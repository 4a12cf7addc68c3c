/** The HTML-table codec lives in `@doctree/schema` (one parser for ingest and toolhub); re-exported for ingest's callers. */
export { decodeHtmlEntities, escapeHtml, extractTableHtml, gridToHtml, parseHtmlTable, tableToMarkdown } from '@doctree/schema';
export type { HtmlTable } from '@doctree/schema';
