import type { Hit } from '@doctree/schema';
import { parseReference } from '../planner/plan-vocabulary.js';

/** Result of {@link resolveStepArgs}: the arguments with references replaced, and the references that could not be. */
export interface ResolvedArgs {
  args: Record<string, unknown>;
  /** References (`$TABLES.hits.0.node_id`) naming no variable or no value at their path. */
  missing: string[];
}

/** True when a value is a `$VAR` / `$VAR.path` reference. */
export function isReference(value: unknown): value is string {
  return parseReference(value) !== undefined;
}

/** Reads `a.b.0.c` from a value (array indexes are numbers); undefined when the path does not exist. */
export function readPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) {
      const at = Number(key);
      current = Number.isInteger(at) ? current[at < 0 ? current.length + at : at] : undefined;
    } else if (typeof current === 'object') {
      current = Object.prototype.hasOwnProperty.call(current, key) ? (current as Record<string, unknown>)[key] : undefined;
    } else return undefined;
  }
  return current;
}

/** The value of one reference, or undefined. */
export function resolveReference(reference: string, variables: ReadonlyMap<string, unknown>): unknown {
  const parsed = parseReference(reference);
  if (!parsed || !variables.has(parsed.name)) return undefined;
  return readPath(variables.get(parsed.name), parsed.path);
}

/** A saved tool result (`{ hits, data }`) or a hit list, as a list of hits; undefined for anything else. */
export function hitsOf(value: unknown): Hit[] | undefined {
  if (Array.isArray(value)) {
    if (value.every((v) => isHitLike(v))) return value as Hit[];
    if (value.every((v) => hitsOf(v) !== undefined)) return value.flatMap((v) => hitsOf(v)!);
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    const hits = (value as { hits?: unknown }).hits;
    if (Array.isArray(hits) && hits.every((h) => isHitLike(h))) return hits as Hit[];
  }
  return undefined;
}

function isHitLike(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { node_id?: unknown }).node_id === 'string' && typeof (value as { page_idx?: unknown }).page_idx === 'number';
}

/**
 * Replaces the `$VAR` / `$VAR.path.0.field` references of a step's arguments with the saved values (built-ins
 * `$question`, `$decision`, `$hits`, `$candidates`, `$pack` and the `save_as` names of earlier steps), anywhere in
 * nested objects and arrays. An array made only of references to hit lists or tool results (`["$S1", "$D1"]`) becomes
 * the concatenation of their hits. A reference without a value is left out of the arguments and listed in `missing`.
 *
 * @example
 * ```ts
 * const vars = new Map<string, unknown>([['TABLES', { hits: [{ node_id: 'tab_1', page_idx: 3 }] }]]);
 * resolveStepArgs({ node_id: '$TABLES.hits.0.node_id', years: [2023] }, vars); // { args: { node_id: 'tab_1', years: [2023] }, missing: [] }
 * ```
 */
export function resolveStepArgs(args: Readonly<Record<string, unknown>>, variables: ReadonlyMap<string, unknown>): ResolvedArgs {
  const missing: string[] = [];
  const MISSING = Symbol('missing');
  const walk = (value: unknown): unknown => {
    if (isReference(value)) {
      const resolved = resolveReference(value, variables);
      if (resolved === undefined) {
        missing.push(value);
        return MISSING;
      }
      return resolved;
    }
    if (Array.isArray(value)) {
      const items = value.map(walk).filter((v) => v !== MISSING);
      if (value.length > 0 && value.every(isReference)) {
        const lists = items.map((v) => hitsOf(v));
        if (items.length > 0 && lists.every((l) => l !== undefined)) return lists.flatMap((l) => l!);
      }
      return items;
    }
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const resolved = walk(v);
        if (resolved !== MISSING) out[k] = resolved;
      }
      return out;
    }
    return value;
  };
  return { args: walk(args) as Record<string, unknown>, missing };
}
