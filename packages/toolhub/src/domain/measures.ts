import { DocTreeError, DOMAIN_PACK_PATTERN_MAX, escapeRegExp } from '@doctree/schema';
import type { DomainMeasure } from '@doctree/schema';

import { parseExpression, type ExprNode } from '../compute/expression-parser.js';
import type { Concept } from './concept.js';

/** One operand of a compiled measure: its variable, the line item to gather and how its cells are reduced. */
export interface CompiledMeasureOperand {
  /** Variable of the formula (`A`…`H`). */
  readonly name: string;
  /** The item as the pack writes it (a concept name or a line-item phrase). */
  readonly item: string;
  /**
   * The phrase row searches and extraction use: a concept's name when its own trigger reads it (extraction then
   * matches the concept's other wordings too), else the concept's first wording; the item itself when it names no
   * concept of the pack.
   */
  readonly phrase: string;
  /** The concept of the pack the item names, when it names one. */
  readonly concept?: string;
  /** `value`: the year asked; `average`: the mean of the year-end balances of the year asked and the year before. */
  readonly reduce: 'value' | 'average';
}

/** A named measure of a pack, compiled: what names it in a question, its formula and its operands. */
export interface CompiledMeasure {
  readonly name: string;
  /** Matches the question wordings that name the measure (its aliases as whole words, and its trigger patterns). */
  readonly trigger: RegExp;
  /** The formula over the operands' variables, as the pack writes it (`A / B`). */
  readonly formula: string;
  readonly operands: readonly CompiledMeasureOperand[];
  /** The result is shown as a percentage. */
  readonly percent: boolean;
  readonly description?: string;
}

/** The measures of `extra` first, then those of `base` that `extra` does not redefine (by name). */
export function mergeMeasures(base: readonly DomainMeasure[], extra: readonly DomainMeasure[]): DomainMeasure[] {
  const names = new Set(extra.map((m) => m.name.toLowerCase()));
  return [...extra, ...base.filter((m) => !names.has(m.name.toLowerCase()))];
}

/** An alias as a pattern source: whole words, any run of spaces or hyphens between them, case-insensitive. */
function aliasSource(alias: string): string {
  const words = alias.trim().toLowerCase().split(/[\s-]+/).filter(Boolean).map(escapeRegExp);
  return `(?<![a-z0-9])${words.join('[\\s-]+')}(?![a-z0-9])`;
}

function invalid(message: string, file: string | undefined, hint: string): DocTreeError {
  return new DocTreeError('SCHEMA_INVALID', message, { ...(file ? { file } : {}), hint });
}

const FORMULA_HINT = 'Write a measure formula over its operand names (A…H), numbers, + - * / and parentheses, e.g. "A / B" or "365 * A / B", and use every operand.';

/** The variables a formula uses; throws when it holds anything but numbers, variables, arithmetic and parentheses. */
function formulaVariables(node: ExprNode, where: string, file: string | undefined, out: Set<string>): Set<string> {
  switch (node.type) {
    case 'variable':
      out.add(node.name);
      break;
    case 'number':
      if (node.literal.percent || node.literal.scale !== undefined || node.literal.unit !== undefined) throw invalid(`domain pack measure formula at ${where} writes a number with a unit`, file, FORMULA_HINT);
      break;
    case 'unary':
      formulaVariables(node.arg, where, file, out);
      break;
    case 'binary':
      formulaVariables(node.left, where, file, out);
      formulaVariables(node.right, where, file, out);
      break;
    default:
      throw invalid(`domain pack measure formula at ${where} holds a ${node.type === 'call' ? `function call (${node.name})` : 'currency sign'}`, file, FORMULA_HINT);
  }
  return out;
}

/** Whether a pattern source risks catastrophic backtracking (a quantified group that itself ends in a quantifier). */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*]\)[+*{]/;

/**
 * Compiles the measures of a (merged) pack: each one's aliases and triggers into one pattern, its formula checked
 * (numbers, its operand names, arithmetic and parentheses only; every operand used, none unknown), its operands
 * resolved against the pack's concepts.
 *
 * @throws DocTreeError `SCHEMA_INVALID` naming the measure's place (`measures[2].formula`) and a hint.
 */
export function compileMeasures(measures: readonly DomainMeasure[], concepts: readonly Concept[], file?: string): CompiledMeasure[] {
  const byName = new Map(concepts.map((c) => [c.name.toLowerCase(), c] as const));
  return measures.map((m, i) => {
    const where = `measures[${i}]`;
    const sources = [...m.aliases.map(aliasSource), ...m.triggers];
    m.triggers.forEach((source, j) => {
      if (source.length > DOMAIN_PACK_PATTERN_MAX || NESTED_QUANTIFIER.test(source)) {
        throw invalid(`domain pack pattern at ${where}.triggers[${j}] is too long or nests quantifiers`, file, `Keep patterns under ${DOMAIN_PACK_PATTERN_MAX} characters without a quantified group ending in a quantifier.`);
      }
      try {
        new RegExp(source, 'i');
      } catch (cause) {
        throw new DocTreeError('SCHEMA_INVALID', `domain pack pattern at ${where}.triggers[${j}] is not a valid regular expression: ${(cause as Error).message}`, {
          ...(file ? { file } : {}),
          cause,
          hint: 'Write patterns as JavaScript regular-expression source strings (backslashes doubled in JSON).',
        });
      }
    });
    const names = m.operands.map((o) => o.name);
    if (new Set(names).size !== names.length) throw invalid(`domain pack measure at ${where} names an operand twice`, file, FORMULA_HINT);
    let tree: ExprNode;
    try {
      tree = parseExpression(m.formula);
    } catch (cause) {
      throw new DocTreeError('SCHEMA_INVALID', `domain pack measure formula at ${where}.formula does not parse: ${(cause as Error).message}`, { ...(file ? { file } : {}), cause, hint: FORMULA_HINT });
    }
    const used = formulaVariables(tree, `${where}.formula`, file, new Set());
    const unknown = [...used].filter((v) => !names.includes(v));
    const unused = names.filter((n) => !used.has(n));
    if (unknown.length > 0 || unused.length > 0) {
      throw invalid(`domain pack measure formula at ${where}.formula ${unknown.length > 0 ? `uses undeclared operands ${unknown.join(', ')}` : `does not use operands ${unused.join(', ')}`}`, file, FORMULA_HINT);
    }
    const operands = m.operands.map((o): CompiledMeasureOperand => {
      const concept = byName.get(o.item.toLowerCase());
      const phrase = concept ? (concept.trigger.test(concept.name) ? concept.name : (concept.aliases[0] ?? concept.name)) : o.item.toLowerCase();
      return Object.freeze({ name: o.name, item: o.item, phrase, ...(concept ? { concept: concept.name } : {}), reduce: o.reduce });
    });
    return Object.freeze({
      name: m.name,
      trigger: new RegExp(sources.map((s) => `(?:${s})`).join('|'), 'i'),
      formula: m.formula.replace(/\s+/g, ' ').trim(),
      operands: Object.freeze(operands),
      percent: m.percent,
      ...(m.description !== undefined ? { description: m.description } : {}),
    });
  });
}
