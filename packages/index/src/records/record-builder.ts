import {
  SECTION_VARIANT_SUFFIX,
  findYears,
  setOwn,
  splitSentences,
  type Affordances,
  type DenseCoarseRecord,
  type DenseLeafRecord,
  type DocSummary,
  type DocTree,
  type DocTreeNode,
  type GraphEdge,
  type IdMaps,
  type IndexFilters,
  type SectionVariant,
  type SparseDoc,
} from '@doctree/schema';
import { DocView, tableHeader, tableRowLabels } from './doc-view.js';
import { SliceTermCounter, UNIT_ALIASES, estimateTokens, findUnits, hasNumbers, keywordsOfFrequencies, termFrequencies } from './text-features.js';

/** Options of {@link buildIndexRecords}. */
export interface IndexRecordOptions {
  /**
   * Deepest section level that gets coarse records (docs/design/agent-loop.md §3.3: L1–L3). Levels are depths from the root, so these are
   * always the three top populated levels; deeper or page-span-based policies measured no better on the dev probe
   * (docs/results.md, Heading depth). Default 3.
   */
  maxSectionLevel?: number;
  /** Leaves longer than this many tokens are split into `#cN` chunks. Default 300. */
  leafChunkTokens?: number;
  /** Words of a leaf kept in its dense (summary) view. Default 60. */
  leafDenseWords?: number;
  /** Characters of table text kept in a table's sparse body. Default 6000. */
  tableBodyChars?: number;
}

const DEFAULTS: Required<IndexRecordOptions> = { maxSectionLevel: 3, leafChunkTokens: 300, leafDenseWords: 60, tableBodyChars: 6000 };

/** Every record set of docs/design/index-features.md §3 for one document. */
export interface IndexRecords {
  denseCoarse: DenseCoarseRecord[];
  denseLeaf: DenseLeafRecord[];
  sparseCoarse: SparseDoc[];
  sparseLeaf: SparseDoc[];
  edges: GraphEdge[];
  idMaps: IdMaps;
}

const LEAF_ROLES = new Set(['paragraph', 'list', 'caption', 'equation', 'code', 'footnote', 'reference']);
const FIGURE_ROLES = new Set(['image', 'chart']);

/** Aliases for units found in text (`%` → percent pct …), as one string for the sparse `aliases` field. */
function unitAliases(units: readonly string[]): string {
  return units
    .map((u) => (Object.hasOwn(UNIT_ALIASES, u) ? UNIT_ALIASES[u] : undefined))
    .filter(Boolean)
    .join(' ');
}

const labelNumber = (label: string | undefined): string | undefined => label?.replace(/^\S+\s+/, '');

/** `setOwn` unless the map already has its own `key` (the first label wins); labels come from documents: any word. */
function setFirst(map: Record<string, string>, key: string, value: string): void {
  if (!Object.hasOwn(map, key)) setOwn(map, key, value);
}

/**
 * Builds dense (coarse sections × 4 variants, images, tables; leaves with `#cN` chunks), sparse BM25F, graph and
 * id-map records from a DocTree and its summary. Pure: no I/O, no embeddings.
 */
