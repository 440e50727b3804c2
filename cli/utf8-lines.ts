import { isUtf8 } from "node:buffer";

/** One line of a file, numbered from 1, without its line break (`\n` or `\r\n`). */
export type Line =
  | { readonly number: number; readonly text: string }
  /** The line's bytes are not valid UTF-8: it has no text (never a silent U+FFFD). */
  | { readonly number: number; readonly text?: undefined; readonly invalidUtf8: true };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into lines and decodes each as UTF-8, checking it strictly: a line
 * with invalid bytes comes back marked, with its number, instead of with replacement
 * characters. A UTF-8 byte order mark at the start is dropped. Lines come in arrays (one per
 * chunk read), so a consumer walks them without an `await` per line. Memory: one chunk of
 * the stream plus the longest line.
 */
export async function* utf8Lines(stream: AsyncIterable<Buffer>): AsyncGenerator<Line[], void, undefined> {
  let pending: Buffer | undefined;
  let number = 0;
  let first = true;
  const decode = (bytes: Buffer): Line => {
    number++;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CARRIAGE_RETURN) end--;
    let start = 0;
    if (first) {
      first = false;
      if (end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    }
    const content = bytes.subarray(start, end);
    return isUtf8(content) ? { number, text: content.toString("utf8") } : { number, invalidUtf8: true };
  };
  for await (const chunk of stream) {
    const buffer = pending === undefined ? chunk : Buffer.concat([pending, chunk]);
    const lines: Line[] = [];
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      lines.push(decode(buffer.subarray(start, end)));
      start = end + 1;
    }
    // Copied, so the rest of a large chunk is not kept alive by a short unfinished line.
    pending = start < buffer.length ? Buffer.from(buffer.subarray(start)) : undefined;
    if (lines.length > 0) yield lines;
  }
  if (pending !== undefined) yield [decode(pending)];
}
