/** Reading message files as streams: NDJSON, JSON (array or { messages }), CSV; where each message is. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chooseStream, FileError, fileFormat, readEntries, type DeclaredStream, type Entry, type FileFormat } from "../../message-file";
import { IdentityKey } from "../../client/identity-key";
import { CallKey } from "../../message-file/identity";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "messaging-file-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const A = "+254700000001";
const B = "+254700000002";
const C = "+254700000003";

/** Every entry of a file written with `content` (a string, or bytes). */
async function entries(name: string, content: string | Buffer, format?: FileFormat): Promise<Entry[]> {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  const out: Entry[] = [];
  for await (const batch of readEntries(target, format ?? (fileFormat(name, undefined) as FileFormat))) out.push(...batch);
  return out;
}

/** The FileError reading the file throws. */
async function fileError(name: string, content: string): Promise<string> {
  try {
    await entries(name, content);
  } catch (error) {
    if (error instanceof FileError) return error.message;
    throw error;
  }
  throw new Error("expected a FileError");
}

const values = (list: Entry[]) => list.map((entry) => entry.value);
const locations = (list: Entry[]) => list.map((entry) => entry.location);

describe("fileFormat", () => {
  it.each([
    ["a.ndjson", "ndjson"],
    ["a.JSONL", "ndjson"],
    ["a.json", "json"],
    ["a.csv", "csv"],
  ])("%s is %s", (file, format) => {
    expect(fileFormat(file, undefined)).toBe(format);
  });

  it("an unknown extension is a clear error; --format decides instead", () => {
    expect(fileFormat("list.txt", undefined)).toMatch(/cannot tell the format of 'list\.txt'.*--format ndjson\|json\|csv/);
    expect(fileFormat("list.txt", "ndjson")).toBe("ndjson");
  });
});

describe("NDJSON", () => {
  it("reads one message a line, skipping blank lines, with CRLF and a byte order mark", async () => {
    const list = await entries(
      "a.ndjson",
      `\ufeff{"tos":["${A}"],"body":"one"}\r\n\r\n   \n{"tos":["${B}"],"template":{"id":"t","model":{"n":1}}}\n`,
    );
    expect(values(list)).toEqual([
      { tos: [A], body: "one" },
      { tos: [B], template: { id: "t", model: { n: 1 } } },
    ]);
    expect(locations(list)).toEqual(["line 1", "line 4"]);
  });

  it("a line that is not JSON is an entry with its problem, the others are read", async () => {
    const list = await entries("syntax.ndjson", `{"tos":["${A}"],"body":"ok"}\n{oops\n{"tos":["${B}"],"body":"ok"}`);
    expect(list[1]).toEqual({ location: "line 2", source: "{oops", problem: { reason: expect.stringMatching(/^not valid JSON/) } });
    expect(values(list)).toEqual([{ tos: [A], body: "ok" }, undefined, { tos: [B], body: "ok" }]);
  });

  it("reads a file larger than one read chunk, lines split across chunks", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ tos: [A], body: `message ${i} ${"x".repeat(i % 50)}` }));
    const list = await entries("large.ndjson", lines.join("\n"));
    expect(list).toHaveLength(5000);
    expect(list[4999]).toEqual({ location: "line 5000", source: lines[4999], value: JSON.parse(lines[4999]) });
  });
});

