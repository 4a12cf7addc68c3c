import { ownTable } from '@doctree/schema';
import type { DocTreeNode, Hit, Modality } from '@doctree/schema';
import type { DocNavigator } from '../navigation/doc-navigator.js';

/** Modality of a hit for each tree role (`extra.role` keeps the role itself). */
export const ROLE_MODALITY: Readonly<Record<string, Modality>> = ownTable<Modality>({
  document: 'section',
  section: 'section',
  paragraph: 'text',
  list: 'list',
  table: 'table',
  image: 'image',
  chart: 'chart',
  equation: 'equation',
  caption: 'text',
  code: 'text',
  footnote: 'text',
  reference: 'text',
});

/** Role groups accepted wherever tool args take roles: `figure` = image + chart, `text` = the prose leaves. */
export const ROLE_GROUPS: Readonly<Record<string, readonly string[]>> = ownTable<readonly string[]>({
  figure: ['image', 'chart'],
  text: ['paragraph', 'list', 'caption', 'footnote', 'code', 'equation', 'reference'],
  leaf: ['paragraph', 'list', 'caption', 'footnote', 'code', 'equation', 'reference'],
});

/**
 * Expands role groups (`figure`, `text`) into tree roles; undefined or empty stays undefined (no filter). Roles come
 * from tool args: any other string (`constructor` too) stays itself.
 */
export function expandRoles(roles: readonly string[] | undefined): string[] | undefined {
  if (!roles || roles.length === 0) return undefined;
  return [...new Set(roles.flatMap((r) => (Object.hasOwn(ROLE_GROUPS, r) ? ROLE_GROUPS[r]! : [r])))];
}

/** Longest snippet put on a hit. */
export const SNIPPET_CHARS = 240;

/** Collapses whitespace and cuts text to `max` characters at a word boundary (with `…`). */
export function shorten(text: string, max = SNIPPET_CHARS): string {
  // Collapsing a long prefix gives the same first `max` characters as collapsing the whole text (big tables, long
  // sections), at a fraction of the cost; the whole text is used when the prefix collapses to too little.
  const prefix = text.length > max * 4 ? text.slice(0, max * 4).replace(/\s+/g, ' ').trimStart() : undefined;
  const flat = prefix !== undefined && prefix.length > max + 1 ? prefix : text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

const SNIPPETS = new WeakMap<DocNavigator, Map<string, string>>();

/**
 * The short text a hit shows for a node: a section's heading, a figure/table caption (or label), a leaf's text.
 * Cached per navigator and node (every lane of every question asks for the same nodes' snippets).
 */
export function nodeSnippet(nav: DocNavigator, node: DocTreeNode): string {
  let cache = SNIPPETS.get(nav);
  if (!cache) {
    cache = new Map();
    SNIPPETS.set(nav, cache);
  }
  let snippet = cache.get(node.node_id);
  if (snippet === undefined) {
    snippet = snippetOf(nav, node);
    cache.set(node.node_id, snippet);
  }
  return snippet;
}

function snippetOf(nav: DocNavigator, node: DocTreeNode): string {
  if (node.role === 'section' || node.role === 'document') {
    const gist = gistWithoutTitle(nav.gistOf(node), node.title);
    return shorten(gist && node.title ? `${node.title} — ${gist}` : node.title ?? gist);
  }
  if (node.role === 'table' || node.role === 'image' || node.role === 'chart') {
    const caption = nav.captionOf(node)?.text;
    if (caption) return shorten(caption);
    if (node.role === 'table' && node.text) return shorten(node.text);
    return node.label ?? (node.role === 'table' ? 'Table' : 'Figure');
  }
  return shorten(node.text);
}

/** A section gist without the section title it often starts with (extractive gists quote the heading). */
export function gistWithoutTitle(gist: string, title: string | undefined): string {
  const flat = gist.replace(/\s+/g, ' ').trim();
  const heading = (title ?? '').replace(/\s+/g, ' ').trim();
  if (heading && flat.toLowerCase().startsWith(heading.toLowerCase())) return flat.slice(heading.length).replace(/^[\s:.—-]+/, '');
  return flat;
}

/** Fields of a hit built by {@link nodeHit}. */
export interface NodeHitInit {
  /** Tool that produced it (`Hit.method`). */
  method: string;
  /** Raw score of the tool (higher is better). */
  score: number;
  /** Snippet instead of the node's default one (e.g. the matching chunk). */
  snippet?: string;
  /** Extra fields merged over `{ role, section_id, label }`. */
  extra?: Record<string, unknown>;
}

/**
 * A {@link Hit} for a tree node: `eid` `<doc_id>:<node_id>`, the page where the node starts (0-based `page_idx`),
 * its first box, its modality, a short snippet and `extra.role` / `extra.section_id` / `extra.label`.
 */
export function nodeHit(nav: DocNavigator, node: DocTreeNode, init: NodeHitInit): Hit {
  const section = node.role === 'section' ? node : nav.sectionOf(node);
  return {
    eid: `${nav.docId}:${node.node_id}`,
    doc_id: nav.docId,
    page_idx: nav.pageIdxOf(node),
    node_id: node.node_id,
    modality: ROLE_MODALITY[node.role] ?? 'text',
    snippet: init.snippet ?? nodeSnippet(nav, node),
    bbox: node.bboxes[0]?.bbox ?? null,
    score_raw: init.score,
    method: init.method,
    extra: {
      role: node.role,
      ...(section ? { section_id: section.node_id } : {}),
      ...(node.label ? { label: node.label } : {}),
      ...init.extra,
    },
  };
}

/** Lanes that contributed to a hit (`extra.via`), or its method. */
export function hitVia(hit: Hit): string[] {
  const via = hit.extra['via'];
  return Array.isArray(via) && via.every((v) => typeof v === 'string') ? (via as string[]) : [hit.method];
}

/** The score used for ordering: the fused `score` when set, else `score_raw`. */
export function hitScore(hit: Hit): number {
  return hit.score ?? hit.score_raw;
}
