import type { ContentList } from '@doctree/schema';
import { captionGuardRule } from './caption-guard.js';
import type { EnhancerRule } from './enhancer-rule.js';
import { headingCleanupRule } from './heading-cleanup.js';
import { referenceMarkingRule } from './reference-marking.js';
import { repeatedFurnitureRule } from './repeated-furniture.js';
import { splitWordRepairRule } from './split-word-repair.js';
import { subfigureMergeRule } from './subfigure-merge.js';
import { textRepairRule } from './text-repair.js';

/** Options of {@link enhanceContentList}. */
export interface EnhanceOptions {
  /** Rules to run, in order. Default {@link defaultEnhancerRules}. */
  rules?: readonly EnhancerRule[];
}

/** What the enhancer did: blocks changed per rule. */
export interface EnhanceReport {
  rules: Array<{ name: string; changed: number }>;
}

/** The default rule chain: furniture, split words, caption guard, sub-figures, headings, text repair, references. */
export function defaultEnhancerRules(): EnhancerRule[] {
  return [repeatedFurnitureRule(), splitWordRepairRule(), captionGuardRule(), subfigureMergeRule(), headingCleanupRule(), textRepairRule(), referenceMarkingRule()];
}

/**
 * Runs the enhancer rules over an adapted content list and returns the enhanced list
 * (`content_list.enhanced.json`) with read order renumbered, plus a per-rule report. Pure: no I/O.
 */
export function enhanceContentList(list: ContentList, options: EnhanceOptions = {}): { list: ContentList; report: EnhanceReport } {
  const rules = options.rules ?? defaultEnhancerRules();
  let blocks = [...list.blocks].sort((a, b) => a.read_order - b.read_order);
  const report: EnhanceReport = { rules: [] };
  for (const rule of rules) {
    const result = rule.apply(blocks, list);
    blocks = result.blocks;
    report.rules.push({ name: rule.name, changed: result.outcome.changed });
  }
  return {
    list: { ...list, stage: 'enhanced', blocks: blocks.map((b, i) => (b.read_order === i ? b : { ...b, read_order: i })) },
    report,
  };
}
