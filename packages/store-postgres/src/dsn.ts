import { REDACTED } from '@doctree/schema';

/** The user-info part of any URL (`postgres://`, `redis://`, `mysql://`…): `scheme://user:password@`. */
const URL_WITH_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*)(?::([^\s/@]*))?@/gi;
/** `password=…` in libpq key/value strings and query parameters (`?password=…`). */
const PASSWORD_PARAM = /\b(password|pass|pwd)=('(?:[^'\\]|\\.)*'|[^\s&;]+)/gi;

/**
 * Replaces the password of every connection string in `text` by `[redacted]` (`postgres://user:[redacted]@host/db`,
 * `redis://:[redacted]@host`, `password=[redacted]`), and any occurrence of the given secrets. Applied to every message, log line
 * and report the Postgres store and the job queue produce.
 *
 * @example
 * ```ts
 * redactDsn('connect to postgres://app:s3cret@db:5432/doctree failed'); // 'connect to postgres://app:[redacted]@db:5432/doctree failed'
 * ```
 */
export function redactDsn(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(URL_WITH_USERINFO, (_match, scheme: string, user: string, password: string | undefined) => (password === undefined ? `${scheme}${user}@` : `${scheme}${user}:${REDACTED}@`));
  out = out.replace(PASSWORD_PARAM, (_match, key: string) => `${key}=${REDACTED}`);
  for (const secret of secrets) if (secret.length >= 3) out = out.split(secret).join(REDACTED);
  return out;
}

/** The password of a connection URL (decoded), or undefined; used to redact it wherever it may appear verbatim. */
export function dsnPassword(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.password ? decodeURIComponent(parsed.password) : undefined;
  } catch {
    return undefined;
  }
}

/** True for a `postgres://` / `postgresql://` URL (what selects the Postgres store). */
export function isPostgresUrl(value: string | undefined): value is string {
  return typeof value === 'string' && /^postgres(?:ql)?:\/\//i.test(value.trim());
}
