import { LANGCHAIN_ADAPTERS_VERSION } from './index.js';

describe('package', () => { it('exports its format version', () => { expect(LANGCHAIN_ADAPTERS_VERSION).toBe(1); }); });
