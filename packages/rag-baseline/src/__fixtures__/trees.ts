import { DocTreeSchema, type DocTree, type NodeRole, type TableData } from '@doctree/schema';
import { buildFixtureTree, type ConformanceDocument } from '@doctree/index/testing';

/** One node to place: its role, text and 0-based page; ids and spans are assigned by {@link treeFromSpecs}. */
export interface NodeSpec {
  node_id: string;
  role: NodeRole;
  /** Parent node id (default: the root `sec_0`). */
  parent?: string;
  page: number;
  text?: string;
  title?: string;
  level?: number;
  label?: string;
  table?: TableData;
  /** No bounding box (tests the `bbox: null` path). */
  noBox?: boolean;
}

/**
 * Assembles a valid DocTree the way `@doctree/ingest` does: node texts joined by blank lines into the canonical
 * text in the order given, `char_span` of each node's own text (sections: their whole subtree), one box per node on
 * its page, section page spans covering their children.
 */
export function treeFromSpecs(docId: string, pageCount: number, specs: readonly NodeSpec[]): DocTree {
  return buildFixtureTree({ doc_id: docId, title: `${docId} report`, page_count: pageCount, generator: 'rag-baseline test fixture' }, [
    { node_id: 'sec_0', role: 'document', parent: null, level: 0, title: `${docId} report`, text: '' },
    ...specs.map(({ parent, noBox, ...spec }, i) => ({
      ...spec,
      parent: parent ?? 'sec_0',
      level: spec.level ?? (spec.role === 'section' ? 1 : 2),
      bboxes: noBox ? [] : [{ page_idx: spec.page, bbox: [72, 80 + (i % 40) * 16, 540, 94 + (i % 40) * 16] as [number, number, number, number] }],
    })),
  ]);
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS = ['revenue', 'gross margin', 'operating expenses', 'capital expenditures', 'liquidity', 'debt maturities', 'pension obligations', 'research and development', 'inventory', 'foreign exchange'];
const SEGMENTS = ['Laboratory Systems', 'Industrial Sensors', 'Field Research', 'Services', 'Software'];

/**
 * A realistic 10-K-like tree of `pages` pages: numbered sections, paragraphs of 1–14 sentences with numbers,
 * abbreviations (`U.S.`, `e.g.`, `Fig. 2`) and decimals, lists, captions, figures without text, small tables, one
 * table far above 300 tokens, one sentence far above 300 tokens, a nearly empty page and a page with a node without
 * a box. Deterministic for a given seed.
 */
export function generatedReport(seed = 7, pages = 12): DocTree {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const amount = (): string => (100 + rnd() * 9000).toFixed(1);
  const pct = (): string => (rnd() * 20).toFixed(1);
  const sentence = (topic: string, page: number): string => {
    const year = 2015 + Math.floor(rnd() * 9);
    const forms = [
      `${topic[0]!.toUpperCase()}${topic.slice(1)} increased ${pct()}% to $${amount()} million in ${year}, compared with $${amount()} million in ${year - 1}.`,
      `In the U.S. market, ${topic} for the ${pick(SEGMENTS)} segment reached $${amount()} million, e.g. through higher volumes and pricing.`,
      `Management expects ${topic} to remain within a range of ${pct()}% to ${pct()}% of net sales over the next ${2 + Math.floor(rnd() * 4)} years.`,
      `As shown in Fig. ${1 + Math.floor(rnd() * 9)}, the trend in ${topic} on page ${page + 1} reflects acquisitions, divestitures and currency effects.`,
      `The ${pick(SEGMENTS)} segment reported ${topic} of ${amount()} thousand units, while the remaining segments were broadly flat.`,
      `Changes in ${topic} were driven primarily by ${pick(['pricing actions', 'restructuring', 'new product launches', 'supply constraints', 'tax reform'])} and by ${pick(['lower freight costs', 'higher wages', 'stronger demand', 'weaker demand in Europe'])}.`,
    ];
    return pick(forms);
  };
  const specs: NodeSpec[] = [];
  let sec = 0;
  let t = 0;
  let tab = 0;
  let img = 0;
  let cap = 0;
  let list = 0;
  for (let page = 0; page < pages; page++) {
    const topic = TOPICS[page % TOPICS.length]!;
    if (page === 5) {
      // A nearly empty page: just a heading and one short sentence.
      specs.push({ node_id: `sec_${++sec}`, role: 'section', title: `${sec} Signatures`, page });
      specs.push({ node_id: `t_${++t}`, role: 'paragraph', parent: `sec_${sec}`, text: 'Signed on behalf of the registrant.', page });
      continue;
    }
    if (page % 2 === 0) specs.push({ node_id: `sec_${++sec}`, role: 'section', title: `Item ${sec}. ${topic[0]!.toUpperCase()}${topic.slice(1)}`, page });
    const section = `sec_${sec}`;
    const paragraphs = 2 + Math.floor(rnd() * 4);
    for (let p = 0; p < paragraphs; p++) {
      const count = 1 + Math.floor(rnd() * 14);
      const body = Array.from({ length: count }, () => sentence(topic, page)).join(' ');
      specs.push({ node_id: `t_${++t}`, role: 'paragraph', parent: section, text: body, page, ...(page === 3 && p === 0 ? { noBox: true } : {}) });
    }
    if (page % 3 === 1) {
      const rows = [['(Millions)', '2023', '2022'], ...SEGMENTS.map((s) => [s, amount(), amount()])];
      specs.push({ node_id: `tab_${++tab}`, role: 'table', parent: section, label: `Table ${tab}`, text: rows.map((r) => r.join(' | ')).join('\n'), table: { html: '<table></table>', header_rows: 1, rows }, page });
      specs.push({ node_id: `cap_${++cap}`, role: 'caption', parent: section, label: `Table ${tab}`, text: `Table ${tab}: ${topic} by segment (in millions of USD)`, page });
    }
    if (page % 4 === 2) {
      specs.push({ node_id: `img_${++img}`, role: 'chart', parent: section, label: `Figure ${img}`, page });
      specs.push({ node_id: `cap_${++cap}`, role: 'caption', parent: section, label: `Figure ${img}`, text: `Figure ${img}: ${topic} by year`, page });
    }
    if (page % 4 === 3) {
      const items = Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => `• ${pick(SEGMENTS)}: ${sentence(topic, page)}`);
      specs.push({ node_id: `list_${++list}`, role: 'list', parent: section, text: items.join('\n'), page });
    }
    if (page === 7) {
      const rows = [['Line item', '2023', '2022', '2021'], ...Array.from({ length: 70 }, (_, r) => [`${pick(TOPICS)} adjustment ${r + 1}`, amount(), amount(), amount()])];
      specs.push({ node_id: `tab_${++tab}`, role: 'table', parent: section, label: `Table ${tab}`, text: rows.map((r) => r.join(' | ')).join('\n'), table: { html: '<table></table>', header_rows: 1, rows }, page });
    }
    if (page === 9) {
      const clauses = Array.from({ length: 60 }, () => `${pick(TOPICS)} of the ${pick(SEGMENTS)} segment as amended`).join(', and ');
      specs.push({ node_id: `t_${++t}`, role: 'paragraph', parent: section, text: `The agreement covers ${clauses}.`, page });
    }
  }
  return treeFromSpecs(`report-${seed}`, pages, specs);
}

