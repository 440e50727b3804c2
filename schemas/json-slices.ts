/**
 * `JSON.parse` for long texts, except that a string without escapes is a slice sharing the text's memory: V8 copies each string
 * `JSON.parse` reads. Anything it does not accept gives `undefined` and the caller falls back to `JSON.parse`, so it never accepts
 * what `JSON.parse` refuses (test/schemas/json-slices.test.ts compares them).
 */

// Deeper texts go to JSON.parse (the reading rule refuses nesting far shallower anyway).
const MAX_DEPTH = 256;

class Refused extends Error {}
const REFUSED = new Refused();

export function parseJsonSlices(text: string): { readonly value: unknown } | undefined {
  try {
    const reader = new SliceReader(text);
    const value = reader.value(0);
    reader.skipSpace();
    return reader.at === text.length ? { value } : undefined;
  } catch (error) {
    if (error instanceof Refused || error instanceof RangeError || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

// A string's end or a character it cannot hold unescaped: quote, backslash, control characters.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const STRING_STOP = /["\\\u0000-\u001f]/g;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class SliceReader {
  at = 0;

  constructor(private readonly text: string) {}

  skipSpace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++;
      else return;
    }
  }

  value(depth: number): unknown {
    this.skipSpace();
    const c = this.text.charCodeAt(this.at);
    if (c === 0x22 /* " */) return this.string();
    if (c === 0x7b /* { */) return this.object(depth + 1);
    if (c === 0x5b /* [ */) return this.array(depth + 1);
    if (c === 0x74 /* t */) return this.word("true", true);
    if (c === 0x66 /* f */) return this.word("false", false);
    if (c === 0x6e /* n */) return this.word("null", null);
    return this.number();
  }

  private object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw REFUSED;
    this.at++;
    const result: Record<string, unknown> = {};
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === 0x7d /* } */) {
      this.at++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      if (this.text.charCodeAt(this.at) !== 0x22) throw REFUSED;
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.at) !== 0x3a /* : */) throw REFUSED;
      this.at++;
      const member = this.value(depth);
      // JSON.parse makes `__proto__` an own property; assignment would set the prototype.
      if (key === "__proto__") Object.defineProperty(result, key, { value: member, writable: true, enumerable: true, configurable: true });
      else result[key] = member;
      this.skipSpace();
      const next = this.text.charCodeAt(this.at++);
      if (next === 0x7d /* } */) return result;
      if (next !== 0x2c /* , */) throw REFUSED;
    }
  }

  private array(depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw REFUSED;
    this.at++;
    const result: unknown[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === 0x5d /* ] */) {
      this.at++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth));
      this.skipSpace();
      const next = this.text.charCodeAt(this.at++);
      if (next === 0x5d /* ] */) return result;
      if (next !== 0x2c /* , */) throw REFUSED;
    }
  }

  private string(): string {
    const start = this.at;
    STRING_STOP.lastIndex = start + 1;
    const stop = STRING_STOP.exec(this.text);
    if (stop === null) throw REFUSED;
    if (stop[0] === '"') {
      this.at = stop.index + 1;
      return this.text.slice(start + 1, stop.index);
    }
    if (stop[0] !== "\\") throw REFUSED;
    // Escapes: the string alone goes through JSON.parse, which checks and decodes them.
    let end = stop.index;
    for (;;) {
      // Past the escaped character (for \uXXXX, JSON.parse checks the four digits).
      STRING_STOP.lastIndex = end + 2;
      const next = STRING_STOP.exec(this.text);
      if (next === null) throw REFUSED;
      end = next.index;
      if (next[0] === '"') break;
      if (next[0] !== "\\") throw REFUSED;
    }
    this.at = end + 1;
    return JSON.parse(this.text.slice(start, end + 1)) as string;
  }

  private number(): number {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) throw REFUSED;
    this.at += match[0].length;
    return Number(match[0]);
  }

  private word<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) throw REFUSED;
    this.at += word.length;
    return value;
  }
}
