/** Reading message files as streams: NDJSON, JSON (array or { messages }), CSV; where each message is. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { FileError, fileFormat, readEntries, type Entry, type FileFormat } from "../../cli/message-file";

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
    expect(await fileError("malformed.csv", `to,body\n${A},hi\n${B},"unclosed\n`)).toMatch(/^not valid CSV: .*line 3/);
  });
});

describe("the file as a whole", () => {
  it("a file that does not exist", async () => {
    await expect(entries("missing.ndjson", "").then(() => readEntries(path.join(dir, "nope.ndjson"), "ndjson").next())).rejects.toThrow(
      /^cannot be read: ENOENT/,
    );
  });
});
