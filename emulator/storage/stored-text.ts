/**
 * Long-lived text held in a `Buffer`, outside the JavaScript heap: the young-generation
 * collector copies a large string before it settles (`npm run bench`, section 5). ASCII is kept
 * one byte per character, else UTF-16, never more than the byte budget counts. Each text has
 * memory of its own: a slice of Node's shared pool would keep the whole pool alive.
 */
export class StoredText {
  private constructor(
    private readonly bytes: Buffer,
    private readonly encoding: "latin1" | "utf16le",
    /** In UTF-16 code units, as `string.length`. */
    readonly length: number,
  ) {}

  static of(text: string): StoredText {
    const encoding = Buffer.byteLength(text, "utf8") === text.length ? "latin1" : "utf16le";
    const bytes = Buffer.allocUnsafeSlow(encoding === "latin1" ? text.length : 2 * text.length);
    bytes.write(text, encoding);
    return new StoredText(bytes, encoding, text.length);
  }

  /** `bytes[start, end)` must be ASCII. */
  static ofAscii(bytes: Buffer, start: number, end: number): StoredText {
    const copy = Buffer.allocUnsafeSlow(end - start);
    bytes.copy(copy, 0, start, end);
    return new StoredText(copy, "latin1", end - start);
  }

  toString(): string {
    return this.bytes.toString(this.encoding);
  }
}
