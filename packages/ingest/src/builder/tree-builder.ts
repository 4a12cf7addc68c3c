import {
  DOCTREE_VERSION,
  DocTreeError,
  type ContentBlock,
  type ContentList,
  type DocTree,
  type DocTreeNode,
  type NodeRole,
  type PageBox,
} from '@doctree/schema';
import { DEFAULT_MAX_PAGES } from '../limits.js';
import { parseHtmlTable, tableToMarkdown } from '../mineru/html-table.js';
import { findLabelMentions, parseCaptionLabel, type LabelKind } from './labels.js';

/** Options of {@link buildDocTree}. */
export interface BuildDocTreeOptions {
  /** Pages per synthetic section when the document has neither headings nor an outline. Default 10. */
  pageGroupSize?: number;
  /** Generator string recorded in the tree. Default `@doctree/ingest@0.1.0`. */
  generator?: string;
  /** Most pages a document may have (its `pages`); more is `SCHEMA_INVALID`. Default {@link DEFAULT_MAX_PAGES} (5 000). */
  maxPages?: number;
}

const DEFAULTS: Required<BuildDocTreeOptions> = { pageGroupSize: 10, generator: '@doctree/ingest@0.1.0', maxPages: DEFAULT_MAX_PAGES };

/** Block types that are page furniture and never enter the tree. */
const FURNITURE = new Set(['header', 'footer', 'page_number', 'aside_text']);
/** Enhancer flags that drop a block from the tree. */
const DROPPED_FLAGS = new Set(['repeated_header', 'repeated_footer', 'running_title']);

const SEPARATOR = '\n\n';

type Mutable = DocTreeNode;

/**
 * Builds `doctree.mm.json` from an (enhanced) content list. Pure: no I/O. The tree's `page_count` is the number of
 * pages of the list, and no node cites a page beyond it: a block on a page the list does not have is refused, and
 * outline entries pointing past the last page are dropped with an `OUTLINE_PAGE_OUT_OF_RANGE` warning.
 *
 * @throws DocTreeError `SCHEMA_INVALID` (with `page`) for more pages than `maxPages` or a block whose `page_idx` is not below the page count.
 */
export function buildDocTree(contentList: ContentList, options: BuildDocTreeOptions = {}): DocTree {
  const opts = { ...DEFAULTS, ...options };
  checkPages(contentList, opts.maxPages);
  const outline = contentList.outline.filter((o) => o.page_idx === undefined || o.page_idx < contentList.pages.length);
  const dropped = contentList.outline.length - outline.length;
  const list = dropped > 0 ? { ...contentList, outline } : contentList;
  const tree = new TreeBuilder(list, opts).build();
  if (dropped > 0) {
    tree.warnings.push({ code: 'OUTLINE_PAGE_OUT_OF_RANGE', message: `${dropped} outline entr${dropped === 1 ? 'y points' : 'ies point'} past the last page (${contentList.pages.length}); dropped` });
  }
  return tree;
}

/** Bounds every page index of a content list by its page count, and the page count by `maxPages`. */
function checkPages(list: ContentList, maxPages: number): void {
  const file = list.source.filename;
  const count = list.pages.length;
  if (count > maxPages) {
    throw new DocTreeError('SCHEMA_INVALID', `the document has ${count} pages, more than the maximum page count ${maxPages}`, {
      file,
      hint: 'Raise ingest.limits.max_pages in doctree.config.json (maxPages) if the document really has that many pages.',
    });
  }
  for (const b of list.blocks) {
    if (b.page_idx >= count) {
      throw new DocTreeError('SCHEMA_INVALID', `block ${b.block_id} is on page ${b.page_idx + 1}, beyond the ${count} pages of the document`, {
        file,
        page: b.page_idx + 1,
        hint: 'The content list is damaged (a page_idx beyond its pages); ingest the source again.',
      });
    }
  }
}

class TreeBuilder {
  private readonly nodes: Mutable[] = [];
  private readonly byId = new Map<string, Mutable>();
  private readonly counters = new Map<string, number>();
  private text = '';
  private readonly stack: Mutable[] = [];
  private readonly warnings: DocTree['warnings'] = [];

  constructor(
    private readonly list: ContentList,
    private readonly opts: Required<BuildDocTreeOptions>,
  ) {}

