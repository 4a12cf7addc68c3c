import { DocTreeError } from '@doctree/schema';
import { DocumentQueue } from './document-queue.js';

describe('DocumentQueue.open', () => {
  it('gives up on an unreachable queue within its connect timeout, naming the cause without the password', async () => {
    const started = Date.now();
    let caught: unknown;
    try {
      await DocumentQueue.open({ url: 'redis://:q-open-pw@127.0.0.1:1', connectTimeoutMs: 1500 });
    } catch (error) {
      caught = error;
    }
    expect(Date.now() - started).toBeLessThan(8000);
    expect(DocTreeError.isInstance(caught)).toBe(true);
    const error = caught as DocTreeError;
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    // With BullMQ's Redis driver installed the connect is refused; without it, the fix is named.
    expect(`${error.message} ${error.hint ?? ''}`).toMatch(/ECONNREFUSED|no connection within 1500 ms|ioredis/);
    expect(JSON.stringify({ message: error.message, hint: error.hint })).not.toContain('q-open-pw');
  }, 20_000);
});
