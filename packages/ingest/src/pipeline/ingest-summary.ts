import type { ContentList, DocTree, IngestWarning } from '@doctree/schema';
import type { EnhanceReport } from '../enhancer/enhance-content-list.js';

/** What `doctree ingest` prints: counts a person can check against the document. */
export interface IngestSummary {
  doc_id: string;
  source_kind: ContentList['source']['kind'];
  pages: number;
  pages_without_text: number;
  /** Sections per tree depth (`"1"`: top-level). */
  sections_by_level: Record<string, number>;
  paragraphs: number;
  lists: number;
  tables: number;
  figures: number;
  captions: number;
  equations: number;
  references_resolved: number;
  warnings: IngestWarning[];
  enhancer: EnhanceReport['rules'];
  timings_ms: { adapt: number; enhance: number; build: number; write: number };
  /** OCR of pages without a text layer, when it ran (part of `timings_ms.adapt`): pages it went through, read, failed, wall ms. */
  ocr?: { pages: number; read: number; failed: number; ms: number };
}

/** Counts the tree's nodes by role and depth. */
export function summarizeIngest(list: ContentList, tree: DocTree, enhance: EnhanceReport, timings: IngestSummary['timings_ms']): IngestSummary {
  const count = (role: string): number => tree.nodes.filter((n) => n.role === role).length;
  const sectionsByLevel: Record<string, number> = {};
  for (const node of tree.nodes) if (node.role === 'section') sectionsByLevel[String(node.level)] = (sectionsByLevel[String(node.level)] ?? 0) + 1;
  return {
    doc_id: tree.doc.doc_id,
    source_kind: list.source.kind,
    pages: tree.doc.page_count,
    pages_without_text: tree.doc.pages.filter((p) => !p.has_text_layer).length,
    sections_by_level: sectionsByLevel,
    paragraphs: count('paragraph'),
    lists: count('list'),
    tables: count('table'),
    figures: count('image') + count('chart'),
    captions: count('caption'),
    equations: count('equation'),
    references_resolved: tree.nodes.reduce((n, node) => n + node.refs.length, 0),
    warnings: tree.warnings,
    enhancer: enhance.rules,
    timings_ms: timings,
  };
}

/** One row of the page-level quality report: blocks by type on a page, before and after enhancement. */
export interface PageQualityRow {
  /** 1-based page. */
  page: number;
  has_text_layer: boolean;
  adapted: Record<string, number>;
  /** Blocks the enhancer flagged, by flag. */
  flagged: Record<string, number>;
  /** Characters of text on the page (adapted). */
  chars: number;
}

/** Per-page block counts so regressions in layout analysis are visible (`doctree ingest --report`). */
export function pageQualityReport(adapted: ContentList, enhanced: ContentList): PageQualityRow[] {
  const rows: PageQualityRow[] = adapted.pages.map((p) => ({ page: p.page_idx + 1, has_text_layer: p.has_text_layer, adapted: {}, flagged: {}, chars: 0 }));
  for (const b of adapted.blocks) {
    const row = rows[b.page_idx];
    if (!row) continue;
    row.adapted[b.type] = (row.adapted[b.type] ?? 0) + 1;
    if ('text' in b && typeof b.text === 'string') row.chars += b.text.length;
    else if (b.type === 'list') row.chars += b.list_items.join('').length;
  }
  for (const b of enhanced.blocks) {
    const row = rows[b.page_idx];
    if (!row) continue;
    for (const flag of b.flags ?? []) row.flagged[flag] = (row.flagged[flag] ?? 0) + 1;
  }
  return rows;
}
