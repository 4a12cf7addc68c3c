/**
 * `text` with every regular-expression metacharacter escaped, so that it matches itself inside a `RegExp` (a phrase
 * from a question or a document is data, never a pattern).
 *
 * @example
 * ```ts
 * new RegExp(`\\b${escapeRegExp('R&D (net)')}\\b`, 'i').test('R&D (net) rose'); // true
 * ```
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