  build(): DocTree {
    const blocks = this.list.blocks
      .filter((b) => !FURNITURE.has(b.type) && !(b.flags ?? []).some((f) => DROPPED_FLAGS.has(f)))
      .sort((a, b) => a.read_order - b.read_order);
    const lastPage = Math.max(0, this.list.pages.length - 1);
    const headings = blocks.filter((b) => b.type === 'title' && !(b.flags ?? []).includes('toc'));
    const root = this.add({
      prefix: 'sec',
      role: 'document',
      parent: null,
      level: 0,
      text: '',
      title: this.documentTitle(blocks),
      pageIdx: 0,
      boxes: [],
      derived: 'root',
    });
    root.page_span = [0, lastPage];
    this.stack.push(root);

    const synthetic = headings.length > 0 ? new Map<number, SyntheticSection[]>() : this.syntheticSections(lastPage);
    const emptyPages = new Set(this.list.pages.filter((p) => !p.has_text_layer).map((p) => p.page_idx));
    let nextPage = 0;
    const advanceTo = (pageIdx: number): void => {
      for (; nextPage <= pageIdx; nextPage++) {
        for (const s of synthetic.get(nextPage) ?? []) {
          this.openSection(s.level, { text: s.title, title: s.title, pageIdx: nextPage, boxes: [], derived: s.derived });
        }
        if (emptyPages.has(nextPage) && !blocks.some((b) => b.page_idx === nextPage)) this.addEmptyPage(nextPage);
      }
    };
    for (const block of blocks) {
      advanceTo(block.page_idx);
      this.addBlock(block);
    }
    advanceTo(lastPage);
    this.linkStandaloneCaptions();
    this.linkReferences();
    this.closeSpans(root);
    root.char_span = [0, this.text.length];
    return {
      format: 'doctree.mm',
      version: DOCTREE_VERSION,
      doc: {
        doc_id: this.list.doc_id,
        ...(root.title ? { title: root.title } : {}),
        source: this.list.source,
        page_count: this.list.pages.length,
        pages: this.list.pages,
        outline: this.list.outline,
      },
      text: this.text,
      root_id: root.node_id,
      nodes: this.nodes,
      warnings: [...this.list.warnings, ...this.warnings],
      generator: this.opts.generator,
    };
  }

  private documentTitle(blocks: ContentBlock[]): string {
    const first = blocks.find((b) => b.type === 'title' && b.page_idx === 0);
    if (first && first.type === 'title') return first.text;
    return this.list.source.filename.replace(/\.[a-z0-9]+$/i, '');
  }

  /** Sections from the PDF outline, else page groups: used when the document has no usable headings. */
  private syntheticSections(lastPage: number): Map<number, SyntheticSection[]> {
    const out = new Map<number, SyntheticSection[]>();
    const push = (page: number, s: SyntheticSection): void => {
      out.set(page, [...(out.get(page) ?? []), s]);
    };
    const outline = this.list.outline.filter((o) => o.page_idx !== undefined);
    if (outline.length > 0) {
      for (const o of outline) push(o.page_idx!, { level: o.level, title: o.title, derived: 'outline' });
      this.warnings.push({ code: 'TREE_FROM_OUTLINE', message: 'no headings were detected; sections come from the PDF outline' });
      return out;
    }
    const size = Math.max(1, this.opts.pageGroupSize);
    for (let start = 0; start <= lastPage; start += size) {
      const end = Math.min(lastPage, start + size - 1);
      push(start, { level: 1, title: start === end ? `Page ${start + 1}` : `Pages ${start + 1}–${end + 1}`, derived: 'page_group' });
    }
    this.warnings.push({ code: 'TREE_FROM_PAGE_GROUPS', message: `no headings or outline; sections group ${size} pages each` });
    return out;
  }

  /** `sec_0` is the root; every other prefix counts from 1. */
  private nextId(prefix: string): string {
    const n = this.counters.get(prefix) ?? (prefix === 'sec' ? 0 : 1);
    this.counters.set(prefix, n + 1);
    return `${prefix}_${n}`;
  }

  private appendText(text: string): [number, number] {
    if (text.length === 0) return [this.text.length, this.text.length];
    if (this.text.length > 0) this.text += SEPARATOR;
    const start = this.text.length;
    this.text += text;
    return [start, this.text.length];
  }

