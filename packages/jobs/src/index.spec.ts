import { JOBS_FORMAT_VERSION } from './index.js';

describe('package', () => { it('exports its format version', () => { expect(JOBS_FORMAT_VERSION).toBe(1); }); });
