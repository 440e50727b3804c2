/** A run of consecutive items of a larger input. */
export interface Chunk<T> {
  /** Position of the chunk, from 0. */
  readonly index: number;
  /** Position of the chunk's first item in the whole input. */
  readonly offset: number;
  /** The items, at least one and at most the chunk size. */
  readonly items: T[];
}

export function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (value === null || value === undefined || typeof value === "string") return false;
  const object = value as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof object[Symbol.asyncIterator] === "function" || typeof object[Symbol.iterator] === "function";
}

function checkSize(size: number): void {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
}

/**
 * Reads the source lazily: a chunk is taken only when the previous one has been consumed. A
 * sync iterable is read without an `await` per item. Breaking out of the loop closes the source.
 */
export async function* chunks<T>(source: Iterable<T> | AsyncIterable<T>, size: number): AsyncGenerator<Chunk<T>, void, undefined> {
  checkSize(size);
  if (Array.isArray(source)) {
    for (let offset = 0, index = 0; offset < source.length; offset += size, index++) {
      yield { index, offset, items: source.slice(offset, offset + size) };
    }
    return;
  }
  if (
    typeof (source as Iterable<T>)[Symbol.iterator] === "function" &&
    typeof (source as AsyncIterable<T>)[Symbol.asyncIterator] !== "function"
  ) {
    yield* syncChunks(source as Iterable<T>, size);
    return;
  }
  const chunker = new Chunker<T>(size);
  for await (const item of source) {
    const chunk = chunker.push(item);
    if (chunk) yield chunk;
  }
  const last = chunker.flush();
  if (last) yield last;
}

function* syncChunks<T>(source: Iterable<T>, size: number): Generator<Chunk<T>, void, undefined> {
  const chunker = new Chunker<T>(size);
  for (const item of source) {
    const chunk = chunker.push(item);
    if (chunk) yield chunk;
  }
  const last = chunker.flush();
  if (last) yield last;
}

/** @throws RangeError when a size is not a positive integer or the sizes do not add up to the array's length */
export function* sizedChunks<T>(items: readonly T[], sizes: readonly number[]): Generator<Chunk<T>, void, undefined> {
  sizes.forEach(checkSize);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total !== items.length) throw new RangeError(`chunk sizes add up to ${total}, not to the ${items.length} items`);
  let offset = 0;
  for (const [index, size] of sizes.entries()) {
    yield { index, offset, items: items.slice(offset, offset + size) };
    offset += size;
  }
}

class Chunker<T> {
  #items: T[] = [];
  #index = 0;
  #offset = 0;

  constructor(private readonly size: number) {}

  push(item: T): Chunk<T> | undefined {
    this.#items.push(item);
    return this.#items.length === this.size ? this.flush() : undefined;
  }

  flush(): Chunk<T> | undefined {
    if (this.#items.length === 0) return undefined;
    const chunk = { index: this.#index, offset: this.#offset, items: this.#items };
    this.#index++;
    this.#offset += this.#items.length;
    this.#items = [];
    return chunk;
  }
}
