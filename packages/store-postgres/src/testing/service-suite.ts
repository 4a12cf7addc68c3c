import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformanceTestGlobals } from '@doctree/schema/testing';
import { announceSkip, serviceAvailability, startTestService, type TestService, type TestServiceKind } from './services.js';

/** What a {@link describeWithService} suite works with, valid once its `beforeAll` ran. */
export interface ServiceSuiteContext {
  /** URL of the throwaway service. */
  readonly url: string;
  /** A temporary folder of the suite, removed after it. */
  readonly dir: string;
}

/** Options of {@link describeWithService}. */
export interface ServiceSuiteOptions {
  /** Title of the `describe` block. */
  title: string;
  /** Name in the loud skip notice when the service cannot run here. Default the title. */
  skipName?: string;
  /** Prefix of the suite's temporary folder. Default `doctree-service-`. */
  dirPrefix?: string;
}

/**
 * A jest `describe` block over a throwaway service: skipped with a loud notice when the service cannot be started on
 * this machine (see {@link serviceAvailability}); otherwise the service is started with a temporary folder before the
 * block's tests and both are removed after them.
 *
 * @example
 * ```ts
 * describeWithService('postgres', { title: 'my store against PostgreSQL' }, (pg) => {
 *   it('opens', async () => {
 *     const store = await PostgresStore.open({ url: pg.url });
 *     await store.close();
 *   });
 * });
 * ```
 */
export function describeWithService(kind: TestServiceKind, options: ServiceSuiteOptions, body: (suite: ServiceSuiteContext) => void): void {
  const { describe, it, beforeAll, afterAll } = conformanceTestGlobals('describeWithService');
  const availability = serviceAvailability(kind);
  if (!availability.ok) {
    announceSkip(options.skipName ?? options.title, availability.reason);
    describe(options.title, () => it.skip(`needs ${kind}: ${availability.reason}`, () => undefined));
    return;
  }
  describe(options.title, () => {
    let service: TestService | undefined;
    let dir: string | undefined;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), options.dirPrefix ?? 'doctree-service-'));
      service = await startTestService(kind);
    }, 90_000);
    afterAll(async () => {
      await service?.stop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    }, 30_000);
    body({
      get url(): string {
        if (!service) throw new Error(`the ${kind} service of "${options.title}" is not started yet (use it inside a test or hook)`);
        return service.url;
      },
      get dir(): string {
        if (dir === undefined) throw new Error(`the folder of "${options.title}" is not made yet (use it inside a test or hook)`);
        return dir;
      },
    });
  });
}
