import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PageRanker, parsePageRankerModel } from '@doctree/toolhub';
import { DocTreeError, type DocTreeConfig } from '@doctree/schema';

const LOADED = new Map<string, Promise<PageRanker>>();

/**
 * The page ranker the configuration asks for: the model file named by `agent.page_ranker` (read and validated once per
 * path), or undefined for the model shipped with `@doctree/toolhub`.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (no such file), `SCHEMA_INVALID` (not JSON, or not a page ranker model).
 */
export async function pageRankerFromConfig(config: DocTreeConfig): Promise<PageRanker | undefined> {
  const path = config.agent.page_ranker;
  if (path === null || path === undefined) return undefined;
  const file = resolve(path);
  let loading = LOADED.get(file);
  if (!loading) {
    loading = (async () => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (cause) {
        throw new DocTreeError('INPUT_NOT_FOUND', 'the page ranker model file (agent.page_ranker) cannot be read', { file, cause, hint: 'Fit one with `node tools/fit/fit-page-ranker.mjs --out FILE`, or set agent.page_ranker to null.' });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new DocTreeError('SCHEMA_INVALID', `the page ranker model is not valid JSON: ${(cause as Error).message}`, { file, cause });
      }
      return new PageRanker({ model: parsePageRankerModel(json, file) });
    })();
    LOADED.set(file, loading);
    loading.catch(() => LOADED.delete(file));
  }
  return loading;
}
