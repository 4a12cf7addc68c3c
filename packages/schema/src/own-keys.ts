/**
 * Safe dictionaries for keys that come from documents, questions, tool arguments or configuration: such a key can be
 * any word (`constructor`, `toString`, `__proto__`), which a plain object answers with Object.prototype's members.
 */

/**
 * A frozen lookup table without a prototype: a lookup with any string sees only the table's own entries (`constructor`
 * gives undefined, not a function).
 *
 * @example
 * ```ts
 * const UNITS = ownTable({ '%': 'percent' });
 * UNITS['constructor']; // undefined
 * ```
 */
export function ownTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/**
 * Sets `target[key]` as an own property. Only `__proto__` needs defining (an assignment would replace the prototype);
 * every other key is assigned, which keeps the object in V8's fast mode.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
