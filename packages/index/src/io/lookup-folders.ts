import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Where to look for installed files without `require.resolve`: the current directory, then the real folder of the
 * running script (`process.argv[1]`, which covers global and `npx` installs and linked workspaces), each followed by
 * its ancestors up to the root, nearest first.
 */
export function lookupFolders(): string[] {
  const starts = [process.cwd()];
  const script = process.argv[1];
  if (script !== undefined) {
    try {
      starts.push(dirname(realpathSync(script)));
    } catch {
      // The script path may not exist (REPL, eval); the current directory is enough then.
    }
  }
  const folders: string[] = [];
  for (const start of starts) {
    for (let at = resolve(start); ; at = dirname(at)) {
      folders.push(at);
      if (dirname(at) === at) break;
    }
  }
  return folders;
}
