import { chunks, isIterable } from "../../client/chunks";

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

describe("chunks", () => {
  it("splits an array into full chunks and a shorter last one, with offsets", async () => {
    const result = await collect(chunks([1, 2, 3, 4, 5], 2));
    expect(result).toEqual([
      { index: 0, offset: 0, items: [1, 2] },
      { index: 1, offset: 2, items: [3, 4] },
      { index: 2, offset: 4, items: [5] },
    ]);
  });

  it("yields nothing for empty input", async () => {
    expect(await collect(chunks([], 3))).toEqual([]);
  });

  it("yields no empty trailing chunk when the size divides the length", async () => {
    expect((await collect(chunks([1, 2, 3, 4], 2))).map((c) => c.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it("reads async iterables lazily and closes them when the consumer stops", async () => {
    let produced = 0;
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; i < 100; i++) {
          produced++;
          yield i;
        }
      } finally {
        closed = true;
      }
    }
    for await (const chunk of chunks(source(), 10)) {
      expect(chunk.items).toHaveLength(10);
      break;
    }
    expect(produced).toBe(10);
    expect(closed).toBe(true);
  });

  it("rejects a size that is not a positive integer", async () => {
    await expect(collect(chunks([1], 0))).rejects.toThrow(RangeError);
    await expect(collect(chunks([1], 1.5))).rejects.toThrow(RangeError);
  });
});

describe("isIterable", () => {
  it("accepts arrays, sets, generators and async generators", () => {
    expect(isIterable([])).toBe(true);
    expect(isIterable(new Set())).toBe(true);
    expect(isIterable((function* () {})())).toBe(true);
    expect(isIterable((async function* () {})())).toBe(true);
  });
  it("rejects strings, plain objects and nullish values", () => {
    expect(isIterable("abc")).toBe(false);
    expect(isIterable({ length: 1 })).toBe(false);
    expect(isIterable(null)).toBe(false);
    expect(isIterable(undefined)).toBe(false);
  });
});
