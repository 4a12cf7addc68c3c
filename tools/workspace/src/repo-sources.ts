import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root (this file lives in `tools/workspace/src`). */
export const REPO_ROOT = join(__dirname, '..', '..', '..');

/** Shipped TypeScript sources under a folder: specs, fixtures, declarations and build output left out. */
export function shippedSources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === '__fixtures__') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) shippedSources(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}
