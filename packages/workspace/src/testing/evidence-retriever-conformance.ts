import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSimplePdf, type PdfPageSpec } from '@doctree/ingest';
import { conformanceTestGlobals } from '@doctree/schema/testing';
import { selectQuote } from '../quotes.js';
import type { EvidenceRetriever } from '../retrieval.js';

/** One document of the conformance corpus: a PDF whose pages hold these paragraphs. */
export interface EvidenceConformanceDocument {
  /** The doc_uid the retriever must report (the PDF is written as `<doc_uid>.pdf`). */
  doc_uid: string;
  /** Running header printed on every page. */
  title: string;
  /** Paragraphs of each page, page 1 first. */
  pages: ReadonlyArray<readonly string[]>;
}

/** The corpus every evidence retriever is checked on (made-up facts; each probe query below has one relevant page). */
export const EVIDENCE_RETRIEVER_CONFORMANCE_CORPUS: readonly EvidenceConformanceDocument[] = [
  {
    doc_uid: 'birchwood-orchestra-2021',
    title: 'Birchwood Community Orchestra - Season Report',
    pages: [
      [
        'The Birchwood Community Orchestra has 58 amateur players and rehearses every Tuesday evening in the old grain exchange.',
        'During the 2021 season the orchestra gave 14 concerts, nine of them in village churches and five in the town square bandstand.',
      ],
      [
        'Ticket sales brought in 23,700 pounds, while the hire of sheet music cost 4,150 pounds over the season.',
        'A grant from the county arts fund paid for two new timpani and the repair of the double bass section instruments.',
      ],
      [
        'The youth programme taught 31 pupils to play string instruments, and six of them joined the main orchestra in the autumn.',
        'The committee decided to record the winter concert and to sell the recordings at the spring festival.',
      ],
    ],
  },
  {
    doc_uid: 'saltmarsh-ferry-2022',
    title: 'Saltmarsh Ferry Service - Operations Review',
    pages: [
      [
        'The Saltmarsh ferry crosses the estuary between Kellhaven and Dunmere Point eleven times a day in summer.',
        'The crossing takes twenty-two minutes, and the vessel carries up to 90 passengers and 12 cars on each trip.',
      ],
      [
        'Fuel consumption fell by 18 percent after the engines were rebuilt during the winter dry dock.',
        'Fog cancelled 27 crossings in November, the highest monthly figure recorded since the service began.',
      ],
    ],
  },
];

/** Probe queries: each has one relevant page (doc_uid, 1-based page). */
const PROBES: ReadonlyArray<{ query: string; doc_uid: string; page: number }> = [
  { query: 'how many concerts did the orchestra give in village churches', doc_uid: 'birchwood-orchestra-2021', page: 1 },
  { query: 'grant for new timpani and double bass repair', doc_uid: 'birchwood-orchestra-2021', page: 2 },
  { query: 'pupils learning string instruments in the youth programme', doc_uid: 'birchwood-orchestra-2021', page: 3 },
  { query: 'crossings cancelled by fog in November', doc_uid: 'saltmarsh-ferry-2022', page: 2 },
];

/** Wraps a paragraph into lines of at most `width` characters (the specs' PDF fixtures use it too). */
export function wrap(text: string, width = 88): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A PDF page: running header, paragraphs (wrapped, a gap between them) and a page number. */
function pdfPage(paragraphs: readonly string[], header: string, n: number): PdfPageSpec {
  const runs: PdfPageSpec['runs'] = [{ text: header, x: 72, y: 40, size: 9 }];
  let y = 80;
  for (const paragraph of paragraphs) {
    for (const line of wrap(paragraph)) {
      runs.push({ text: line, x: 72, y, size: 11 });
      y += 14;
    }
    y += 10;
  }
  runs.push({ text: String(n), x: 300, y: 770, size: 9 });
  return { runs };
}

/** Writes the corpus as PDFs (`<doc_uid>.pdf`) into `dir` and returns their paths. */
export function writeEvidenceConformancePdfs(dir: string, corpus: readonly EvidenceConformanceDocument[] = EVIDENCE_RETRIEVER_CONFORMANCE_CORPUS): string[] {
  mkdirSync(dir, { recursive: true });
  return corpus.map((doc) => {
    const path = join(dir, `${doc.doc_uid}.pdf`);
    writeFileSync(path, writeSimplePdf(doc.pages.map((p, i) => pdfPage(p, doc.title, i + 1)), { title: doc.title }));
    return path;
  });
}

/** Builds the retriever under test over the corpus (e.g. from {@link writeEvidenceConformancePdfs}). */
export type EvidenceRetrieverConformanceFactory = (corpus: readonly EvidenceConformanceDocument[]) => EvidenceRetriever | Promise<EvidenceRetriever>;

/** Options of {@link runEvidenceRetrieverConformance}. */
export interface EvidenceRetrieverConformanceOptions {
  /** Timeout of the factory and of each test, ms. Default 120000 (the factory parses and indexes PDFs). */
  timeoutMs?: number;
}

/** Defaults of {@link EvidenceRetrieverConformanceOptions}. */
export const EVIDENCE_RETRIEVER_CONFORMANCE_DEFAULTS = { timeoutMs: 120_000 } as const satisfies EvidenceRetrieverConformanceOptions;

const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();
const pageId = (docUid: string, page: number): string => `${docUid}:p${String(page).padStart(3, '0')}`;

