import type { BlockFlag, ContentBlock, ContentList } from '@doctree/schema';

/** What one rule changed, for the enhancer report. */
export interface RuleOutcome {
  /** Number of blocks the rule flagged, rewrote, merged or removed. */
  changed: number;
}

/** A small, independent enhancement rule: takes blocks in reading order, returns new blocks. Pure. */
export interface EnhancerRule {
  readonly name: string;
  apply(blocks: ContentBlock[], list: ContentList): { blocks: ContentBlock[]; outcome: RuleOutcome };
}

/** Returns a copy of the block with the flag added (once). */
export function withFlag<B extends ContentBlock>(block: B, flag: BlockFlag): B {
  const flags = block.flags ?? [];
  return flags.includes(flag) ? block : { ...block, flags: [...flags, flag] };
}

/** True when the block carries the flag. */
export function hasFlag(block: ContentBlock, flag: BlockFlag): boolean {
  return (block.flags ?? []).includes(flag);
}

/** The visible text of a block (items joined for lists, empty for images and tables). */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'list':
      return block.list_items.join('\n');
    case 'code':
      return block.code_body;
    case 'image':
    case 'chart':
    case 'table':
      return '';
    default:
      return block.text;
  }
}
