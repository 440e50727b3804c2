/** Splitting a byte stream into UTF-8 lines: every line ending, chunk boundaries anywhere, one pass. */
import { LineTooLongError, MAX_LINE_BYTES, NotUtf8Error, utf8Lines, type Line } from "../../message-file/utf8-lines";

/** The lines of `bytes` read in chunks of `size` bytes. */
async function linesOf(bytes: Buffer, size: number): Promise<Line[]> {
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const out: Line[] = [];
  for await (const batch of utf8Lines(chunks())) out.push(...batch);
  return out;
}

const rebuilt = (lines: Line[]) => lines.map((line) => `${line.text ?? "?"}${line.ending}`).join("");

describe("utf8Lines", () => {
  const text = "one\ntwo\r\nthree\rfour\r\rsix\n\nlast";
  it.each([1, 2, 3, 5, 64 * 1024])("splits at LF, CRLF and lone CR, and puts every byte back (chunks of %i)", async (size) => {
    const lines = await linesOf(Buffer.from(text), size);
    expect(lines.map((line) => line.text)).toEqual(["one", "two", "three", "four", "", "six", "", "last"]);
    expect(lines.map((line) => line.ending)).toEqual(["\n", "\r\n", "\r", "\r", "\r", "\n", "\n", ""]);
    expect(lines.map((line) => line.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(rebuilt(lines)).toBe(text);
  });

  it("a file of CR-only line endings is read line by line", async () => {
    const lines = await linesOf(Buffer.from('{"a":1}\r{"b":2}\r'), 4);
    expect(lines.map((line) => [line.text, line.ending])).toEqual([
      ['{"a":1}', "\r"],
      ['{"b":2}', "\r"],
    ]);
  });

  it("drops a UTF-8 byte order mark at the start only", async () => {
    const lines = await linesOf(Buffer.from("\ufeffa\n\ufeffb"), 2);
    expect(lines.map((line) => line.text)).toEqual(["a", "\ufeffb"]);
  });

  it("marks a line of invalid UTF-8 without replacing its bytes, and keeps numbering", async () => {
    const lines = await linesOf(Buffer.concat([Buffer.from("ok\n"), Buffer.from([0x61, 0xff]), Buffer.from("\r\nnext")]), 3);
    expect(lines).toEqual([
      { number: 1, text: "ok", ending: "\n" },
      { number: 2, invalidUtf8: true, ending: "\r\n" },
      { number: 3, text: "next", ending: "" },
    ]);
  });

  it("keeps a multi-byte character split across chunks", async () => {
    const lines = await linesOf(Buffer.from("é€𝄞\n"), 1);
    expect(lines[0].text).toBe("é€𝄞");
  });

  it.each([
    ["UTF-16LE with a mark", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("to,body\n", "utf16le")]), /UTF-16LE/],
    ["UTF-16LE without a mark", Buffer.from('{"tos":[]}\n', "utf16le"), /UTF-16 or UTF-32/],
  ])("refuses %s by name", async (_, bytes, expected) => {
    const error = await linesOf(bytes, 1024).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotUtf8Error);
    expect((error as Error).message).toMatch(expected);
  });

  it("reads a 20 MB single line whole (the pieces are joined once)", async () => {
    const long = Buffer.alloc(20 * 1024 * 1024, "x");
    const lines = await linesOf(Buffer.concat([long, Buffer.from("\nend")]), 64 * 1024);
    expect(lines).toHaveLength(2);
    expect(lines[0].text?.length).toBe(long.length);
    expect(lines[1].text).toBe("end");
  });

  it("gives the same text for a long ASCII line (read as Latin-1) and a long non-ASCII one (UTF-8)", async () => {
    const ascii = "plain ascii, no accents ~\x7f".repeat(80_000);
    const accented = "é€𝄞 and ascii ".repeat(80_000);
    const lines = await linesOf(Buffer.from(`${ascii}\n${accented}\n\u007f\u0080`), 64 * 1024);
    expect(lines.map((line) => line.text)).toEqual([ascii, accented, "\u007f\u0080"]);
  });

  it("a line longer than any sendable message is refused by its number before it is held whole; one at the limit is read", async () => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    let read = 0;
    async function* endless() {
      yield Buffer.from('{"tos":["+254700000001"],"body":"first"}\n');
      // A line with no end: the reader must stop by itself, bounded.
      for (;;) {
        read += chunk.length;
        yield chunk;
      }
    }
    const lines: Line[] = [];
    const failure = await (async () => {
      for await (const batch of utf8Lines(endless())) lines.push(...batch);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LineTooLongError);
    expect((failure as LineTooLongError).line).toBe(2);
    expect((failure as Error).message).toMatch(/^line 2 is longer than 64 MiB.*one message a line/);
    expect(lines.map((line) => line.number)).toEqual([1]);
    expect(read).toBeLessThanOrEqual(MAX_LINE_BYTES + chunk.length);

    const atLimit = await linesOf(Buffer.concat([Buffer.alloc(MAX_LINE_BYTES, "b"), Buffer.from("\nnext")]), 64 * 1024);
    expect(atLimit.map((line) => line.text?.length)).toEqual([MAX_LINE_BYTES, 4]);
  });
});
