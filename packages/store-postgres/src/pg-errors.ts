import { DocTreeError } from '@doctree/schema';
import { redactDsn } from './dsn.js';

/** SQLSTATE classes / codes that mean "the server is not reachable or went away". */
const CONNECTION_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE', 'EAI_AGAIN']);

/** What the store was doing, for the message (`"writing document report-2023"`), and secrets to redact. */
export interface PgErrorContext {
  action: string;
  /** Connection URL (its password is redacted from the message). */
  url?: string;
  /** Extra strings to redact. */
  secrets?: readonly string[];
  docId?: string;
}

/** True when `error` means the connection failed or was cut (retrying on a new connection may succeed). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (CONNECTION_STATES.has(code) || CONNECTION_ERRNOS.has(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection ended|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(message);
}

/**
 * Maps an error of `pg` to a {@link DocTreeError}: connection failures become `BACKEND_UNAVAILABLE` (with a hint
 * naming `npm run services`), everything else `INTERNAL`; the message never carries a password. A DocTreeError
 * passes through with its message redacted.
 */
export function toDocTreeError(error: unknown, context: PgErrorContext): DocTreeError {
  const secrets = [...(context.secrets ?? [])];
  const redact = (text: string): string => redactDsn(text, secrets);
  if (error instanceof DocTreeError) {
    const redacted = redact(error.message);
    if (redacted === error.message) return error;
    return new DocTreeError(error.code, redacted, { ...(error.hint === undefined ? {} : { hint: redact(error.hint) }), ...(error.nodeId === undefined ? {} : { nodeId: error.nodeId }) });
  }
  const raw = error instanceof Error ? error.message : String(error);
  const where = context.url === undefined ? '' : ` (${redact(context.url)})`;
  const docPart = context.docId === undefined ? '' : ` [document ${context.docId}]`;
  if (isConnectionError(error)) {
    return new DocTreeError('BACKEND_UNAVAILABLE', `PostgreSQL unreachable while ${context.action}${where}${docPart}: ${redact(raw)}`, {
      hint: 'Check that the server is running and the URL is right (for development: npm run services prints a local one).',
    });
  }
  const state = (error as { code?: unknown } | null)?.code;
  return new DocTreeError('INTERNAL', `PostgreSQL error while ${context.action}${where}${docPart}${typeof state === 'string' ? ` [${state}]` : ''}: ${redact(raw)}`);
}
