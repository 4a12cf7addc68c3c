import { ContentListSchema, type ContentBlock, type ContentList } from '@doctree/schema';

/** Builds content-list blocks for tests: letter-size pages, sequential ids and read order. */
export class BlockFactory {
  private n = 0;

  block(fields: Record<string, unknown>): ContentBlock {
    this.n += 1;
    return {
      block_id: `b_${this.n}`,
      read_order: this.n,
      origin: 'pdf',
      page_size: { width: 612, height: 792 },
      bbox: [72, 300, 540, 312],
      ...fields,
    } as ContentBlock;
  }

  text(text: string, page_idx = 0, bbox: [number, number, number, number] = [72, 300, 540, 312]): ContentBlock {
    return this.block({ type: 'text', text, page_idx, bbox });
  }

  title(text: string, text_level: number, page_idx = 0): ContentBlock {
    return this.block({ type: 'title', text, text_level, page_idx, bbox: [72, 200, 540, 216] });
  }
}

/** Wraps blocks into a valid content list with `pages` pages. */
export function contentList(blocks: ContentBlock[], pages: number): ContentList {
  return ContentListSchema.parse({
    format: 'doctree.content_list',
    version: 1,
    stage: 'adapted',
    doc_id: 'fixture',
    source: { filename: 'fixture.pdf', kind: 'pdf', sha256: 'c'.repeat(64), bytes: 1 },
    pages: Array.from({ length: pages }, (_, i) => ({ page_idx: i, width: 612, height: 792, has_text_layer: true })),
    blocks,
    generator: 'test',
  });
}