/** The retriever conformance corpus as a tree: one node per passage on its page (sections carry their text as heading). */
export function conformanceTree(corpus: readonly ConformanceDocument[]): DocTree {
  const pageCount = Math.max(...corpus.map((d) => d.page_idx)) + 1;
  return treeFromSpecs(
    'conformance',
    pageCount,
    corpus.map((doc) =>
      doc.role === 'section'
        ? { node_id: doc.node_id, role: 'section', title: doc.text, page: doc.page_idx }
        : doc.role === 'table'
          ? { node_id: doc.node_id, role: 'table', text: doc.text, page: doc.page_idx }
          : { node_id: doc.node_id, role: 'paragraph', text: doc.text, page: doc.page_idx },
    ),
  );
}

/** A copy of the tree with one node's text replaced; the canonical text and every later span shift accordingly. */
export function editNodeText(tree: DocTree, nodeId: string, text: string): DocTree {
  const copy = structuredClone(tree);
  const node = copy.nodes.find((n) => n.node_id === nodeId)!;
  const [start, end] = node.char_span;
  const delta = text.length - (end - start);
  copy.text = copy.text.slice(0, start) + text + copy.text.slice(end);
  node.text = text;
  for (const other of copy.nodes) {
    const [a, b] = other.char_span;
    other.char_span = [a >= end && other !== node ? a + delta : a, b >= end ? b + delta : b];
  }
  return DocTreeSchema.parse(copy);
}
