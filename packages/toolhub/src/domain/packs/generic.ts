import type { DomainPackInput } from '@doctree/schema';

/**
 * The generic domain pack: what holds for documents of any field — a few abbreviations of ordinary writing and the
 * people an organisation employs. Every other built-in pack extends it; a user's pack does too unless it says
 * `"extends": "none"`.
 */
export const GENERIC_PACK: DomainPackInput = {
  format: 'doctree.domain-pack',
  version: 1,
  name: 'generic',
  description: 'Any document: manuals, papers, brochures, slide decks, reports.',
  extends: 'none',
  abbreviations: [
    { short: 'yoy', long: 'year over year' },
    { short: 'y/y', long: 'year over year' },
  ],
  concepts: [
    {
      name: 'employees',
      triggers: [String.raw`\bemployees\b|\bheadcount\b|\bworkforce\b|\bstaff\b|\bhow many people (?:did|does|do|were|are) (?:\w+ ){0,3}employ`],
      aliases: ['employees', 'full-time employees', 'headcount', 'workforce', 'employed'],
      general: true,
    },
  ],
  // Metrics where less is better: "the best model" has the lowest of them.
  lower_is_better: ['error', 'errors', 'error rate', 'loss', 'perplexity', 'latency', 'delay', 'response time', 'run time', 'runtime', 'inference time', 'wer', 'cer', 'mae', 'mse', 'rmse', 'mape', 'ece', 'failure rate', 'miss rate', 'false positive rate', 'false negative rate'],
};
