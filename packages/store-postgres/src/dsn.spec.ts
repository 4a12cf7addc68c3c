import { DocTreeError } from '@doctree/schema';
import { dsnPassword, isPostgresUrl, redactDsn } from './dsn.js';
import { toDocTreeError } from './pg-errors.js';

describe('redactDsn', () => {
  it('hides passwords of postgres and redis URLs and libpq key/value strings, keeps the rest readable', () => {
    expect(redactDsn('postgres://app:s3cret@db.internal:5432/doctree')).toBe('postgres://app:[redacted]@db.internal:5432/doctree');
    expect(redactDsn('postgresql://app@db/doctree')).toBe('postgresql://app@db/doctree');
    expect(redactDsn('queue rediss://:tok-en@cache:6380/0 and redis://user:pw@r')).toBe('queue rediss://:[redacted]@cache:6380/0 and redis://user:[redacted]@r');
    expect(redactDsn("host=db user=app password='a b' dbname=x")).toBe('host=db user=app password=[redacted] dbname=x');
    expect(redactDsn('postgres://app@db/x?sslmode=require&password=pw1')).toBe('postgres://app@db/x?sslmode=require&password=[redacted]');
    expect(redactDsn('the password p%40ss leaked', ['p%40ss'])).toBe('the password [redacted] leaked');
  });

  it('reads the password of a URL and recognises postgres URLs', () => {
    expect(dsnPassword('postgres://u:p%40ss@h/d')).toBe('p@ss');
    expect(dsnPassword('postgres://u@h/d')).toBeUndefined();
    expect(isPostgresUrl('postgresql://h/d')).toBe(true);
    expect(isPostgresUrl('redis://h')).toBe(false);
  });

  it('maps pg errors to DocTreeErrors without the password', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const mapped = toDocTreeError(refused, { action: 'connecting', url: 'postgres://u:topsecret@127.0.0.1:1/d', secrets: ['topsecret'] });
    expect(mapped).toBeInstanceOf(DocTreeError);
    expect(mapped.code).toBe('BACKEND_UNAVAILABLE');
    expect(mapped.message).toBe('PostgreSQL unreachable while connecting (postgres://u:[redacted]@127.0.0.1:1/d): connect ECONNREFUSED 127.0.0.1:1');
    const sql = Object.assign(new Error('password authentication failed near topsecret'), { code: '28P01' });
    expect(toDocTreeError(sql, { action: 'x', secrets: ['topsecret'] }).message).not.toContain('topsecret');
  });
});