export function buildIndexRecords(tree: DocTree, summary: DocSummary, options: IndexRecordOptions = {}): IndexRecords {
  const opts = { ...DEFAULTS, ...options };
  const view = new DocView(tree);
  const gistOf = new Map(summary.sections.map((s) => [s.node_id, s.gist]));
  // Term frequencies of the coarse sections' subtrees are counted once, for the document frequencies and their keywords.
  const { df, sectionTerms } = documentFrequencies(tree, opts.maxSectionLevel);
  const sectionCount = tree.nodes.filter((n) => n.role === 'section').length || 1;
  const records: IndexRecords = { denseCoarse: [], denseLeaf: [], sparseCoarse: [], sparseLeaf: [], edges: [], idMaps: { label2id: {}, figure: {}, table: {}, equation: {}, section: {} } };

  for (const node of tree.nodes) {
    const section = view.sectionOf(node);
    const parentFilters: IndexFilters = section && section.role === 'section' ? { parent_section: section.node_id, ...(section.title ? { parent_title: section.title } : {}) } : {};
    if (node.role === 'section') {
      if (node.level <= opts.maxSectionLevel) addSection(node);
      if (node.numbering) setOwn(records.idMaps.section, node.numbering, node.node_id);
    } else if (FIGURE_ROLES.has(node.role) || node.role === 'table') {
      addFigureOrTable(node, parentFilters);
    } else if (LEAF_ROLES.has(node.role) && node.text.trim().length > 0) {
      addLeaf(node, parentFilters);
    }
    if (node.label) {
      const n = labelNumber(node.label);
      const target = node.caption_of ?? node.node_id;
      setFirst(records.idMaps.label2id, node.label, target);
      if (n && node.label.startsWith('Figure')) setFirst(records.idMaps.figure, n, target);
      if (n && node.label.startsWith('Table')) setFirst(records.idMaps.table, n, target);
      if (n && node.label.startsWith('Equation')) setFirst(records.idMaps.equation, n, target);
    }
  }
  records.edges = buildGraphEdges(tree, view);
  return records;

  function addSection(node: DocTreeNode): void {
    const descendants = view.descendants(node);
    const subtree = view.subtreeText(node);
    const figures = descendants.filter((d) => FIGURE_ROLES.has(d.role));
    const tables = descendants.filter((d) => d.role === 'table');
    const captions = descendants.filter((d) => d.role === 'caption').map((d) => d.text);
    const childHeadings = node.children.map((id) => view.node(id)).filter((c): c is DocTreeNode => c?.role === 'section').map((c) => c.title ?? '');
    const schemas = tables.map((t) => tableHeader(t).filter(Boolean).join('; ')).filter(Boolean);
    const units = findUnits(subtree);
    const years = findYears(subtree);
    const numbers = hasNumbers(subtree);
    const parent = node.parent_id ? view.node(node.parent_id) : undefined;
    const path = view.headingPath(node);
    const gist = gistOf.get(node.node_id) ?? '';
    const filters: IndexFilters = {
      page_idx: node.page_span[0],
      level: node.level,
      page_span: node.page_span,
      ...(parent && parent.role === 'section' ? { parent_section: parent.node_id, ...(parent.title ? { parent_title: parent.title } : {}) } : {}),
      ...(figures.length > 0 ? { chart_types: [...new Set(figures.map((f) => (f.role === 'chart' ? 'statistical' : 'image')))] } : {}),
      ...(units.length > 0 ? { units_set: units } : {}),
      ...(years.length > 0 ? { years } : {}),
    };
    const affordances: Affordances = {
      supports_ROUTE_TO_image: figures.length > 0,
      supports_ROUTE_TO_table: tables.length > 0,
      has_numbers: numbers,
      supports_LOOKUP: tables.length > 0 || numbers,
      supports_COMPARE: tables.length > 0 || years.length >= 2,
      supports_TREND: figures.some((f) => f.role === 'chart') || years.length >= 3,
    };
    const topParagraph = descendants.find((d) => d.role === 'paragraph' && d.text.length > 80) ?? descendants.find((d) => d.role === 'paragraph');
    const sketch = {
      keywords_topk: keywordsOfFrequencies(sectionTerms.get(node) ?? termFrequencies(subtree), 8, df, sectionCount),
      representatives: {
        ...(figures[0] ? { top_image: figures[0].node_id } : {}),
        ...(tables[0] ? { top_table: tables[0].node_id } : {}),
        ...(topParagraph ? { top_paragraph: topParagraph.node_id } : {}),
      },
    };
    const childSurface = [...childHeadings, ...captions.slice(0, 8), ...schemas.slice(0, 4)].filter(Boolean).join('; ');
    const variants: Array<[SectionVariant, string]> = [
      ['heading', node.title ?? ''],
      ['gist', gist],
      ['child', childSurface],
      ['path', path],
    ];
    for (const [variant, text] of variants) {
      if (!text.trim()) continue;
      records.denseCoarse.push({
        node_id: `${node.node_id}${SECTION_VARIANT_SUFFIX[variant]}`,
        variant,
        role: 'section',
        dense_text: text,
        ...(node.title ? { title: node.title } : {}),
        summary: gist,
        filters,
        affordances,
        subtree_sketch: sketch,
      });
    }
    const childLabels = descendants.filter((d) => d.label && d.role !== 'caption').map((d) => d.label!);
    records.sparseCoarse.push({
      id: node.node_id,
      role: 'section',
      heading: node.title ?? '',
      headings_path: path,
      child_labels: [...new Set(childLabels)].join('; '),
      child_table_schema: schemas.join('; '),
      caption_bag: captions.join('; ').slice(0, 2000),
      aliases: unitAliases(units),
      body: gist,
      filters: { level: node.level, page_span: node.page_span, page_idx: node.page_span[0] },
    });
  }

  function addFigureOrTable(node: DocTreeNode, parentFilters: IndexFilters): void {
    const caption = node.caption_id ? view.node(node.caption_id)?.text ?? '' : '';
    const isTable = node.role === 'table';
    const header = isTable ? tableHeader(node) : [];
    const rowLabels = isTable ? tableRowLabels(node) : [];
    const tableText = isTable ? node.text : '';
    const nearby = isTable ? '' : nearbyText(node);
    const units = findUnits(`${caption} ${tableText} ${nearby}`);
    const years = findYears(`${caption} ${header.join(' ')}`);
    const numbers = isTable ? hasNumbers(tableText) : hasNumbers(caption);
    const title = caption || node.label || (isTable ? 'Table' : 'Figure');
    const schema = header.filter(Boolean).join('; ');
    const denseText = isTable
      ? [caption, schema, rowLabels.slice(0, 25).join('; ')].filter(Boolean).join('. ')
      : [caption, nearby.slice(0, 400)].filter(Boolean).join('. ') || title;
    const number = labelNumber(node.label);
    const filters: IndexFilters = {
      page_idx: node.page_span[0],
      ...parentFilters,
      ...(node.label ? { label: node.label } : {}),
      ...(number ? (isTable ? { table_no: number } : { figure_no: number }) : {}),
      ...(node.role === 'chart' ? { chart_type: 'statistical' } : {}),
      ...(units.length > 0 ? { units_set: units } : {}),
      ...(years.length > 0 ? { years } : {}),
      ...(node.bboxes[0] ? { bbox: node.bboxes[0].bbox } : {}),
    };
    records.denseCoarse.push({
      node_id: node.node_id,
      role: isTable ? 'table' : node.role === 'chart' ? 'chart' : 'image',
      dense_text: denseText,
      title,
      summary: caption || denseText.slice(0, 300),
      filters,
      affordances: {
        has_numbers: numbers,
        supports_LOOKUP: isTable || numbers,
        supports_COMPARE: isTable ? header.length > 2 || years.length >= 2 : numbers,
        supports_TREND: node.role === 'chart' || years.length >= 3,
      },
    });
    records.sparseCoarse.push({
      id: node.node_id,
      role: isTable ? 'table' : node.role === 'chart' ? 'chart' : 'image',
      title,
      caption,
      ...(isTable ? { table_schema: schema } : {}),
      aliases: unitAliases(units),
      labels: node.label ?? '',
      body: isTable ? tableText.slice(0, opts.tableBodyChars) : nearby.slice(0, 1000),
      headings_path: parentFilters.parent_title ?? '',
      filters: { page_idx: node.page_span[0], ...(parentFilters.parent_section ? { parent_section: parentFilters.parent_section } : {}) },
    });
  }

  /** Text right around a figure (previous and next paragraph in its section), for figures without captions. */
  function nearbyText(node: DocTreeNode): string {
    const parent = node.parent_id ? view.node(node.parent_id) : undefined;
    if (!parent) return '';
    const siblings = parent.children.map((id) => view.node(id)).filter((n): n is DocTreeNode => n !== undefined);
    const i = siblings.findIndex((s) => s.node_id === node.node_id);
    return [siblings[i - 1], siblings[i + 1], siblings[i + 2]]
      .filter((s): s is DocTreeNode => s !== undefined && (s.role === 'paragraph' || s.role === 'caption'))
      .map((s) => s.text)
      .join(' ');
  }

  function addLeaf(node: DocTreeNode, parentFilters: IndexFilters): void {
    const chunks = chunkLeaf(node.text, opts.leafChunkTokens);
    const refs = node.refs.map((r) => ({ type: 'ref' as const, label: r.label, target: r.target }));
    const path = view.headingPath(node);
    const sectionTitle = parentFilters.parent_title ?? '';
    chunks.forEach((chunk, i) => {
      const id = chunks.length === 1 ? node.node_id : `${node.node_id}#c${i}`;
      const units = findUnits(chunk.text);
      const lead = leadingWords(chunk.text, opts.leafDenseWords);
      const dense = `${sectionTitle ? `${sectionTitle}: ` : ''}${lead.words}${lead.more ? ' …' : ''}`;
      const filters: IndexFilters = {
        page_idx: node.page_span[0],
        ...(parentFilters.parent_section ? { parent_section: parentFilters.parent_section } : {}),
        ...(units.length > 0 ? { units_set: units } : {}),
        ...(node.bboxes[0] ? { bbox: node.bboxes[0].bbox } : {}),
      };
      const start = node.char_span[0] + chunk.start;
      records.denseLeaf.push({
        node_id: id,
        orig_node_id: node.node_id,
        role: node.role as DenseLeafRecord['role'],
        dense_text: dense,
        raw_text: chunk.text,
        filters,
        refs,
        char_span: [start, start + chunk.text.length],
      });
      records.sparseLeaf.push({
        id,
        role: node.role as SparseDoc['role'],
        headings_path: path,
        labels: [node.label, ...refs.map((r) => r.label)].filter(Boolean).join('; '),
        aliases: unitAliases(units),
        body: chunk.text,
        filters: { page_idx: node.page_span[0], ...(parentFilters.parent_section ? { parent_section: parentFilters.parent_section } : {}) },
      });
    });
  }
}