/**
 * Registers the shared conformance suite of {@link EvidenceRetriever} implementations with the running test framework
 * (global `describe` / `it` / `beforeAll` / `expect`). The factory builds the retriever over
 * {@link EVIDENCE_RETRIEVER_CONFORMANCE_CORPUS}. Checks: a build id and an embedder; every corpus document searchable;
 * one parent per page (`doc_uid:p003` is page 3) holding that page's paragraphs; at most `k` hits, best first, scores in
 * [0, 1], unique; each hit's child known by id and a verbatim slice of its parent; the relevant page in the top 3 for
 * each probe, with a quote (`selectQuote`) verbatim in the page's text; `accept` honoured; determinism; `k = 0` and an
 * unmatched query answered with an array.
 *
 * @example
 * ```ts
 * import { runEvidenceRetrieverConformance, writeEvidenceConformancePdfs } from '@doctree/workspace/testing';
 * runEvidenceRetrieverConformance('my store', async (corpus) => MyRetriever.build(writeEvidenceConformancePdfs(tmp, corpus)));
 * ```
 */
export function runEvidenceRetrieverConformance(name: string, factory: EvidenceRetrieverConformanceFactory, options: EvidenceRetrieverConformanceOptions = {}): void {
  const { describe, it, beforeAll, expect } = conformanceTestGlobals('runEvidenceRetrieverConformance');
  const { timeoutMs } = { ...EVIDENCE_RETRIEVER_CONFORMANCE_DEFAULTS, ...options };
  const corpus = EVIDENCE_RETRIEVER_CONFORMANCE_CORPUS;
  const uids = new Set(corpus.map((d) => d.doc_uid));
  describe(`EvidenceRetriever conformance: ${name}`, () => {
    let retriever: EvidenceRetriever;
    beforeAll(async () => {
      retriever = await factory(corpus);
    }, timeoutMs);

    it('names its build and embedder and can search every document', () => {
      expect(typeof retriever.buildId).toBe('string');
      expect(retriever.buildId.length).toBeGreaterThan(0);
      expect(typeof retriever.models['embedder']).toBe('string');
      expect([...retriever.documents()].sort()).toEqual([...uids].sort());
    });

    it('has one parent per page that holds the paragraphs of that page', () => {
      for (const doc of corpus) {
        doc.pages.forEach((paragraphs, i) => {
          const parent = retriever.parent(pageId(doc.doc_uid, i + 1));
          expect({ id: pageId(doc.doc_uid, i + 1), found: parent !== undefined }).toEqual({ id: pageId(doc.doc_uid, i + 1), found: true });
          expect({ doc_uid: parent?.doc_uid, page_index: parent?.page_index, page_start: parent?.page_start, page_end: parent?.page_end }).toEqual({ doc_uid: doc.doc_uid, page_index: i, page_start: i + 1, page_end: i + 1 });
          for (const paragraph of paragraphs) expect(flat(parent!.parent_text)).toContain(flat(paragraph));
        });
      }
      expect(retriever.parent('no-such-doc:p001')).toBe(undefined);
      expect(retriever.child('no-such-doc:p001:c01')).toBe(undefined);
    });

    it('returns at most k hits, best first, scores in [0, 1], each a verbatim slice of a known parent', async () => {
      for (const k of [1, 3, 20]) {
        const hits = await retriever.search('concerts ferry crossings instruments fuel', { k });
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.length).toBeLessThanOrEqual(k);
        expect(new Set(hits.map((h) => h.chunk.chunk_id)).size).toBe(hits.length);
        for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
        for (const hit of hits) {
          expect(Number.isFinite(hit.score) && hit.score >= 0 && hit.score <= 1).toBe(true);
          expect(uids.has(hit.chunk.doc_uid)).toBe(true);
          expect(retriever.child(hit.chunk.chunk_id)).toEqual(hit.chunk);
          const parent = retriever.parent(hit.chunk.parent_id);
          expect(parent?.doc_uid).toBe(hit.chunk.doc_uid);
          expect(parent?.parent_text.slice(hit.chunk.char_start, hit.chunk.char_end)).toBe(hit.chunk.text);
        }
      }
    }, timeoutMs);

    it('ranks the relevant page in the top 3, with a quote verbatim on that page', async () => {
      for (const probe of PROBES) {
        const hits = await retriever.search(probe.query, { k: 3 });
        const top = hits.map((h) => `${h.chunk.doc_uid} p.${retriever.parent(h.chunk.parent_id)?.page_start}`);
        expect({ query: probe.query, found: top.includes(`${probe.doc_uid} p.${probe.page}`), top }).toEqual({ query: probe.query, found: true, top });
        const hit = hits.find((h) => h.chunk.parent_id === pageId(probe.doc_uid, probe.page))!;
        const quote = selectQuote(hit.chunk.text, probe.query);
        expect(quote === null ? 'no quote' : 'quote').toBe('quote');
        expect(retriever.parent(hit.chunk.parent_id)!.parent_text).toContain(quote!.text);
      }
    }, timeoutMs);

    it('returns only children the filter accepts', async () => {
      const only = 'saltmarsh-ferry-2022';
      const hits = await retriever.search('how many concerts did the orchestra give', { k: 5, accept: (c) => c.doc_uid === only });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(hit.chunk.doc_uid).toBe(only);
      expect(await retriever.search('ferry crossings', { k: 5, accept: () => false })).toEqual([]);
    }, timeoutMs);

    it('is deterministic and answers k = 0 or an unmatched query with an array', async () => {
      const a = await retriever.search('sheet music and ticket sales', { k: 5 });
      const b = await retriever.search('sheet music and ticket sales', { k: 5 });
      expect(b.map((h) => [h.chunk.chunk_id, h.score])).toEqual(a.map((h) => [h.chunk.chunk_id, h.score]));
      expect(await retriever.search('ferry crossings', { k: 0 })).toEqual([]);
      expect(Array.isArray(await retriever.search('zzqqx yyvvw', { k: 5 }))).toBe(true);
    }, timeoutMs);
  });
}