describe("JSON", () => {
  it("reads an array, naming items from 0 with their line", async () => {
    const list = await entries("a.json", `[\n  {"tos":["${A}"],"body":"hi"},\n  {"tos":["${B}"],\n   "body":"ho ] , {"}\n]\n`);
    expect(values(list)).toEqual([
      { tos: [A], body: "hi" },
      { tos: [B], body: "ho ] , {" },
    ]);
    expect(locations(list)).toEqual(["item 0 (line 2)", "item 1 (line 3)"]);
  });

  it("reads { messages: [...] } with other keys around it", async () => {
    const content = JSON.stringify({
      note: { x: [1, "]"] },
      messages: [
        { tos: [A], body: "hi" },
        { tos: [C], template: { id: "t", model: {} } },
      ],
      after: 1,
    });
    expect(values(await entries("wrapped.json", content))).toEqual([
      { tos: [A], body: "hi" },
      { tos: [C], template: { id: "t", model: {} } },
    ]);
  });

  it("an element that is not JSON is an entry with its problem", async () => {
    const list = await entries("element.json", `[{"tos":["${A}"],"body":"ok"}, {"tos": oops}]`);
    expect(list[1].problem?.reason).toMatch(/^not valid JSON/);
  });

  it.each([["{}"], ['{"messages":{}}'], ['"text"'], ["null"], ['[{"a":1}] extra'], ["[1,,2]"], ["[1,2"], [""]])(
    "rejects the document %p as a whole",
    async (content) => {
      expect(await fileError("shape.json", content)).toMatch(/^not valid JSON \(line \d+\): /);
    },
  );
});

describe("CSV", () => {
  it("reads to (split on ';') and body, with quoted fields holding commas, quotes and line breaks", async () => {
    const content = ["to,body", `${A},plain`, `"${A}; ${B}","Hello, world"`, `${C},"She said ""hi"", twice`, `and left"`, ""].join("\n");
    const list = await entries("a.csv", content);
    expect(values(list)).toEqual([
      { tos: [A], body: "plain" },
      { tos: [A, B], body: "Hello, world" },
      { tos: [C], body: 'She said "hi", twice\nand left' },
    ]);
    expect(locations(list)).toEqual(["line 2", "line 3", "line 4"]);
  });

  it("reads template rows (template_id and model.<name> columns) beside body rows, CRLF and a byte order mark", async () => {
    const content = ["\ufeffto,body,template_id,model.name,model.code", `${A},hi,,,`, `${B},,tpl_welcome,Ann,"12,34"`].join("\r\n");
    expect(values(await entries("template.csv", content))).toEqual([
      { tos: [A], body: "hi" },
      { tos: [B], template: { id: "tpl_welcome", model: { name: "Ann", code: "12,34" } } },
    ]);
  });

  it("reports malformed CSV with its line", async () => {
    expect(await fileError("malformed.csv", `to,body\n${A},hi\n${B},"unclosed\n`)).toMatch(
      /^not valid CSV at line 3, field 2( \(body\))?: Quote Not Closed.*\(code CSV_QUOTE_NOT_CLOSED\)/,
    );
  });

  it("reports a stray quote (INVALID_OPENING_QUOTE, a code without CSV_) with its line and field", async () => {
    expect(await fileError("stray.csv", `to,body\n${A},ok\n${A},say "hi"\n`)).toMatch(
      /^not valid CSV at line 3, field 2( \(body\))?: Invalid Opening Quote/,
    );
  });

  it("keeps quoted content byte for byte: CRLF, lone CR and LF inside quotes", async () => {
    const crlf = await entries("crlf.csv", `to,body\r\n${A},"a\r\nb"\r\n${B},"c\nd"\r\n${C},"e\rf"\r\n`);
    expect(values(crlf)).toEqual([
      { tos: [A], body: "a\r\nb" },
      { tos: [B], body: "c\nd" },
      { tos: [C], body: "e\rf" },
    ]);
    expect(locations(crlf)).toEqual(["line 2", "line 4", "line 6"]);
    const lf = await entries("lf.csv", `to,body\n${A},"a\r\nb"\n`);
    expect(values(lf)).toEqual([{ tos: [A], body: "a\r\nb" }]);
  });

  it("keeps unquoted spaces in values; trims column names and each recipient", async () => {
    const list = await entries("spaces.csv", ` to , body \n ${A} ;  ${B} ,  hello  \n`);
    expect(values(list)).toEqual([{ tos: [A, B], body: "  hello  " }]);
  });

  it("keeps an empty model value as an empty string, and refuses model values without a template id", async () => {
    const list = await entries("empty-model.csv", `to,template_id,model.x,model.y\n${A},t,,1\n${B},,v,\n`);
    expect(values(list)).toEqual([
      { tos: [A], template: { id: "t", model: { x: "", y: "1" } } },
      { tos: [B], template: { id: "", model: { x: "v", y: "" } } },
    ]);
  });

  it("reads a file whose line endings are mixed, keeping no '\\r' as data", async () => {
    const list = await entries("mixed.csv", `to,body\n${A},one\r\n${B},two\r${C},"x\r\ny"\n`);
    expect(values(list)).toEqual([
      { tos: [A], body: "one" },
      { tos: [B], body: "two" },
      { tos: [C], body: "x\r\ny" },
    ]);
    expect(locations(list)).toEqual(["line 2", "line 3", "line 4"]);
  });

  it("reads a file with CR-only line endings", async () => {
    const list = await entries("mac.csv", `to,body\r${A},one\r${B},two\r`);
    expect(values(list)).toEqual([
      { tos: [A], body: "one" },
      { tos: [B], body: "two" },
    ]);
    expect(locations(list)).toEqual(["line 2", "line 3"]);
  });
});

