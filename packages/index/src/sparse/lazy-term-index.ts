import SearchableMap from 'minisearch/SearchableMap';

/** MiniSearch's postings of one term: field id → short doc id → term frequency (serialisation version 2). */
type RawPostings = Record<string, Record<string, number>>;
/** The in-memory form MiniSearch searches: field id → short doc id → term frequency. */
type Postings = Map<number, Map<number, number>>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Converts one term's postings; throws on a malformed entry (the caller reports the file as corrupt). */
function toPostings(raw: RawPostings, term: string): Postings {
  if (!isObject(raw)) throw new Error(`malformed postings of term ${JSON.stringify(term)}`);
  const byField: Postings = new Map();
  for (const fieldId of Object.keys(raw)) {
    const docs = new Map<number, number>();
    const entries = raw[fieldId]!;
    if (!isObject(entries)) throw new Error(`malformed postings of term ${JSON.stringify(term)} in field ${fieldId}`);
    for (const shortId of Object.keys(entries)) docs.set(Number.parseInt(shortId, 10), entries[shortId]!);
    byField.set(Number.parseInt(fieldId, 10), docs);
  }
  return byField;
}

/**
 * MiniSearch's term index (a radix tree, `SearchableMap`) restored lazily from its JSON form: exact-term lookups
 * (`get` / `has`, all that a search without prefix or fuzzy matching uses) convert only the postings of the looked-up
 * term, so loading an index costs one `Map` insertion per term instead of a radix-tree insertion plus postings maps
 * per term. Any other use (iteration, prefix or fuzzy search, `set`, `size`…) first builds the full radix tree, after
 * which it behaves exactly as `SearchableMap`.
 */
export class LazyTermIndex extends SearchableMap<Postings> {
  #raw: Map<string, RawPostings> | undefined;
  readonly #converted = new Map<string, Postings>();

  constructor(entries: ReadonlyArray<readonly [string, RawPostings]>) {
    super();
    const raw = new Map<string, RawPostings>();
    for (const [term, postings] of entries) raw.set(term, postings);
    this.#raw = raw;
  }

  override get(key: string): Postings | undefined {
    const raw = this.#raw;
    if (raw === undefined) return super.get(key);
    const done = this.#converted.get(key);
    if (done !== undefined) return done;
    const postings = raw.get(key);
    if (postings === undefined) return undefined;
    const converted = toPostings(postings, key);
    this.#converted.set(key, converted);
    return converted;
  }

  override has(key: string): boolean {
    return this.#raw === undefined ? super.has(key) : this.#raw.has(key);
  }

  /** Builds the full radix tree (once); from then on every method is `SearchableMap`'s own. */
  #materialize(): void {
    const raw = this.#raw;
    if (raw === undefined) return;
    this.#raw = undefined;
    for (const [term, postings] of raw) super.set(term, this.#converted.get(term) ?? toPostings(postings, term));
    this.#converted.clear();
  }

  override atPrefix(prefix: string): SearchableMap<Postings> {
    this.#materialize();
    return super.atPrefix(prefix);
  }

  override clear(): void {
    this.#materialize();
    super.clear();
  }

  override delete(key: string): void {
    this.#materialize();
    super.delete(key);
  }

  override entries(): ReturnType<SearchableMap<Postings>['entries']> {
    this.#materialize();
    return super.entries();
  }

  override forEach(fn: (key: string, value: Postings, map: SearchableMap) => void): void {
    this.#materialize();
    super.forEach(fn);
  }

  override fuzzyGet(key: string, maxEditDistance: number): ReturnType<SearchableMap<Postings>['fuzzyGet']> {
    this.#materialize();
    return super.fuzzyGet(key, maxEditDistance);
  }

  override keys(): ReturnType<SearchableMap<Postings>['keys']> {
    this.#materialize();
    return super.keys();
  }

  override set(key: string, value: Postings): SearchableMap<Postings> {
    this.#materialize();
    return super.set(key, value);
  }

  override get size(): number {
    if (this.#raw !== undefined) return this.#raw.size;
    return super.size;
  }

  override update(key: string, fn: (value: Postings | undefined) => Postings): SearchableMap<Postings> {
    this.#materialize();
    return super.update(key, fn);
  }

  override fetch(key: string, initial: () => Postings): Postings {
    this.#materialize();
    return super.fetch(key, initial);
  }

  override values(): ReturnType<SearchableMap<Postings>['values']> {
    this.#materialize();
    return super.values();
  }

  override [Symbol.iterator](): ReturnType<SearchableMap<Postings>['entries']> {
    this.#materialize();
    return super[Symbol.iterator]();
  }
}