/**
 * The first `count` words of `text` joined by single spaces, and whether it has more: `text.split(/\s+/)`, its first
 * `count` parts joined by `' '` and `parts.length > count`, without splitting the rest of a long text.
 */
export function leadingWords(text: string, count: number): { words: string; more: boolean } {
  if (!Number.isSafeInteger(count) || count < 0) {
    const parts = text.split(/\s+/);
    return { words: parts.slice(0, count).join(' '), more: parts.length > count };
  }
  const separator = /\s+/g;
  let words = '';
  let start = 0;
  for (let taken = 0; taken < count; taken++) {
    const match = separator.exec(text);
    const end = match === null ? text.length : match.index;
    words += `${taken > 0 ? ' ' : ''}${text.slice(start, end)}`;
    if (match === null) return { words, more: false };
    start = end + match[0].length;
  }
  // `count` separators were found, so the split has at least one more part (possibly empty).
  return { words, more: true };
}

/** Splits a long leaf at sentence boundaries into chunks of at most `maxTokens` (a single long sentence stays whole). */
export function chunkLeaf(text: string, maxTokens: number): Array<{ text: string; start: number }> {
  if (estimateTokens(text) <= maxTokens) return [{ text, start: 0 }];
  const sentences = splitSentences(text);
  const chunks: Array<{ text: string; start: number }> = [];
  let current = '';
  let cursor = 0;
  let start = 0;
  for (const sentence of sentences) {
    const at = text.indexOf(sentence.slice(0, 20), cursor);
    const position = at >= 0 ? at : cursor;
    if (current && estimateTokens(`${current} ${sentence}`) > maxTokens) {
      chunks.push({ text: current, start });
      current = '';
    }
    if (!current) start = position;
    current = current ? `${current} ${sentence}` : sentence;
    cursor = position + Math.min(sentence.length, 20);
  }
  if (current) chunks.push({ text: current, start });
  return chunks.map((c) => {
    // map back to exact source text so char spans point at real characters
    const exact = text.slice(c.start, Math.min(text.length, c.start + c.text.length));
    return exact.replace(/\s+/g, ' ') === c.text ? { text: exact, start: c.start } : c;
  });
}

