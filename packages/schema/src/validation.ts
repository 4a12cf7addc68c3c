import type { z } from 'zod';
import { DocTreeError, type DocTreeErrorCode } from './errors.js';

/** Where the value being validated came from, for error messages. */
export interface ValidationContext {
  /** File the value was read from. */
  file?: string;
  /** 1-based line for JSONL files. */
  line?: number;
  /** What the value is, e.g. `dense_coarse record`. */
  what?: string;
  /** Error code to throw; defaults to `SCHEMA_INVALID`. */
  code?: DocTreeErrorCode;
}

/** Formats zod issues as `field.path: message; other.field: message`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Parses a value with a schema at a trust boundary (files, LLM output, tool args) and throws a
 * {@link DocTreeError} naming the file, line and field on failure.
 *
 * @example
 * ```ts
 * const tree = parseWith(DocTreeSchema, JSON.parse(text), { file: 'doctree.mm.json', what: 'DocTree' });
 * ```
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, context: ValidationContext = {}): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const where = context.line !== undefined ? ` (line ${context.line})` : '';
  const message = `invalid ${context.what ?? 'record'}${where}: ${formatIssues(result.error)}`;
  throw new DocTreeError(context.code ?? 'SCHEMA_INVALID', message, {
    ...(context.file !== undefined ? { file: context.file } : {}),
    details: { issues: result.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
  });
}

/**
 * Parses JSON text with a schema: text that is not JSON is a {@link DocTreeError} (`SCHEMA_INVALID` unless
 * `context.code`) saying `<name> is not valid JSON: …` with the file; a value the schema refuses is {@link parseWith}'s error.
 *
 * @example
 * ```ts
 * const tree = parseJsonWith(DocTreeSchema, await readFile(path, 'utf8'), { file: path, what: 'DocTree', name: 'doctree.mm.json' });
 * ```
 */
export function parseJsonWith<S extends z.ZodType>(schema: S, text: string, context: ValidationContext & { name?: string } = {}): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError(context.code ?? 'SCHEMA_INVALID', `${context.name ?? context.what ?? 'the file'} is not valid JSON: ${(cause as Error).message}`, {
      ...(context.file !== undefined ? { file: context.file } : {}),
      cause,
    });
  }
  return parseWith(schema, value, context);
}

/**
 * Parses JSONL text line by line with a schema; blank lines are skipped. The error names the line and field.
 */
export function parseJsonLines<S extends z.ZodType>(schema: S, text: string, context: Omit<ValidationContext, 'line'> = {}): z.output<S>[] {
  const out: z.output<S>[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new DocTreeError(context.code ?? 'SCHEMA_INVALID', `invalid JSON on line ${i + 1}: ${(cause as Error).message}`, {
        ...(context.file !== undefined ? { file: context.file } : {}),
        cause,
      });
    }
    out.push(parseWith(schema, value, { ...context, line: i + 1 }));
  }
  return out;
}
