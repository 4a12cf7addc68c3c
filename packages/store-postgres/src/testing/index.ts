/**
 * Test helpers of `@doctree/store-postgres`, published as the `@doctree/store-postgres/testing` subpath: throwaway
 * PostgreSQL (pgvector) and Redis servers for specs, started through the checkout's `tools/services`.
 */
export { announceSkip, serviceAvailability, servicesDir, startTestService } from './services.js';
export type { TestService, TestServiceKind } from './services.js';
export { describeWithService } from './service-suite.js';
export type { ServiceSuiteContext, ServiceSuiteOptions } from './service-suite.js';
