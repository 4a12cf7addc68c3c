import { createHash } from 'node:crypto';
import { INDEX_FORMAT_VERSION, type DocSummary, type DocTree, type DocTreeNode, type SectionSummary } from '@doctree/schema';
import { DocView } from './doc-view.js';
import { mmrSummaryWith, SentenceTermCache } from './extractive-summarizer.js';
import { estimateTokens } from './text-features.js';

/** sha256 of a section's text: the cache key of LLM-written gists. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The text a section's gist is made from: its own leaf text when that has at least 200 characters, else its whole
 * subtree (a section that only holds sub-sections is summarised by them). Its {@link contentHash} is the gist's cache key.
 */
export function sectionSummarySource(view: DocView, node: DocTreeNode): string {
  return summarySourceOf(view, node).text;
}

/** {@link sectionSummarySource}, and whether it is the subtree. */
function summarySourceOf(view: DocView, node: DocTreeNode): { text: string; subtree: boolean } {
  const own = view.ownText(node);
  return own.trim().length >= 200 ? { text: own, subtree: false } : { text: view.subtreeText(node), subtree: true };
}

/** Options of {@link buildExtractiveSummary}. */
export interface ExtractiveSummaryOptions {
  /** Gist length bounds in tokens (docs/design/agent-loop.md §3.3: 80–150). */
  minTokens?: number;
  maxTokens?: number;
}

/**
 * `summary.json` without any model: each section's gist is an MMR selection of its own sentences (its direct
 * text, or its subtree when it has none), and the document description is an MMR selection over the top-level
 * gists and the opening text.
 */
export function buildExtractiveSummary(tree: DocTree, options: ExtractiveSummaryOptions = {}): DocSummary {
  const view = new DocView(tree);
  const minTokens = options.minTokens ?? 80;
  const maxTokens = options.maxTokens ?? 150;
  const sections: SectionSummary[] = [];
  // Sections summarised by their subtree read their sub-sections' sentences again: count each sentence's terms once.
  const sentenceTerms = new SentenceTermCache();
  for (const node of tree.nodes) {
    if (node.role !== 'section') continue;
    const { text: source, subtree } = summarySourceOf(view, node);
    // Sections come before their sub-sections: the sentences of a subtree are read again below, those of own text never.
    sentenceTerms.remember = subtree;
    const gist = mmrSummaryWith(source, { minTokens, maxTokens, focus: node.title ?? '' }, sentenceTerms);
    sections.push({ node_id: node.node_id, title: node.title ?? '', gist, method: 'extractive', content_hash: contentHash(source), tokens: estimateTokens(gist) });
  }
  const root = view.node(tree.root_id)!;
  const topGists = sections.filter((s) => view.node(s.node_id)?.parent_id === root.node_id).map((s) => s.gist);
  const opening = tree.text.slice(0, 4000);
  sentenceTerms.remember = false;
  const description = mmrSummaryWith([opening, ...topGists].join('\n'), { minTokens, maxTokens: maxTokens + 50, focus: root.title ?? '' }, sentenceTerms);
  return {
    format: 'doctree.summary',
    version: INDEX_FORMAT_VERSION,
    doc_id: tree.doc.doc_id,
    ...(root.title ? { title: root.title } : {}),
    description,
    method: 'extractive',
    sections,
  };
}
