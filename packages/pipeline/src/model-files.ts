import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AnswerCalibrator, parseAnswerCalibrationModel } from '@doctree/agents';
import { PageRanker, parsePageRankerModel } from '@doctree/toolhub';
import { DocTreeError, type DocTreeConfig } from '@doctree/schema';

const LOADED = new Map<string, Promise<unknown>>();

/** What {@link loadModelFile} needs to know of one kind of fitted model. */
interface ModelFileKind<T> {
  /** The configuration key that names the file, e.g. `agent.page_ranker`. */
  key: string;
  /** What the file holds, for messages ("page ranker model"). */
  what: string;
  /** The command that writes such a file. */
  fit: string;
  /** Validates the parsed JSON (throws `SCHEMA_INVALID` naming the file). */
  parse: (json: unknown, file: string) => T;
}

/**
 * Reads, parses and validates a fitted model file once per path and kind (later calls share the result; a failed read
 * is retried next time).
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (no such file), `SCHEMA_INVALID` (not JSON, or not that kind of model).
 */
async function loadModelFile<T>(path: string, kind: ModelFileKind<T>): Promise<T> {
  const file = resolve(path);
  const cacheKey = `${kind.key}\u0000${file}`;
  let loading = LOADED.get(cacheKey) as Promise<T> | undefined;
  if (!loading) {
    loading = (async () => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (cause) {
        throw new DocTreeError('INPUT_NOT_FOUND', `the ${kind.what} file (${kind.key}) cannot be read`, { file, cause, hint: `Fit one with \`${kind.fit}\`, or set ${kind.key} to null.` });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new DocTreeError('SCHEMA_INVALID', `the ${kind.what} is not valid JSON: ${(cause as Error).message}`, { file, cause });
      }
      return kind.parse(json, file);
    })();
    LOADED.set(cacheKey, loading);
    loading.catch(() => LOADED.delete(cacheKey));
  }
  return loading;
}

/**
 * The page ranker the configuration asks for: the model file named by `agent.page_ranker` (read and validated once per
 * path), or undefined for the model shipped with `@doctree/toolhub`.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (no such file), `SCHEMA_INVALID` (not JSON, or not a page ranker model).
 */
export async function pageRankerFromConfig(config: DocTreeConfig): Promise<PageRanker | undefined> {
  const path = config.agent.page_ranker;
  if (path === null || path === undefined) return undefined;
  const model = await loadModelFile(path, { key: 'agent.page_ranker', what: 'page ranker model', fit: 'node tools/fit/fit-page-ranker.mjs --out FILE', parse: parsePageRankerModel });
  return new PageRanker({ model });
}

/**
 * The answer calibrator the configuration asks for, for answers of `reader` (`extractive` offline, `llm` with a chat
 * model): the model file named by `agent.answer_calibration`, applied when it was fitted on that kind of reader and
 * else used for its document-lacks policy only ({@link AnswerCalibrator.forReader}); undefined for the agent's
 * default (the model shipped with `@doctree/agents`).
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (no such file), `SCHEMA_INVALID` (not JSON, or not a calibration model).
 */
export async function answerCalibratorFromConfig(config: DocTreeConfig, reader: 'extractive' | 'llm'): Promise<AnswerCalibrator | undefined> {
  const path = config.agent.answer_calibration;
  if (path === null || path === undefined) return undefined;
  const model = await loadModelFile(path, {
    key: 'agent.answer_calibration',
    what: 'answer calibration model',
    fit: 'node tools/fit/fit-answer-calibration.mjs --out FILE [--llm]',
    parse: parseAnswerCalibrationModel,
  });
  return AnswerCalibrator.forReader(reader, model);
}
