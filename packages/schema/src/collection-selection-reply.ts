import { z } from 'zod';

/**
 * What a chat model returns when it selects documents of a collection (`LlmDocumentSelector` of `@doctree/pipeline`):
 * the ids of the documents needed, most relevant first, and a short reason. Model output is untrusted: ids are
 * checked against the candidates offered before use.
 */
export const CollectionSelectionReplySchema = z.object({
  doc_ids: z.array(z.string().max(300)).max(50),
  reason: z.string().max(500).optional(),
});
/** Parsed {@link CollectionSelectionReplySchema}. */
export type CollectionSelectionReply = z.infer<typeof CollectionSelectionReplySchema>;
