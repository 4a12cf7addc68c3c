/**
 * @doctree/schema/node — the Node-only helpers shared by every DocTree package (the main entry stays free of Node
 * built-ins): atomic file and folder writes, the file of the calling module.
 */
export { callerModuleFile } from './module-file.js';
export { temporaryPathFor, writeAtomically, writeFileAtomic, writeFilesAtomically, swapDirectory } from './atomic-write.js';
export type { WriteFilesAtomicallyOptions } from './atomic-write.js';
