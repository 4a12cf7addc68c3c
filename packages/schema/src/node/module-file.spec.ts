import { callerModuleFile } from './module-file.js';

describe('callerModuleFile', () => {
  it('names the module that calls it, not its own', () => {
    expect(callerModuleFile()).toBe(__filename);
  });
});
