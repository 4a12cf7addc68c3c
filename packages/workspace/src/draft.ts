import { withoutYears } from '@doctree/schema';
import { analyzeQuery } from '@doctree/index';
import { contentWords } from '@doctree/index';
import { hasCjk, sentenceSpans } from './chunking.js';

/** `{#doc_uid}` citation markers. */
export const CITATION_MARKER = /\{#([A-Za-z0-9][A-Za-z0-9_.-]*)\}/g;

/** A sentence of a draft with the documents it cites. */
export interface DraftSentence {
  index: number;
  /** 1-based line where it starts. */
  line: number;
  /** The sentence without its citation markers. */
  text: string;
  cites: string[];
}

/**
 * Sentences of a Markdown or text draft: headings, code blocks and tables are skipped; `{#doc_uid}` markers are
 * collected (a marker standing after the sentence's full stop belongs to that sentence).
 */
export function draftSentences(draft: string): DraftSentence[] {
  const body: string[] = [];
  let inCode = false;
  for (const line of draft.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inCode = !inCode;
      body.push('');
      continue;
    }
    body.push(inCode || /^\s*(#|\||<!--)/.test(line) ? '' : line.replace(/^\s*(?:[-*+]|[0-9]+\.)\s+/, (m) => ' '.repeat(m.length)));
  }
  const text = body.join('\n').replace(/(?<=\S)\n(?=\S)/g, ' ');
  const out: DraftSentence[] = [];
  for (const span of sentenceSpans(text)) {
    const raw = text.slice(span.start, span.end);
    const cites = [...raw.matchAll(CITATION_MARKER)].map((m) => m[1]!);
    const clean = raw.replace(CITATION_MARKER, '').replace(/\s+/g, ' ').replace(/\s+([.,;:!?。])/g, '$1').trim();
    const line = text.slice(0, span.start).split('\n').length;
    if (clean.replace(/[\s.,;:!?。]/g, '') === '') {
      const previous = out[out.length - 1];
      if (previous) previous.cites.push(...cites.filter((c) => !previous.cites.includes(c)));
      continue;
    }
    out.push({ index: out.length, line, text: clean, cites: [...new Set(cites)] });
  }
  return out;
}

/** Claim types `workspace audit` recognises. */
export const CLAIM_TYPES = ['causal', 'comparative', 'quantitative', 'generalising', 'recommendation', 'superlative'] as const;
/** A claim type. */
export type ClaimType = (typeof CLAIM_TYPES)[number];

const RULES: ReadonlyArray<[ClaimType, RegExp]> = [
  ['causal', /\b(because|due to|caus(?:e|es|ed|ing)|lead(?:s)? to|led to|result(?:s|ed)? in|driv(?:e|es|en)|drove|contribut(?:e|es|ed) to|owing to|thanks to|therefore|hence|as a result|consequently)\b|导致|因为|由于|造成|引起|因此|所以/i],
  ['comparative', /\b(more|less|fewer|greater|higher|lower|larger|smaller|better|worse|than|compared (?:with|to)|relative to|versus|outperform\w*|exceed\w*|increas\w*|decreas\w*|grew|declin\w*|ros[e]|fell)\b|比|高于|低于|相比|超过|增长|下降/i],
  ['generalising', /\b(all|always|never|every|everyone|nobody|no one|universally|generally|in general|typically|invariably|the majority of|most)\b|所有|一切|总是|从不|普遍|大多数/i],
  ['recommendation', /\b(should|must|ought to|need(?:s)? to|recommend\w*|advis\w*|it is (?:essential|necessary|vital|important) to)\b|应该|应当|必须|建议/i],
  ['superlative', /\b(best|worst|largest|biggest|smallest|highest|lowest|greatest|strongest|weakest|fastest|slowest|most \w+|least \w+|leading|unprecedented|record)\b|最/i],
];

/** Rule-based claim types of a sentence (empty: not a strong claim). */
export function claimTypes(sentence: string): ClaimType[] {
  const types: ClaimType[] = [];
  for (const [type, re] of RULES) if (re.test(sentence)) types.push(type);
  const quantities = withoutYears(sentence, '');
  if (/[0-9]/.test(quantities) || /%|\b(percent|per cent|half|double|triple|million|billion|thousand)\b|倍|百分之|万|亿/i.test(quantities)) types.splice(2, 0, 'quantitative');
  return [...new Set(types)];
}

const MODALS = new Set(['should', 'must', 'would', 'could', 'might', 'shall', 'ought', 'need', 'needs']);

/** A search query for a claim: its content words (up to eight; a Chinese claim as written). */
export function suggestedQuery(claim: string): string {
  if (hasCjk(claim)) return claim.replace(/[，。！？；、]/g, ' ').replace(/\s+/g, ' ').trim();
  const words = contentWords(claim).filter((w) => (w.length > 2 || /[0-9]/.test(w)) && !MODALS.has(w));
  const unique = [...new Set(words)].slice(0, 8);
  return unique.length > 0 ? unique.join(' ') : analyzeQuery(claim).slice(0, 8).join(' ');
}

/** A file-name-safe stem of a draft's name (`My Draft v2.md` → `my-draft-v2`). */
export function draftStem(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[A-Za-z0-9]+$/, '');
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'draft'
  );
}