describe("the JSON reading rule in files", () => {
  it.each<[string, string, string | undefined, RegExp]>([
    ["a duplicate key (NDJSON)", `{"tos":["${A}"],"body":"SEND THIS","body":"not this"}\n`, "body", /appears more than once/],
    [
      "an integer above 2^53 (NDJSON)",
      `{"tos":["${A}"],"template":{"id":"t","model":{"n":9007199254740993}}}\n`,
      "template.model.n",
      /read as 9007199254740992/,
    ],
    ["1e-400 (NDJSON)", `{"tos":["${A}"],"template":{"id":"t","model":{"n":1e-400}}}\n`, "template.model.n", /read as 0/],
    ["-0 (NDJSON)", `{"tos":["${A}"],"template":{"id":"t","model":{"n":-0}}}\n`, "template.model.n", /other than -0/],
  ])("%s is a problem naming the field", async (_, content, field, reason) => {
    const [entry] = await entries("rule.ndjson", content);
    expect(entry.problem).toEqual({ field, reason: expect.stringMatching(reason) });
  });

  it("a duplicate key in a JSON file's element names the item", async () => {
    const [entry] = await entries("dup.json", `[{"tos":["${A}"],"tos":["${B}"],"body":"x"}]`);
    expect(entry).toMatchObject({
      location: "item 0 (line 1)",
      problem: { field: "tos", reason: expect.stringMatching(/more than once/) },
    });
  });

  it("reads NDJSON with CR-only line endings line by line", async () => {
    const list = await entries("mac.ndjson", `{"tos":["${A}"],"body":"one"}\r{"tos":["${B}"],"body":"two"}\r`);
    expect(values(list)).toEqual([
      { tos: [A], body: "one" },
      { tos: [B], body: "two" },
    ]);
  });

  it.each([
    ["a.ndjson", Buffer.from(`{"tos":["${A}"],"body":"x"}\n`, "utf16le"), /UTF-16 or UTF-32/],
    [
      "b.csv",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`to,body\n${A},x\n`, "utf16le")]),
      /UTF-16LE \(byte order mark FF FE\)/,
    ],
  ])("%s in UTF-16 is refused by name", async (name, content, expected) => {
    await expect(entries(name, content)).rejects.toThrow(expected);
  });

  it("a long line (read without copying its strings) gives the value JSON.parse gives, escapes and all", async () => {
    const message = { tos: [A], body: `${'é漢 "quoted" \\ tab\t '.repeat(40_000)}end`, model: { name: "x".repeat(300_000) } };
    const line = JSON.stringify(message);
    const list = await entries("long.ndjson", `${line}\n`);
    expect(list).toEqual([{ location: "line 1", source: line, value: message }]);
  });

  it("a message too large for a call of its own is a problem naming the limit", async () => {
    const body = "x".repeat(10 * 1024 * 1024);
    const list = await entries("huge.ndjson", `{"tos":["${A}"],"body":"ok"}\n{"tos":["${A}"],"body":"${body}"}\n`);
    expect(list[0].problem).toBeUndefined();
    expect(list[1]).toMatchObject({
      location: "line 2",
      problem: { reason: expect.stringMatching(/takes \d+ bytes as JSON; one call carries at most 10485760 bytes .*--batch-size 1/) },
    });
  });
});

