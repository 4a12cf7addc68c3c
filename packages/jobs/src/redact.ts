import { REDACTED } from '@doctree/schema';

/** `text` with the password of every URL (`redis://:pw@…`, `postgres://u:pw@…`) replaced by `[redacted]`. */
export function redactUrl(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*):([^\s/@]*)@/gi, (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`);
}
