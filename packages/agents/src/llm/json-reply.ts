import { DocTreeError, formatIssues } from '@doctree/schema';
import type { z } from 'zod';

/** Longest reply excerpt quoted in an error message. */
const EXCERPT = 160;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT)}…` : flat;
}

/**
 * Parses a model's JSON reply and validates it with `schema` (a trust boundary: model output is untrusted).
 * Accepts the bare JSON object or one fenced ```json block, nothing else — prose around JSON is rejected rather
 * than mined for an object. Throws `LLM_BAD_OUTPUT` naming `what`, the first bad field and an excerpt of the reply.
 */
export function parseJsonReply<T>(text: string, schema: z.ZodType<T>, what: string): T {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  const body = fenced ? fenced[1]!.trim() : trimmed;
  if (body === '') throw new DocTreeError('LLM_BAD_OUTPUT', `The model returned an empty reply for the ${what}`);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new DocTreeError('LLM_BAD_OUTPUT', `The model's ${what} is not valid JSON: ${excerpt(body)}`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new DocTreeError('LLM_BAD_OUTPUT', `The model's ${what} does not match its schema: ${formatIssues(parsed.error)}`, {
      details: { reply: excerpt(body) },
    });
  }
  return parsed.data;
}