describe("a JSON file's top-level stream", () => {
  async function declared(content: string): Promise<DeclaredStream | undefined> {
    const target = path.join(dir, "stream.json");
    writeFileSync(target, content);
    let found: DeclaredStream | undefined;
    for await (const batch of readEntries(target, "json", undefined, (d) => (found = d))) void batch;
    return found;
  }

  it("is reported with its line, before or after the messages", async () => {
    expect(await declared(`{"stream":"marketing","messages":[{"tos":["${A}"],"body":"x"}]}`)).toEqual({ stream: "marketing", line: 1 });
    expect(await declared(`{"messages":[{"tos":["${A}"],"body":"x"}],\n"stream":"mark\\u0065ting"}`)).toEqual({
      stream: "marketing",
      line: 2,
    });
    expect(await declared(`[{"tos":["${A}"],"body":"x"}]`)).toBeUndefined();
  });

  it.each([
    [`{"stream":1,"messages":[]}`, /expected a string under "stream"/],
    [`{"stream":"","messages":[]}`, /"stream" must not be empty/],
    [`{"stream":"a","stream":"b","messages":[]}`, /the key "stream" appears twice/],
    [`{"messages":[],"messages":[]}`, /the key "messages" appears twice/],
  ])("%s is refused", async (content, expected) => {
    expect(await fileError("bad-stream.json", content)).toMatch(expected);
  });

  it("chooseStream: --stream, else the file's, else transactional; a conflict is an error naming both", () => {
    const file = { stream: "marketing", line: 3 };
    expect(chooseStream(undefined, file)).toBe("marketing");
    expect(chooseStream("marketing", file)).toBe("marketing");
    expect(chooseStream("alerts", undefined)).toBe("alerts");
    expect(chooseStream(undefined, undefined)).toBe("transactional");
    expect(() => chooseStream("transactional", file)).toThrow(/line 3: the file's "stream" is 'marketing' but --stream is 'transactional'/);
  });
});

describe("the file as a whole", () => {
  it("a file that does not exist", async () => {
    await expect(entries("missing.ndjson", "").then(() => readEntries(path.join(dir, "nope.ndjson"), "ndjson").next())).rejects.toThrow(
      /^cannot be read: ENOENT/,
    );
  });
});

describe("a CSV message's key source (frozen: a changed source gives the call another key, and the service sends again)", () => {
  it("is the message as sent, in canonical JSON, whatever the header's order; and the call key made of it is pinned", async () => {
    const [first] = await entries("golden.csv", `to,body,template_id\n${A};${B},"Hello, world",\n`);
    const [reordered] = await entries("golden-reordered.csv", `body,to\n"Hello, world",${A};${B}\n`);
    expect(first.source).toBe(`{"body":"Hello, world","tos":["${A}","${B}"]}`);
    expect(reordered.source).toBe(first.source);
    const call = new CallKey({ key: IdentityKey.fromApiKey("sk_test_golden"), prefix: "ms3", stream: "transactional", sendId: "" });
    call.add(0, first.source);
    expect(call.finish().key).toBe("ms3-5acfe2277b6d9643e46b90eb9c96c005");
  });
});
