import type { z } from 'zod';

/** Internal definition of a zod v4 schema, as far as {@link schemaAtPath} reads it. */
interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: readonly z.ZodType[];
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
  items?: readonly z.ZodType[];
  rest?: z.ZodType | null;
  left?: z.ZodType;
  right?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
}

function defOf(schema: z.ZodType): ZodDef {
  return (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
}

/** Schemas that accept any value below them: a path may go on through them unchecked. */
const OPEN_TYPES: ReadonlySet<string> = new Set(['unknown', 'any']);
/** Wrappers whose inner schema describes the value. */
const WRAPPERS: ReadonlySet<string> = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'success']);
/** Deepest nesting of wrappers / lazies followed before giving up (a self-referencing lazy). */
const MAX_UNWRAP = 32;

/** The schema of a value once wrappers (optional, nullable, default, lazy…) are taken off. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < MAX_UNWRAP; i++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
  return current;
}

/** The schemas a value at `key` of a value of `schema` may have (several for a union), none when there is no such key. */
function childSchemas(schema: z.ZodType, key: string): z.ZodType[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  switch (def.type) {
    case 'object': {
      const shape = (inner as unknown as { shape: Record<string, z.ZodType> }).shape;
      if (Object.prototype.hasOwnProperty.call(shape, key)) return [shape[key]!];
      return def.catchall && defOf(def.catchall).type !== 'never' ? [def.catchall] : [];
    }
    case 'array':
      return /^-?[0-9]+$/.test(key) && def.element ? [def.element] : [];
    case 'tuple': {
      if (!/^-?[0-9]+$/.test(key)) return [];
      const items = def.items ?? [];
      const at = Number(key);
      const item = items[at < 0 ? items.length + at : at];
      if (item) return [item];
      return def.rest ? [def.rest] : [];
    }
    case 'record':
      return def.valueType ? [def.valueType] : [];
    case 'union':
      return (def.options ?? []).flatMap((option) => childSchemas(option, key));
    case 'intersection':
      return [...(def.left ? childSchemas(def.left, key) : []), ...(def.right ? childSchemas(def.right, key) : [])];
    default:
      return [];
  }
}

/**
 * Whether a value described by `schema` can have something at `path` (`['hits', '0', 'node_id']`; array and tuple
 * indexes are decimal strings, negative ones count from the end): objects by their keys (or catch-all), arrays and
 * tuples by index, records by any key, unions when one option has the path, wrappers (optional, nullable, default,
 * lazy, pipe input) looked through. Below `z.unknown()` / `z.any()` any path is accepted. Returns the schemas found
 * at the end of the path (several through unions), or an empty list when no value of `schema` has that path.
 *
 * @example
 * ```ts
 * const Saved = z.object({ hits: z.array(HitSchema), total: z.number() });
 * schemasAtPath(Saved, ['hits', '0', 'node_id']).length > 0; // true
 * schemasAtPath(Saved, ['rows', '0']).length; // 0: the value has no `rows`
 * ```
 */
export function schemasAtPath(schema: z.ZodType, path: readonly string[]): z.ZodType[] {
  let current: z.ZodType[] = [schema];
  for (const key of path) {
    const next: z.ZodType[] = [];
    for (const s of current) {
      if (OPEN_TYPES.has(defOf(unwrap(s)).type)) return [s];
      next.push(...childSchemas(s, key));
    }
    if (next.length === 0) return [];
    current = next;
  }
  return current;
}