  private add(spec: NodeSpec): Mutable {
    const node: Mutable = {
      node_id: this.nextId(spec.prefix),
      role: spec.role,
      parent_id: spec.parent?.node_id ?? null,
      children: [],
      level: spec.level,
      text: spec.text,
      page_span: [spec.pageIdx, spec.pageIdx],
      bboxes: spec.boxes,
      read_order: this.nodes.length,
      char_span: this.appendText(spec.text),
      refs: [],
      referenced_by: [],
      source_block_ids: spec.blockIds ?? [],
    };
    if (spec.title !== undefined) node.title = spec.title;
    if (spec.label !== undefined) node.label = spec.label;
    if (spec.numbering !== undefined) node.numbering = spec.numbering;
    if (spec.derived !== undefined) node.derived_from = spec.derived;
    spec.parent?.children.push(node.node_id);
    this.nodes.push(node);
    this.byId.set(node.node_id, node);
    return node;
  }

  private get section(): Mutable {
    return this.stack[this.stack.length - 1]!;
  }

  /** Opens a section of heading rank `rank` (1 = top): closes open sections of the same or lower rank first. */
  private openSection(rank: number, spec: Omit<NodeSpec, 'prefix' | 'role' | 'parent' | 'level'>): void {
    while (this.stack.length > 1 && (this.rankOf.get(this.section.node_id) ?? 0) >= rank) this.stack.pop();
    const node = this.add({ ...spec, prefix: 'sec', role: 'section', parent: this.section, level: this.section.level + 1 });
    this.rankOf.set(node.node_id, rank);
    this.stack.push(node);
  }

  /** Declared heading rank of each open section (levels in the tree are depths, so skipped ranks still nest). */
  private readonly rankOf = new Map<string, number>();

  private leaf(role: NodeRole, prefix: string, block: ContentBlock, text: string, extra: Partial<NodeSpec> = {}): Mutable {
    return this.add({
      prefix,
      role,
      parent: this.section,
      level: this.section.level + 1,
      text,
      pageIdx: block.page_idx,
      boxes: [{ page_idx: block.page_idx, bbox: block.bbox }],
      blockIds: [block.block_id],
      ...extra,
    });
  }

  private addBlock(block: ContentBlock): void {
    switch (block.type) {
      case 'title': {
        if ((block.flags ?? []).includes('toc')) {
          this.leaf('paragraph', 't', block, block.text);
          return;
        }
        this.openSection(block.text_level, {
          text: block.text,
          title: block.text,
          pageIdx: block.page_idx,
          boxes: [{ page_idx: block.page_idx, bbox: block.bbox }],
          blockIds: [block.block_id],
          derived: 'heading',
          ...(block.numbering ? { numbering: block.numbering } : {}),
        });
        return;
      }
      case 'text': {
        const label = (block.flags ?? []).includes('caption') ? parseCaptionLabel(block.text) : undefined;
        if (label || (block.flags ?? []).includes('caption')) {
          this.leaf('caption', 'cap', block, block.text, label ? { label: label.label } : {});
        } else {
          this.leaf((block.flags ?? []).includes('reference_list') ? 'reference' : 'paragraph', 't', block, block.text);
        }
        return;
      }
      case 'page_footnote':
        this.leaf('footnote', 't', block, block.text);
        return;
      case 'list':
        this.leaf((block.sub_type === 'reference' || (block.flags ?? []).includes('reference_list')) ? 'reference' : 'list', 'list', block, block.list_items.join('\n'));
        return;
      case 'equation':
        this.leaf('equation', 'eq', block, block.text);
        return;
      case 'code':
        this.leaf('code', 'code', block, block.code_body);
        return;
      case 'table': {
        const captionText = block.table_caption.join(' ').trim();
        const label = block.label ?? parseCaptionLabel(captionText)?.label;
        const parsed = parseHtmlTable(block.table_body);
        const text = parsed.rows.length > 0 ? parsed.rows.map((row) => row.join(' | ')).join('\n') : stripTags(block.table_body);
        const node = this.leaf('table', 'tab', block, text, label ? { label } : {});
        node.table = {
          html: block.table_body,
          header_rows: parsed.headerRows,
          rows: parsed.rows,
          markdown: block.markdown ?? tableToMarkdown(parsed.rows, parsed.headerRows),
        };
        if (block.img_path) node.img_path = block.img_path;
        this.attachCaption(node, block, [captionText, ...block.table_footnote].filter(Boolean).join(' '), label);
        return;
      }
      case 'image':
      case 'chart': {
        const captions = block.type === 'image' ? [...block.image_caption, ...block.image_footnote] : block.chart_caption;
        const captionText = captions.join(' ').trim();
        const label = block.label ?? parseCaptionLabel(captionText)?.label;
        const node = this.leaf(block.type === 'chart' ? 'chart' : 'image', 'img', block, '', label ? { label } : {});
        if (block.img_path) node.img_path = block.img_path;
        this.attachCaption(node, block, captionText, label);
        return;
      }
    }
  }

