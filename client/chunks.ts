/** A run of consecutive items of a larger input. */
export interface Chunk<T> {
  /** Position of the chunk, from 0. */
  readonly index: number;
  /** Position of the chunk's first item in the whole input. */
  readonly offset: number;
  /** The items, at least one and at most the chunk size. */
  readonly items: T[];
}

/** True for anything `for await` can walk: async iterables and (sync) iterables. */
export function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (value === null || value === undefined || typeof value === "string") return false;
  const object = value as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof object[Symbol.asyncIterator] === "function" || typeof object[Symbol.iterator] === "function";
}

/**
 * Splits an iterable or async iterable into chunks of `size` items (the last may be
 * shorter), reading the source lazily: a chunk is taken only when the previous one has been
 * consumed. Breaking out of the loop closes the source.
 * @param size items per chunk, at least 1
 */
export async function* chunks<T>(source: Iterable<T> | AsyncIterable<T>, size: number): AsyncGenerator<Chunk<T>, void, undefined> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  let items: T[] = [];
  let index = 0;
  let offset = 0;
  for await (const item of source) {
    items.push(item);
    if (items.length === size) {
      yield { index, offset, items };
      index++;
      offset += size;
      items = [];
    }
  }
  if (items.length > 0) yield { index, offset, items };
}
