import { POSTGRES_SCHEMA_VERSION } from './index.js';

describe('package', () => { it('exports its format version', () => { expect(POSTGRES_SCHEMA_VERSION).toBe(1); }); });
