import { resolveDomainPack, type CompiledDomainPack } from '@doctree/toolhub';
import type { DocTreeConfig } from '@doctree/schema';

const LOADED = new Map<string, Promise<CompiledDomainPack>>();

/**
 * The domain pack the configuration names (`domain.pack`): `generic`, `finance`, or a pack JSON file (read, validated
 * and compiled once per path); undefined for `auto` (default), where the agent chooses from the document's first pages.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (no such file), `SCHEMA_INVALID` (not JSON, not a pack, a bad pattern),
 *   `FORMAT_VERSION_UNSUPPORTED` — each with a hint.
 */
export async function domainPackFromConfig(config: DocTreeConfig): Promise<CompiledDomainPack | undefined> {
  const spec = config.domain?.pack ?? 'auto';
  if (spec === 'auto') return undefined;
  let loading = LOADED.get(spec);
  if (!loading) {
    loading = resolveDomainPack(spec);
    LOADED.set(spec, loading);
    loading.catch(() => LOADED.delete(spec));
  }
  return loading;
}
