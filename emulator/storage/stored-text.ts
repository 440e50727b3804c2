/**
 * Text the emulator keeps for a long time (a batch's messages), held in a `Buffer` rather
 * than as a JavaScript string: the young-generation collector copies a large string before
 * it settles, which under load cost more than the rest of a batch's work (`npm run bench`,
 * section 5). A buffer's bytes live outside the JavaScript heap: only its handle is moved.
 *
 * ASCII text is kept one byte per character, any other text as UTF-16 (two bytes per code
 * unit), so what is kept never exceeds what the byte budget counts for it (`stored-bytes.ts`:
 * 2 per code unit). Each text has memory of its own (`allocUnsafeSlow`, then filled): a slice
 * of Node's shared pool would keep the whole pool alive for a short text, and
 * `Buffer.from(buffer)` copies byte by byte in JavaScript.
 */
export class StoredText {
  private constructor(
    private readonly bytes: Buffer,
    private readonly encoding: "latin1" | "utf16le",
    /** Length of the text in UTF-16 code units, as `string.length` gives it. */
    readonly length: number,
  ) {}

  /** Keeps a copy of `text`. */
  static of(text: string): StoredText {
    const encoding = Buffer.byteLength(text, "utf8") === text.length ? "latin1" : "utf16le";
    const bytes = Buffer.allocUnsafeSlow(encoding === "latin1" ? text.length : 2 * text.length);
    bytes.write(text, encoding);
    return new StoredText(bytes, encoding, text.length);
  }

  /** Keeps a copy of `bytes[start, end)`, which the caller knows to be ASCII. */
  static ofAscii(bytes: Buffer, start: number, end: number): StoredText {
    const copy = Buffer.allocUnsafeSlow(end - start);
    bytes.copy(copy, 0, start, end);
    return new StoredText(copy, "latin1", end - start);
  }

  /** The text. */
  toString(): string {
    return this.bytes.toString(this.encoding);
  }
}
