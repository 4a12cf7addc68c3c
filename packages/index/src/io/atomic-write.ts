/** Atomic writes live in `@doctree/schema/node` (one implementation for every package); re-exported for index's callers. */
export { swapDirectory, temporaryPathFor, writeAtomically, writeFileAtomic } from '@doctree/schema/node';
