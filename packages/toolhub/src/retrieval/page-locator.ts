import { findPageReferences, indexFromPage, pageFromIndex } from '@doctree/schema';
import type { DocTreeNode, Hit, RetrieveRequest } from '@doctree/schema';
import { BaseRetriever } from '@doctree/index';
import type { BaseRetrieverOptions, DocIndex } from '@doctree/index';
import { navigatorFor, type DocNavigator } from '../navigation/doc-navigator.js';
import { nodeHit } from '../hits/node-hit.js';

/** A page the locator targets, and why. */
export interface LocatedPage {
  /** 1-based page. */
  page: number;
  page_idx: number;
  /** `number`: a physical page number; `label`: a printed page label (`iv`, `F-3`, or a number printed on another page); `ordinal` / `last`; `window`: a neighbour. */
  source: 'number' | 'label' | 'ordinal' | 'last' | 'given' | 'window';
  /** Pages away from the nearest hinted page (0 for hinted pages). */
  distance: number;
  /** Score of the nodes on this page: 1 on a hinted page, `1 / (1 + distance)` around it, × 0.9 for printed labels. */
  score: number;
}

/** Options of the {@link PageLocator} constructor. */
export interface PageLocatorOptions extends BaseRetrieverOptions {
  /** 1-based pages to locate; when absent they are read from the query (`page 5`, `the last page`, `page iv`). */
  pages?: readonly number[];
  /** Neighbouring pages included on each side. Default 0. */
  pageWindow?: number;
  /** Also match printed page labels (`page iv`, and numbers printed on another physical page). Default true. */
  useLabels?: boolean;
}

/** Defaults of {@link PageLocatorOptions}. */
export const PAGE_LOCATOR_DEFAULTS: Required<Pick<PageLocatorOptions, 'pageWindow' | 'useLabels'>> = { pageWindow: 0, useLabels: true };

/**
 * The `page_locator.locate` lane: resolves page hints (given pages, or `page 5` / `pp. 3–4` / `the second page` /
 * `the last page` / a printed label `page iv` in the query) to 0-based pages, widens them by the page window, and
 * returns the nodes on those pages in reading order: section headings starting there and content nodes. A node on a
 * hinted page scores 1, on a neighbour `1 / (1 + distance)`; a page matched by its printed label scores 0.9 of that.
 * A number that is both a physical page and another page's printed label yields both pages.
 */
export class PageLocator extends BaseRetriever {
  readonly name = 'page_locator.locate';
  readonly #nav: DocNavigator;
  readonly #options: Omit<PageLocatorOptions, keyof BaseRetrieverOptions> & typeof PAGE_LOCATOR_DEFAULTS;

  constructor(
    readonly index: DocIndex,
    options: PageLocatorOptions = {},
  ) {
    const { validateHits, onRetrieve, ...own } = options;
    super({ ...(validateHits !== undefined ? { validateHits } : {}), ...(onRetrieve ? { onRetrieve } : {}) });
    this.#nav = navigatorFor(index);
    this.#options = { ...PAGE_LOCATOR_DEFAULTS, ...own };
  }

  /** Pages targeted by a query (or by the `pages` option), hinted pages first, each once, with neighbours. */
  locatePages(query: string): LocatedPage[] {
    const count = this.#nav.pageCount;
    const pagesInfo = this.index.tree.doc.pages;
    const hinted = new Map<number, { source: LocatedPage['source']; weight: number }>();
    const add = (pageIdx: number, source: LocatedPage['source'], weight: number): void => {
      if (pageIdx < 0 || pageIdx >= count) return;
      const previous = hinted.get(pageIdx);
      if (!previous || weight > previous.weight) hinted.set(pageIdx, { source, weight });
    };
    const byLabel = (label: string): number[] =>
      this.#options.useLabels ? pagesInfo.filter((p) => p.label !== undefined && p.label.toLowerCase() === label.toLowerCase()).map((p) => p.page_idx) : [];
    if (this.#options.pages && this.#options.pages.length > 0) {
      for (const page of this.#options.pages) add(indexFromPage(page), 'given', 1);
    } else {
      for (const ref of findPageReferences(query, { labels: true })) {
        if (ref.kind === 'last') add(count - 1, 'last', 1);
        else if (ref.kind === 'ordinal' && ref.page !== undefined) add(indexFromPage(ref.page), 'ordinal', 1);
        else if (ref.kind === 'number' && ref.page !== undefined) {
          add(indexFromPage(ref.page), 'number', 1);
          for (const p of byLabel(ref.label ?? String(ref.page))) if (p !== indexFromPage(ref.page)) add(p, 'label', 0.9);
        } else if (ref.kind === 'label' && ref.label) {
          for (const p of byLabel(ref.label)) add(p, 'label', 0.9);
        }
      }
    }
    const out = new Map<number, LocatedPage>();
    for (const [pageIdx, { source, weight }] of hinted) {
      for (let d = -this.#options.pageWindow; d <= this.#options.pageWindow; d++) {
        const p = pageIdx + d;
        if (p < 0 || p >= count) continue;
        const distance = Math.abs(d);
        const w = weight / (1 + distance);
        const previous = out.get(p);
        if (!previous || w > previous.score) out.set(p, { page: pageFromIndex(p), page_idx: p, source: distance === 0 ? source : 'window', distance, score: w });
      }
    }
    return [...out.values()].sort((a, b) => b.score - a.score || a.page_idx - b.page_idx);
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const located = this.locatePages(request.query);
    const roles = request.roles && request.roles.length > 0 ? new Set(request.roles) : undefined;
    const hits: Hit[] = [];
    const seen = new Set<string>();
    for (const page of located) {
      const nodes: DocTreeNode[] = [...this.#nav.sectionsStartingOn(page.page_idx), ...this.#nav.nodesOnPage(page.page_idx)].sort((a, b) => a.read_order - b.read_order);
      nodes.forEach((node) => {
        if (seen.has(node.node_id) || (roles && !roles.has(node.role))) return;
        seen.add(node.node_id);
        const hit = nodeHit(this.#nav, node, {
          method: this.name,
          score: page.score,
          extra: { located_page: page.page, located_by: page.source, page_distance: page.distance },
        });
        // A node spanning pages is reported on the located page, where the question looks for it.
        hits.push({ ...hit, page_idx: page.page_idx });
      });
    }
    return hits;
  }
}
