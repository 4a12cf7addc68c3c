import { authorYearCitations, type ContentList } from '@doctree/schema';
import { blockBodyText } from './chunk.js';
import { countWords, sentenceSpans } from './chunking.js';
import { isFurniture } from './parse.js';
import type { SourceRecord } from './sources.js';

/** Sentences of a parsed instruction document (furniture left out). */
function sentencesOf(list: ContentList): { headings: string[]; sentences: string[] } {
  const headings: string[] = [];
  const sentences: string[] = [];
  for (const block of list.blocks) {
    if (isFurniture(block)) continue;
    if (block.type === 'title') {
      headings.push(`${'  '.repeat(Math.max(0, block.text_level - 1))}- ${block.text.trim()}`);
      continue;
    }
    const text = blockBodyText(block);
    for (const span of sentenceSpans(text)) sentences.push(text.slice(span.start, span.end).replace(/\s+/g, ' '));
  }
  return { headings, sentences };
}

const REQUIREMENT = /\b(must|should|required?|requirements?|criteria|criterion|marks?|grades?|assess\w*|word (?:count|limit)|deadline|avoid|include|referenc\w*|cite|citation)\b|必须|应该|应当|要求|评分|字数|引用|避免/i;

function quoteLine(text: string): string {
  return `> ${text.replace(/\s+/g, ' ').slice(0, 400)}`;
}

/**
 * `meta/instruction_brief.md`: what guidance, feedback and slides ask for (their requirement sentences, quoted as
 * data). Instruction material is never citable and never enters an evidence pack.
 */
export function renderInstructionBrief(docs: ReadonlyArray<{ source: SourceRecord; list: ContentList }>, generatedAt: string): string {
  const lines = ['# Instruction brief', '', `Generated: ${generatedAt}`, '', 'From raw/instruction/{guidance,feedback,slides}. These files are **citable=false**: they guide the writing and are never cited or put into an evidence pack. Quoted text is the documents\' own words.', ''];
  const relevant = docs.filter((d) => d.source.source_subtype !== 'exemplars');
  if (relevant.length === 0) lines.push('No guidance, feedback or slides yet.');
  for (const { source, list } of relevant) {
    const { headings, sentences } = sentencesOf(list);
    const requirements = sentences.filter((s) => REQUIREMENT.test(s));
    const picked = (requirements.length > 0 ? requirements : sentences).slice(0, 15);
    lines.push(`## ${source.source_subtype}: ${source.doc_uid}`, '', `- file: \`${source.raw_path}\` · citable: false`, `- sentences: ${sentences.length}, of which requirements: ${requirements.length}`, '');
    if (headings.length > 0) lines.push('Outline:', '', ...headings.slice(0, 30), '');
    lines.push(requirements.length > 0 ? 'Requirements:' : 'Opening sentences:', '', ...picked.map(quoteLine), '');
  }
  return `${lines.join('\n')}\n`;
}

const FIRST_PERSON = /\b(I|we|our|us|my)\b|我们|我/;
const NUMERIC = /\[[0-9]+(?:[-–,][0-9]+)*\]/g;

/** `meta/style_brief.md`: how the exemplars read (sentence length, person, citation style, outline). */
export function renderStyleBrief(docs: ReadonlyArray<{ source: SourceRecord; list: ContentList }>, generatedAt: string): string {
  const lines = ['# Style brief', '', `Generated: ${generatedAt}`, '', 'From raw/instruction/exemplars (citable=false: style models, never sources).', ''];
  const exemplars = docs.filter((d) => d.source.source_subtype === 'exemplars');
  if (exemplars.length === 0) lines.push('No exemplars yet: put model texts under raw/instruction/exemplars/.');
  for (const { source, list } of exemplars) {
    const { headings, sentences } = sentencesOf(list);
    const text = sentences.join(' ');
    const words = sentences.map(countWords);
    const mean = words.length ? words.reduce((a, b) => a + b, 0) / words.length : 0;
    const firstPerson = sentences.filter((s) => FIRST_PERSON.test(s)).length;
    lines.push(
      `## ${source.doc_uid}`,
      '',
      `- file: \`${source.raw_path}\``,
      `- sentences: ${sentences.length}; mean length ${mean.toFixed(1)} words; longest ${Math.max(0, ...words)}`,
      `- first person in ${sentences.length ? ((firstPerson / sentences.length) * 100).toFixed(0) : 0} % of sentences`,
      `- citations: author-year ${authorYearCitations(text).length}, numeric ${(text.match(NUMERIC) ?? []).length}`,
      '',
    );
    if (headings.length > 0) lines.push('Outline:', '', ...headings.slice(0, 40), '');
  }
  return `${lines.join('\n')}\n`;
}