/** parent / child / prev_next / same_page / ref / has_col edges (docs/design/index-features.md §3.5). */
export function buildGraphEdges(tree: DocTree, view: DocView = new DocView(tree)): GraphEdge[] {
  const edges: GraphEdge[] = [];
  let previousLeaf: DocTreeNode | undefined;
  for (const node of tree.nodes) {
    if (node.parent_id) {
      edges.push({ src: node.node_id, dst: node.parent_id, type: 'parent' });
      edges.push({ src: node.parent_id, dst: node.node_id, type: 'child' });
    }
    if (node.role !== 'section' && node.role !== 'document') {
      if (previousLeaf) edges.push({ src: previousLeaf.node_id, dst: node.node_id, type: 'prev_next' });
      previousLeaf = node;
      for (let p = node.page_span[0]; p <= node.page_span[1]; p++) edges.push({ src: `P${p + 1}`, dst: node.node_id, type: 'same_page' });
    }
    for (const ref of node.refs) edges.push({ src: node.node_id, dst: ref.target, type: 'ref', label: ref.label });
    if (node.role === 'table') {
      const units = tableHeader(node).map((h) => ({ h, unit: findUnits(h)[0] }));
      for (const { h, unit } of units) {
        if (!h) continue;
        edges.push({ src: node.node_id, dst: `${node.node_id}:col:${h.replace(/\s+/g, '')}`, type: 'has_col', ...(unit ? { unit } : {}) });
      }
    }
  }
  void view;
  return edges;
}

/**
 * Document frequency of terms over section subtrees (for keyword tf-idf), and the term frequencies of the subtrees of
 * sections at levels up to `keepLevel` (their keywords are scored from them: the subtree text is not read twice).
 */
function documentFrequencies(tree: DocTree, keepLevel: number): { df: Map<string, number>; sectionTerms: Map<DocTreeNode, Map<string, number>> } {
  const df = new Map<string, number>();
  const sectionTerms = new Map<DocTreeNode, Map<string, number>>();
  // Subtrees nest: the document text is read once and each subtree's counts are taken from it.
  const counter = new SliceTermCounter(tree.text);
  for (const node of tree.nodes) {
    if (node.role !== 'section') continue;
    const tf = counter.termFrequencies(node.char_span[0], node.char_span[1]);
    for (const term of tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
    if (node.level <= keepLevel) sectionTerms.set(node, tf);
  }
  return { df, sectionTerms };
}
