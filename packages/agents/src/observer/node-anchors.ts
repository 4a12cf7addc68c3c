import { pageFromIndex, type BBox, type DocTree, type DocTreeNode } from '@doctree/schema';

/** 1-based first page of a node. */
export function nodePage(node: DocTreeNode): number {
  return pageFromIndex(node.bboxes[0]?.page_idx ?? node.page_span[0]);
}

/** First box of a node (on its first page), or null. */
export function nodeBBox(node: DocTreeNode): BBox | null {
  return node.bboxes[0]?.bbox ?? null;
}

/**
 * Where `text` sits in the document's canonical text: the node's own `char_span` when the slice matches, else the
 * nearest exact occurrence after the span start, else undefined (the text is then anchored to its node only).
 */
export function anchorSpan(tree: DocTree, text: string, hint: readonly [number, number] | undefined): [number, number] | undefined {
  if (!text) return undefined;
  if (hint && tree.text.slice(hint[0], hint[1]) === text) return [hint[0], hint[1]];
  if (hint && tree.text.startsWith(text, hint[0])) return [hint[0], hint[0] + text.length];
  const from = hint ? Math.max(0, hint[0] - 64) : 0;
  const at = tree.text.indexOf(text, from);
  if (at >= 0) return [at, at + text.length];
  const anywhere = from > 0 ? tree.text.indexOf(text) : -1;
  return anywhere >= 0 ? [anywhere, anywhere + text.length] : undefined;
}

/** Cuts text to at most `max` characters at a word boundary (never mid-word unless one word is longer). */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max * 0.6 ? cut : max);
}

/** Ancestors' titles from the top section down (the root excluded), plus the node's own title for sections. */
export function headingPath(node: DocTreeNode, ancestors: readonly DocTreeNode[]): string[] {
  const titles = ancestors.map((a) => a.title ?? '').filter(Boolean);
  if ((node.role === 'section' || node.role === 'document') && node.title && node.parent_id !== null) titles.push(node.title);
  return titles;
}
