/**
 * The HTML-table reader lives in `@doctree/schema` (one parser for ingest and toolhub); toolhub's public names are
 * kept: `decodeEntities` is `decodeHtmlEntities`, `HtmlTableGrid` is `HtmlTable`.
 */
export { HTML_TABLE_LIMITS, decodeHtmlEntities as decodeEntities, parseHtmlTable } from '@doctree/schema';
export type { HtmlTable as HtmlTableGrid } from '@doctree/schema';
