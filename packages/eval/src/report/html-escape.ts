/** Escapes text for HTML element content and attribute values: the one implementation of `@doctree/schema`. */
export { escapeHtml } from '@doctree/schema';