  private attachCaption(target: Mutable, block: ContentBlock, text: string, label: string | undefined): void {
    if (!text) return;
    const caption = this.leaf('caption', 'cap', block, text, label ? { label } : {});
    caption.caption_of = target.node_id;
    target.caption_id = caption.node_id;
  }

  private addEmptyPage(pageIdx: number): void {
    const page = this.list.pages[pageIdx];
    const node = this.add({
      prefix: 't',
      role: 'paragraph',
      parent: this.section,
      level: this.section.level + 1,
      text: '',
      pageIdx,
      boxes: page ? [{ page_idx: pageIdx, bbox: [0, 0, page.width, page.height] }] : [],
      derived: 'empty_page',
    });
    this.warnings.push({ code: 'EMPTY_PAGE_NODE', message: `page ${pageIdx + 1} has no text; it is kept as an empty node (${node.node_id})`, page_idx: pageIdx });
  }

  /** Links captions that came as separate text blocks to the nearest uncaptioned figure/table on their page. */
  private linkStandaloneCaptions(): void {
    for (const caption of this.nodes) {
      if (caption.role !== 'caption' || caption.caption_of || !caption.label) continue;
      const kind: LabelKind = caption.label.startsWith('Table') ? 'table' : 'figure';
      const box = caption.bboxes[0];
      if (!box) continue;
      let best: { node: Mutable; distance: number } | undefined;
      for (const node of this.nodes) {
        const fits = kind === 'table' ? node.role === 'table' : node.role === 'image' || node.role === 'chart';
        const nodeBox = node.bboxes[0];
        if (!fits || node.caption_id || !nodeBox || nodeBox.page_idx !== box.page_idx) continue;
        const distance = Math.min(Math.abs(nodeBox.bbox[3] - box.bbox[1]), Math.abs(box.bbox[3] - nodeBox.bbox[1]));
        if (!best || distance < best.distance) best = { node, distance };
      }
      if (best) {
        caption.caption_of = best.node.node_id;
        best.node.caption_id = caption.node_id;
        best.node.label ??= caption.label;
      }
    }
  }

  /** Resolves `Figure 3` / `Table 2` mentions in paragraphs and lists to the labelled nodes. */
  private linkReferences(): void {
    const labelTarget = new Map<string, string>();
    for (const node of this.nodes) {
      if (node.label && (node.role === 'image' || node.role === 'chart' || node.role === 'table' || node.role === 'equation')) {
        if (!labelTarget.has(node.label)) labelTarget.set(node.label, node.node_id);
      }
    }
    for (const node of this.nodes) {
      if (node.role !== 'paragraph' && node.role !== 'list') continue;
      for (const mention of findLabelMentions(node.text)) {
        const target = labelTarget.get(mention.label);
        if (!target || node.refs.some((r) => r.target === target)) continue;
        node.refs.push({ label: mention.label, target, char_span: [mention.start, mention.end] });
        this.byId.get(target)!.referenced_by.push(node.node_id);
      }
    }
  }

  /** Sections span their whole subtree: text, pages and (first) boxes. */
  private closeSpans(node: Mutable): void {
    for (const id of node.children) {
      const child = this.byId.get(id)!;
      this.closeSpans(child);
      node.page_span = [Math.min(node.page_span[0], child.page_span[0]), Math.max(node.page_span[1], child.page_span[1])];
      if (node.role === 'section') node.char_span = [node.char_span[0], Math.max(node.char_span[1], child.char_span[1])];
    }
  }
}

interface SyntheticSection {
  level: number;
  title: string;
  derived: DocTreeNode['derived_from'];
}

interface NodeSpec {
  prefix: string;
  role: NodeRole;
  parent: Mutable | null;
  level: number;
  text: string;
  title?: string;
  label?: string;
  numbering?: string;
  pageIdx: number;
  boxes: PageBox[];
  blockIds?: string[];
  derived?: DocTreeNode['derived_from'];
}

function stripTags(html: string): string {
  return html
    .replace(/<\/(td|th)>/gi, ' | ')
    .replace(/<\/tr>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/[ \t]+/g, ' ')
    .trim();
}
