import { isAscii, isUtf8 } from "node:buffer";
import { wideEncoding } from "../schemas/utf8-text";

/** `""`: the last line. */
export type LineEnding = "\n" | "\r\n" | "\r" | "";

export type Line =
  | { readonly number: number; readonly text: string; readonly ending: LineEnding }
  /** The line's bytes are not valid UTF-8: it has no text (never a silent U+FFFD). */
  | { readonly number: number; readonly text?: undefined; readonly invalidUtf8: true; readonly ending: LineEnding };

/** UTF-16 or UTF-32, by its byte order mark or its NUL bytes. */
export class NotUtf8Error extends Error {}

/**
 * The longest line read: no message one call can carry (10 MiB of JSON) takes more source than this, since a character of it takes
 * at most 6 bytes of source (`\u00XX`). A longer line is refused before it is held whole, so memory stays bounded.
 */
export const MAX_LINE_BYTES = 64 * 2 ** 20;

export class LineTooLongError extends Error {
  constructor(readonly line: number) {
    super(
      `line ${line} is longer than ${MAX_LINE_BYTES / 2 ** 20} MiB, more than any message one call can carry (10 MiB of JSON): ` +
        "it was not read. Put one message a line (a JSON array on one line: write it as NDJSON, .ndjson)",
    );
  }
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * A line with invalid bytes comes back marked rather than with replacement characters. Each
 * line says how it ended, so CSV's quoted fields can put the exact bytes back. Linear in the
 * bytes whatever the line lengths: an unfinished line's pieces are joined once, at its end.
 *
 * An ASCII line is decoded as Latin-1, the same characters: Node hands a large Latin-1 text to
 * V8 as an external string, where a UTF-8 decode copies it into a new large-object page.
 */
export async function* utf8Lines(stream: AsyncIterable<Buffer>): AsyncGenerator<Line[], void, undefined> {
  let pieces: Buffer[] = [];
  let number = 0;
  let first = true;
  // The previous chunk ended with '\r': the line before it is complete, its ending not yet known.
  let endedWithCr = false;
  const decode = (content: Buffer, ending: LineEnding): Line => {
    number++;
    if (number === 1 && content.length >= 3 && content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf)
      content = content.subarray(3);
    if (isAscii(content)) return { number, text: content.toString("latin1"), ending };
    return isUtf8(content) ? { number, text: content.toString("utf8"), ending } : { number, invalidUtf8: true, ending };
  };
  let pendingBytes = 0;
  const keep = (piece: Buffer): void => {
    pendingBytes += piece.length;
    if (pendingBytes > MAX_LINE_BYTES) throw new LineTooLongError(number + 1);
    pieces.push(piece);
  };
  const takePending = (tail: Buffer): Buffer => {
    pendingBytes = 0;
    if (pieces.length === 0) return tail;
    const line = Buffer.concat(tail.length > 0 ? [...pieces, tail] : pieces);
    pieces = [];
    return line;
  };
  for await (const chunk of stream) {
    if (chunk.length === 0) continue;
    if (first) {
      first = false;
      const wide = wideEncoding(chunk);
      if (wide !== undefined) throw new NotUtf8Error(`the file is ${wide}; only UTF-8 is accepted: save it as UTF-8`);
    }
    const lines: Line[] = [];
    let start = 0;
    if (endedWithCr) {
      endedWithCr = false;
      const crlf = chunk[0] === NEWLINE;
      lines.push(decode(takePending(Buffer.alloc(0)), crlf ? "\r\n" : "\r"));
      if (crlf) start = 1;
    }
    let nextLf = chunk.indexOf(NEWLINE, start);
    let nextCr = chunk.indexOf(CARRIAGE_RETURN, start);
    while (nextLf !== -1 || nextCr !== -1) {
      if (nextCr !== -1 && (nextLf === -1 || nextCr < nextLf)) {
        const content = takePending(chunk.subarray(start, nextCr));
        if (nextCr === chunk.length - 1) {
          // A '\r' at the chunk's end: '\r\n' or a lone '\r' is decided by the next chunk.
          pieces = [];
          keep(Buffer.from(content));
          endedWithCr = true;
          start = chunk.length;
          break;
        }
        const crlf = chunk[nextCr + 1] === NEWLINE;
        lines.push(decode(content, crlf ? "\r\n" : "\r"));
        start = nextCr + (crlf ? 2 : 1);
      } else {
        lines.push(decode(takePending(chunk.subarray(start, nextLf)), "\n"));
        start = nextLf + 1;
      }
      if (nextLf !== -1 && nextLf < start) nextLf = chunk.indexOf(NEWLINE, start);
      if (nextCr !== -1 && nextCr < start) nextCr = chunk.indexOf(CARRIAGE_RETURN, start);
    }
    // A chunk wholly inside a long line is kept as it is; a short unfinished tail is copied,
    // so it does not keep the rest of a large chunk alive.
    if (start === 0) keep(chunk);
    else if (start < chunk.length) keep(Buffer.from(chunk.subarray(start)));
    if (lines.length > 0) yield lines;
  }
  if (endedWithCr) yield [decode(takePending(Buffer.alloc(0)), "\r")];
  else if (pieces.length > 0) yield [decode(takePending(Buffer.alloc(0)), "")];
}
